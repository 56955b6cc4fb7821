"""Listing the workspace's files: what git would track (tracked plus untracked, .gitignore honored)
when the root is a git work tree, else a walk that skips the usual build and vendor folders.
Symlinks are never followed while listing, so nothing outside the root is ever listed."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

from .safe_git import run_git

SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache",
     ".pytest_cache", ".ruff_cache", "dist", "build", "target", ".idea", ".gradle", ".next"}
)


def list_files(root: Path) -> list[str]:
    """Workspace-relative paths of regular files, sorted."""
    listed = _git_files(root)
    if listed is None:
        listed = list(_walk(root))
    return sorted(listed)


def _git_files(root: Path) -> list[str] | None:
    if not (root / ".git").exists():
        return None
    try:
        done = run_git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    names = [os.fsdecode(n) for n in done.stdout.split(b"\0") if n]
    # ls-files lists deleted-but-tracked files and symlinks too: keep regular files only.
    return [n for n in dict.fromkeys(names) if (root / n).is_file() and not (root / n).is_symlink()]


def _walk(root: Path) -> Iterator[str]:
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        base = Path(folder).relative_to(root)
        for name in files:
            full = Path(folder) / name
            if full.is_file() and not full.is_symlink():
                yield (base / name).as_posix() if str(base) != "." else name
