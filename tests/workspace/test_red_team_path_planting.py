"""Red team: a program planted in the workspace on the person's PATH (an activated `.venv/bin` in the
project) is never what the workbench runs unconfined, nor what a look-around runs without a grant. A
confined command may write the workspace and set the executable bit (Landlock does not govern chmod),
so every program we start ourselves is found on PATH outside the workspace."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from konstruct_tui.commands import PolicyConfig, decide
from konstruct_tui.graph import gitstate
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.tools import ripgrep
from konstruct_tui.workspace import Workspace
from konstruct_tui.workspace.listing import list_files


@pytest.fixture
def planted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A git project whose `.venv/bin` (first on PATH) holds a `git`, `rg` and `cat` that leave a mark."""
    root, marks = tmp_path / "project", tmp_path / "marks"
    marks.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "a.txt").write_text("needle\n")
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("git", "rg", "cat"):
        fake = bin_dir / name
        fake.write_text(f"#!/bin/sh\ntouch {marks / name}\nexit 1\n")
        fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return root, marks


def test_the_planted_programs_are_what_a_bare_name_finds(planted: tuple[Path, Path]) -> None:
    root, marks = planted
    subprocess.run(["git", "status"], cwd=root, capture_output=True, check=False)
    assert (marks / "git").exists()


def test_our_own_git_and_search_run_the_programs_outside_the_workspace(planted: tuple[Path, Path],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    root, marks = planted
    gitstate.head(root)  # no commit yet: what matters is that nothing planted runs
    gitstate.changed_since(root, "HEAD")
    assert "a.txt" in list_files(root)
    monkeypatch.setattr(ripgrep, "rg_binary", lambda: str(root / ".venv" / "bin" / "rg"))  # as if shipped in a project venv
    with Workspace(root) as workspace:
        found = call("search", {"query": "needle", "match": "text"}, ToolContext(workspace)).to_json()
    assert [hit["path"] for hit in found["results"]] == ["a.txt"], found
    assert sorted(p.name for p in marks.iterdir()) == []


def test_a_look_around_runs_the_program_outside_the_workspace(planted: tuple[Path, Path]) -> None:
    root, _ = planted
    decision = decide("cat a.txt", PolicyConfig(root=root, read_only_sandbox=True))
    assert (decision.decision, decision.rule) == ("allow", "read_only")
    assert os.path.isabs(decision.argv[0]) and not decision.argv[0].startswith(str(root))
    git = decide("git status", PolicyConfig(root=root, read_only_sandbox=True))
    assert not git.argv[0].startswith(str(root)) and os.path.isabs(git.argv[0])


def test_a_look_around_found_only_in_the_workspace_asks(planted: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root, _ = planted
    monkeypatch.setenv("PATH", str(root / ".venv" / "bin"))  # nothing outside
    decision = decide("cat a.txt", PolicyConfig(root=root, read_only_sandbox=True))
    assert (decision.decision, decision.rule) == ("ask", "needs_grant")
