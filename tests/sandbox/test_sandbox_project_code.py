"""Issue 31: files in the workspace that unconfined programs run are read-only to commands, and
permission and time changes outside the workspace are refused.

- A `.venv` (any folder with `pyvenv.cfg`): `site-packages/zz.pth` would run at the next start of
  konstruct installed there, unconfined.
- git's include files, a configured hooks folder, a program git's config names: the person's
  own `git status` runs what is planted there.
- chmod/chown/utime: Landlock has no right for them; outside the workspace they meet a read-only
  view (or nothing at all).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from konstruct_tui.sandbox import SandboxSettings, namespaces, plan_for
from sandbox_helpers import needs_landlock, run_confined, verdicts, writer

pytestmark = [needs_landlock, pytest.mark.skipif(not namespaces.available(), reason="needs private namespaces (root)")]


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@pytest.fixture
def repo(workspace_root: Path) -> Path:
    _git(workspace_root, "init", "-q")
    return workspace_root


def _venv(folder: Path) -> Path:
    site = folder / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (folder / "pyvenv.cfg").write_text("home = /usr/bin\n")
    return site


@pytest.mark.parametrize("name", [".venv", "venv", "env-anything", ".tox/py311", ".nox/tests"])
def test_a_virtualenv_in_the_workspace_is_read_only(workspace_root: Path, name: str) -> None:
    site = _venv(workspace_root / name)
    outcome = run_confined(workspace_root, writer(site / "zz.pth", workspace_root / name / "pyvenv.cfg",
                                                  workspace_root / "src" / "ok.py"))
    found = verdicts(outcome)
    assert found[str(site / "zz.pth")] == "denied", outcome
    assert found[str(workspace_root / name / "pyvenv.cfg")] == "denied"
    assert found[str(workspace_root / "src" / "ok.py")] == "wrote"
    assert not (site / "zz.pth").exists()


def test_the_virtualenv_cannot_be_moved_away_or_replaced(workspace_root: Path) -> None:
    site = _venv(workspace_root / ".venv")
    (workspace_root / "evil").mkdir()
    (workspace_root / "evil" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    for argv in (["mv", ".venv", "moved"], ["rm", "-rf", ".venv"], ["mv", "-T", "evil", ".venv"],
                 ["sh", "-c", "cd .venv/lib/python3.11/site-packages && echo 'import os' > zz.pth"],
                 ["ln", "-s", "/tmp/x", ".venv/lib/python3.11/site-packages/zz.pth"],
                 ["touch", "-d", "2001-01-01", ".venv/pyvenv.cfg"], ["chmod", "777", ".venv"]):
        run_confined(workspace_root, argv)
    assert (workspace_root / ".venv" / "pyvenv.cfg").exists() and not (site / "zz.pth").exists()
    assert not (workspace_root / "moved").exists()
    assert oct((workspace_root / ".venv").stat().st_mode & 0o777) != oct(0o777)


def test_konstruct_says_when_it_runs_from_a_virtualenv_inside_the_project(workspace_root: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    _venv(workspace_root / ".venv")
    monkeypatch.setattr(sys, "prefix", str(workspace_root / ".venv"))
    plan = plan_for(workspace_root, SandboxSettings())
    assert any("virtualenv inside this project (.venv)" in note for note in plan.notes), plan.notes
    assert os.path.realpath(workspace_root / ".venv") in plan.read_only


@pytest.mark.parametrize("key", ["include.path", "includeIf.gitdir:/.path"])
def test_a_git_include_file_is_read_only(repo: Path, key: str) -> None:
    (repo / "shared.gitconfig").write_text("[user]\n\tname = x\n")
    _git(repo, "config", key, "../shared.gitconfig")
    outcome = run_confined(repo, ["sh", "-c", "printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> shared.gitconfig"])
    assert outcome.status == "failed", outcome
    assert "fsmonitor" not in (repo / "shared.gitconfig").read_text()


def test_an_include_file_git_would_read_but_that_is_missing_cannot_be_planted(repo: Path) -> None:
    _git(repo, "config", "include.path", "../conf/later.gitconfig")
    run_confined(repo, ["sh", "-c", "mkdir -p conf; printf '[core]\\n\\tfsmonitor = touch pwned\\n' > conf/later.gitconfig"])
    planted = repo / "conf" / "later.gitconfig"
    assert not planted.exists() or "fsmonitor" not in planted.read_text()


def test_a_configured_hooks_folder_is_read_only(repo: Path) -> None:
    (repo / ".githooks").mkdir()
    _git(repo, "config", "core.hooksPath", ".githooks")
    outcome = run_confined(repo, writer(repo / ".githooks" / "pre-commit", repo / "README"))
    assert verdicts(outcome)[str(repo / ".githooks" / "pre-commit")] == "denied"
    assert verdicts(outcome)[str(repo / "README")] == "wrote"
    for argv in (["mv", ".githooks", "old"], ["mkdir", ".githooks/x"]):
        run_confined(repo, argv)
    assert (repo / ".githooks").is_dir() and os.listdir(repo / ".githooks") == []


def test_a_hooks_folder_configured_in_the_persons_global_config_is_held_too(repo: Path, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[core]\n\thooksPath = .githooks\n")
    monkeypatch.setenv("HOME", str(home))
    outcome = run_confined(repo, ["sh", "-c", "mkdir -p .githooks && echo 'touch pwned' > .githooks/pre-commit"])
    assert not (repo / ".githooks" / "pre-commit").exists(), outcome


def test_a_program_git_config_names_in_the_workspace_is_read_only(repo: Path) -> None:
    (repo / "tools").mkdir()
    (repo / "tools" / "clean.sh").write_text("#!/bin/sh\ncat\n")
    (repo / "tools" / "alias.sh").write_text("#!/bin/sh\n")
    _git(repo, "config", "filter.x.clean", "./tools/clean.sh --quiet")
    _git(repo, "config", "alias.t", "!tools/alias.sh")
    outcome = run_confined(repo, writer(repo / "tools" / "clean.sh", repo / "tools" / "alias.sh",
                                        repo / "tools" / "other.sh"))
    found = verdicts(outcome)
    assert found[str(repo / "tools" / "clean.sh")] == "denied"
    assert found[str(repo / "tools" / "alias.sh")] == "denied"
    assert found[str(repo / "tools" / "other.sh")] == "wrote"


CHANGE = """
import os, sys
for path in sys.argv[1:]:
    for name, change in (("chmod", lambda p: os.chmod(p, 0o777)), ("chown", lambda p: os.chown(p, 1, 1)),
                         ("utime", lambda p: os.utime(p, (0, 0))), ("xattr", lambda p: os.setxattr(p, "user.k", b"v"))):
        try:
            change(path)
            print(name, "changed", path)
        except OSError as error:
            print(name, "refused", error.errno, path)
