"""What a notified path means to the index: its spelling in the index (`relative`), what is there
now (`stat_of`), and whether the index leaves it out (`ignored`)."""

from __future__ import annotations

import os
import posixpath
import stat

from ..workspace import SKIPPED_DIRS, PathMissing, PathRefused, Workspace
from . import gitstate


def relative(path: str) -> str | None:
    """A notified path in the index's spelling (`a/b.py`), or None for one that cannot name a file
    of the workspace (absolute, leaving the root, the root itself)."""
    if not isinstance(path, str) or not path or path.startswith("/") or "\0" in path:
        return None
    normal = posixpath.normpath(path.replace("\\", "/")).rstrip("/")
    if normal in (".", "..") or normal.startswith("../"):
        return None
    return normal


def stat_of(workspace: Workspace, path: str, *, trusted: bool) -> tuple[int, int, int] | str | None:
    """(size, mtime_ns, inode) of a regular file, "dir", or None. `trusted`: the path came from the
    workspace listing, which never goes through a symlink, so a plain lstat is safe."""
    try:
        if trusted:
            info = os.lstat(os.path.join(workspace.root, path))
        else:
            with workspace.locate(path, follow_last=False) as where:
                if not where.exists:
                    return None
                if not where.name:
                    return "dir"
                info = os.stat(where.name, dir_fd=where.parent_fd, follow_symlinks=False)
    except (OSError, PathMissing, PathRefused):
        return None
    if stat.S_ISDIR(info.st_mode):
        return "dir"
    if not stat.S_ISREG(info.st_mode):
        return None
    return info.st_size, info.st_mtime_ns, info.st_ino


def ignored(workspace: Workspace, path: str) -> bool:
    parts = path.split("/")
    if any(part in SKIPPED_DIRS for part in parts[:-1]):
        return True
    return gitstate.is_ignored(workspace.root, path)
