"""Issue 31: a FIFO named `.gitignore` (or `.ignore`, or a git include file) in the workspace
stalled our own git, rg and search for their whole timeout (60 s). Our programs now see the
waiting open() and hand it end of file; the FIFO reads as empty and nothing else changes."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import Workspace, list_files, run_git
from konstruct_tui.workspace import run_unstalled

BOUND_S = 20  # far below the 60 s a stall cost, far above a busy machine's real time


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("needle = 1\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


@pytest.mark.parametrize("fifo", [".gitignore", "src/.gitignore", ".ignore", "src/.rgignore", ".gitattributes"])
def test_git_listing_and_search_do_not_stall_on_a_fifo(project: Path, fifo: str) -> None:
    os.mkfifo(project / fifo)
    started = time.monotonic()
    status = run_git(project, "status", "--porcelain")
    files = list_files(project)
    with Workspace(project) as workspace:
        found = call("search", {"query": "needle"}, ToolContext(workspace)).to_json()
    assert time.monotonic() - started < BOUND_S
    assert status.returncode == 0 and "src/app.py" in files
    assert "src/app.py" in str(found)
    assert stat_is_fifo(project / fifo)  # left as it was


def test_a_fifo_git_config_includes_does_not_stall_it(project: Path) -> None:
    os.mkfifo(project / "shared.gitconfig")
    subprocess.run(["git", "-C", str(project), "config", "include.path", "../shared.gitconfig"], check=True)
    started = time.monotonic()
    assert run_git(project, "status", "--porcelain").returncode == 0
    assert time.monotonic() - started < BOUND_S


def test_a_program_that_really_runs_long_still_times_out(tmp_path: Path) -> None:
    with pytest.raises(subprocess.TimeoutExpired):
        run_unstalled(["sleep", "30"], root=tmp_path, timeout=1.5)


def stat_is_fifo(path: Path) -> bool:
    import stat
    return stat.S_ISFIFO(os.lstat(path).st_mode)