"""


def test_chmod_chown_and_utime_outside_the_workspace_are_refused(workspace_root: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    readable = tmp_path / "tools-on-path"  # a folder the command may read (PATH): visible, never changeable
    readable.mkdir()
    (readable / "tool").write_text("x")
    os.chmod(readable / "tool", 0o644)
    monkeypatch.setenv("PATH", f"{readable}{os.pathsep}{os.environ['PATH']}")
    hidden = tmp_path / "elsewhere.txt"
    hidden.write_text("x")
    os.chmod(hidden, 0o600)
    inside = workspace_root / "script.sh"
    inside.write_text("x")
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", CHANGE, str(readable / "tool"), str(hidden),
                                            str(readable), str(inside)])
    lines = outcome.stdout.splitlines()
    outside = [line for line in lines if not line.endswith(str(inside))]
    assert outside and all(" refused " in line for line in outside), outcome
    assert (readable / "tool").stat().st_mode & 0o777 == 0o644 and hidden.stat().st_mode & 0o777 == 0o600
    assert (readable / "tool").stat().st_uid == os.getuid() and (readable / "tool").stat().st_mtime > 0
    assert f"chmod changed {inside}" in lines and inside.stat().st_mode & 0o777 == 0o777


def test_a_fifo_can_be_made_in_the_temp_folder_but_not_in_the_workspace(workspace_root: Path) -> None:
    code = ("import os\nfor p in (os.environ['TMPDIR'] + '/f', '.gitignore', 'src/.ignore'):\n    try:\n"
            "        os.mkfifo(p); print('made', p)\n    except OSError as e:\n        print('refused', p, e.errno)\n")
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", code])
    lines = outcome.stdout.splitlines()
    assert lines[0].startswith("made") and all(line.startswith("refused") for line in lines[1:]), outcome
    assert not (workspace_root / ".gitignore").exists() and not (workspace_root / "src" / ".ignore").exists()
