"""Listing the workspace's files: what git would track (tracked plus untracked, .gitignore honored)
when the root is a git work tree, else a walk that skips the usual build and vendor folders.
Symlinks are never followed while listing, so nothing outside the root is ever listed.

`stat_files` is the same listing with each file's (size, mtime_ns, inode) from the one `lstat` the listing
needs anyway: the index's warm start is this call and one query, so nothing here stats a file twice
or builds a `Path` per file (on 100,000 files either would cost a good part of a second).
"""

from __future__ import annotations

import errno
import os
import re
import stat
import subprocess
from pathlib import Path

from .odd_names import shown
from .safe_git import run_git

SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache",
     ".pytest_cache", ".ruff_cache", "dist", "build", "target", ".idea", ".gradle", ".next"}
)

# workspace-relative path -> (size, mtime_ns, inode). The inode tells a file replaced by a rename
# (an editor's atomic save, `git checkout`) from the same file when size and mtime happen to agree.
FileStats = dict[str, tuple[int, int, int]]


def list_files(root: Path) -> list[str]:
    """Workspace-relative paths of regular files, sorted."""
    return sorted(stat_files(root))


# What the latest listing of each root could not open (root -> folders, workspace-relative with a
# trailing "/"). Read by `unreadable_folders`: the index summary and every graph answer report them,
# since a file in such a folder is missing from the index without anything else saying so.
_UNREADABLE: dict[str, tuple[str, ...]] = {}
_DENIED = (errno.EACCES, errno.EPERM)
_GIT_DENIED = re.compile(rb"could not open directory '([^']*)': ")


def unreadable_folders(root: str | os.PathLike[str]) -> tuple[str, ...]:
    """The folders the latest listing of `root` (in this process) had no permission to read."""
    return _UNREADABLE.get(os.path.realpath(root), ())


def stat_files(root: Path) -> FileStats:
    """Every listed regular file with its (size, mtime_ns, inode), in no particular order."""
    denied: set[str] = set()
    found = _git_files(root, denied)
    if found is None:
        denied.clear()
        found = _walk(os.fspath(root), denied)
    _UNREADABLE[os.path.realpath(root)] = tuple(sorted(denied))
    return found


def _git_files(root: Path, denied: set[str]) -> FileStats | None:
    if not os.path.exists(os.path.join(root, ".git")):
        return None
    try:
        done = run_git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    for folder in _GIT_DENIED.findall(done.stderr or b""):  # untracked files there are not listed
        denied.add(shown(os.fsdecode(folder)).rstrip("/") + "/")
    base = os.fspath(root) + os.sep
    found: FileStats = {}
    # ls-files lists deleted-but-tracked files and symlinks too: keep regular files only.
    for raw in done.stdout.split(b"\0"):
        if not raw:
            continue
        name = os.fsdecode(raw)
        if name in found:
            continue  # a file with merge conflicts is listed once per stage
        try:
            info = os.lstat(base + name)
        except OSError as error:
            if error.errno in _DENIED:  # a tracked file in a folder we may not enter
                denied.add(shown(os.path.dirname(name)) + "/")
            continue
        if stat.S_ISREG(info.st_mode):
            found[shown(name)] = (info.st_size, info.st_mtime_ns, info.st_ino)
    return found


def _walk(root: str, denied: set[str]) -> FileStats:
    """os.scandir, depth first: the entry type comes with the directory read, so only regular files
    cost a stat (for their size, mtime and inode)."""
    found: FileStats = {}
    pending = [("", root)]
    while pending:
        prefix, folder = pending.pop()
        try:
            entries = os.scandir(folder)
        except OSError as error:
            if error.errno in _DENIED:
                denied.add(prefix or "./")  # reported, not silently skipped
            continue  # unreadable or vanished mid-walk: list what can be listed
        with entries:
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name not in SKIPPED_DIRS:
                            pending.append((prefix + shown(entry.name) + "/", entry.path))
                    elif entry.is_file(follow_symlinks=False):
                        info = entry.stat(follow_symlinks=False)
                        found[prefix + shown(entry.name)] = (info.st_size, info.st_mtime_ns, info.st_ino)
                except OSError as error:
                    if error.errno in _DENIED:  # listed but not searchable: its files cannot be read
                        denied.add(prefix or "./")
                    continue
    return found
