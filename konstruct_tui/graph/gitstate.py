"""The two git facts the graph needs: the commit an index was built at, and which files differ from it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from ..workspace import run_git, shown

_TIMEOUT = 10


def _git(root: Path, *args: str) -> bytes | None:
    try:
        done = run_git(root, *args, timeout=_TIMEOUT)  # hardened: runs no project-controlled program
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def head(root: Path) -> str | None:
    """HEAD's commit id, or None outside a git work tree (or before the first commit)."""
    out = _git(root, "rev-parse", "--verify", "-q", "HEAD")
    return out.decode().strip() or None if out else None


def changed_since(root: Path, commit: str) -> set[str] | None:
    """Workspace-relative paths whose working-tree bytes differ from `commit`: committed since, staged,
    unstaged, deleted and untracked. None when git cannot tell (the commit is gone, no git)."""
    diff = _git(root, "diff", "--no-ext-diff", "--no-textconv", "--name-only", "-z", "--relative", "--no-renames", commit, "--")
    if diff is None:
        return None
    untracked = _git(root, "ls-files", "-z", "--others", "--exclude-standard") or b""
    names = [n for n in (diff + b"\0" + untracked).split(b"\0") if n]
    return {shown(os.fsdecode(n)) for n in names}  # spelled as the index spells them


def is_ignored(root: Path, path: str) -> bool:
    """True when git would ignore `path` (False outside git: the walk's own skip list applies)."""
    try:
        done = run_git(root, "check-ignore", "-q", "--", path, timeout=_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0
