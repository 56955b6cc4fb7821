"""Content snapshots of the workspace: a revision per file, taken stat-first.

The blueprint gate judges what is on disk, whatever changed it (a tool write, a command, a
formatter), so it needs "which files differ now from then" cheaply and without trusting any record
of tool calls. A snapshot is path -> (size, mtime_ns, inode, revision). Taking one with a previous
snapshot at hand only hashes files whose stat moved (git's index does the same), so a warm snapshot
costs about a stat per file; measured in bench/bench_snapshot.py against a plain walk + stat.

Why not git's index: it only covers git trees, and `git status` on a tree of the CPython stdlib's size
costs more than this walk does (see the bench). Why not the graph index's store: it is only as fresh
as its reconciler and only holds files a language parser took in.

Racily clean entries (modified within the clock's granularity of the moment the snapshot was taken,
so a later same-size write could keep the same mtime) are hashed again next time, as git does.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import stat
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .listing import SKIPPED_DIRS
from .safe_git import run_git

_RACY_NS = 2_000_000_000  # coarse filesystem clocks and same-second mtimes: hash again if this recent
_SKIPPED_SUFFIXES = (".pyc", ".pyo")


@dataclass(frozen=True)
class FileState:
    size: int
    mtime_ns: int
    inode: int
    revision: str  # sha256:<hex> of the bytes

    def same_stat(self, info: os.stat_result) -> bool:
        return self.size == info.st_size and self.mtime_ns == info.st_mtime_ns and self.inode == info.st_ino


@dataclass(frozen=True)
class TreeSnapshot:
    files: dict[str, FileState]
    taken_ns: int = field(default_factory=time.time_ns)

    def revision(self, path: str) -> str | None:
        state = self.files.get(path)
        return state.revision if state else None


@dataclass(frozen=True)
class TreeChanges:
    """path -> how it differs: `added`, `modified`, `deleted` (sorted by path)."""

    kinds: dict[str, str]

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(self.kinds)

    def __bool__(self) -> bool:
        return bool(self.kinds)


def normalise(path: str) -> str | None:
    """The one workspace-relative spelling of `path` (`src/../notes.md` is `notes.md`), or None when
    it is absolute, empty, or leaves the root: a path is compared only in this form."""
    if not path or "\x00" in path or path.startswith("/"):
        return None
    norm = posixpath.normpath(path.replace("\\", "/") if os.sep == "\\" else path)
    if norm in (".", "") or norm == ".." or norm.startswith("../"):
        return None
    return norm


def take_snapshot(root: str | os.PathLike[str], previous: TreeSnapshot | None = None) -> TreeSnapshot:
    """The workspace's files now. With `previous`, a file whose size, mtime and inode are the same
    (and that was not racily clean then) keeps its revision without being read."""
    base = os.fspath(Path(root).resolve())
    taken = time.time_ns()
    known = previous.files if previous is not None else {}
    racy_after = (previous.taken_ns - _RACY_NS) if previous is not None else 0
    files: dict[str, FileState] = {}
    for relative, info in _listing(base):
        before = known.get(relative)
        if before is not None and before.same_stat(info) and before.mtime_ns < racy_after:
            files[relative] = before
            continue
        revision = _hash(os.path.join(base, relative))
        if revision is not None:
            files[relative] = FileState(info.st_size, info.st_mtime_ns, info.st_ino, revision)
    return TreeSnapshot(files, taken)


def changes_between(before: TreeSnapshot, after: TreeSnapshot) -> TreeChanges:
    kinds: dict[str, str] = {}
    for path in sorted(set(before.files) | set(after.files)):
        old, new = before.files.get(path), after.files.get(path)
        if old is None:
            kinds[path] = "added"
        elif new is None:
            kinds[path] = "deleted"
        elif old.revision != new.revision:
            kinds[path] = "modified"
    return TreeChanges(kinds)


def _listing(base: str) -> Iterator[tuple[str, os.stat_result]]:
    names = _git_names(base) if os.path.exists(os.path.join(base, ".git")) else None
    if names is not None:
        # A git tree: what git would track (.gitignore honored), so build output never counts.
        for relative in names:
            if _skipped(relative):
                continue
            try:
                info = os.lstat(os.path.join(base, relative))
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                yield relative, info
        return
    yield from _walk(base, "")


def _git_names(base: str) -> list[str] | None:
    """`git ls-files` (tracked and untracked, ignored left out); None when git cannot say. The same
    listing as listing.py, without its per-file checks: every name is lstat'ed here anyway."""
    try:
        # Our hardened git: a `.git` a command made in a project that had none may set core.fsmonitor.
        done = run_git(base, "ls-files", "-z", "--cached", "--others", "--exclude-standard", timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return list(dict.fromkeys(os.fsdecode(n) for n in done.stdout.split(b"\0") if n))


def _walk(base: str, prefix: str) -> Iterator[tuple[str, os.stat_result]]:
    try:
        entries = list(os.scandir(os.path.join(base, prefix) if prefix else base))
    except OSError:
        return
    for entry in entries:
        relative = prefix + entry.name
        try:
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in SKIPPED_DIRS:
                    yield from _walk(base, relative + "/")
            elif entry.is_file(follow_symlinks=False) and not entry.name.endswith(_SKIPPED_SUFFIXES):
                yield relative, entry.stat(follow_symlinks=False)
        except OSError:
            continue


def _skipped(relative: str) -> bool:
    return relative.endswith(_SKIPPED_SUFFIXES) or any(part in SKIPPED_DIRS for part in relative.split("/")[:-1])


def _hash(full: str) -> str | None:
    try:
        fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None  # gone or turned into a link since it was listed: not a file of the snapshot
    with os.fdopen(fd, "rb") as handle:
        return "sha256:" + hashlib.file_digest(handle, "sha256").hexdigest()
