"""Putting a file back as it was: used by an atomic batch's rollback, by undo, and by recovery.

Every step is a compare-and-swap (swap.py): a file is restored only while it is still exactly what
the batch left there, so a person's later edit is never the thing thrown away.
"""

from __future__ import annotations

from .containment import PathMissing, PathRefused
from .handle import NotAFile, Workspace
from .revision import revision_of
from .swap import remove_if, write_new, write_replacing


def restore(workspace: Workspace, resolved: str, before: bytes | None, after: bytes | None, mode: int | None) -> None:
    """Put `before` back where `after` is now (None on either side: absent). Raises SwapConflict
    when the file is no longer `after`."""
    restore_revision(workspace, resolved, before, None if after is None else revision_of(after), after is not None, mode)


def restore_revision(workspace: Workspace, resolved: str, before: bytes | None, after_revision: str | None, after_exists: bool, mode: int | None) -> None:
    """`restore`, knowing only the revision now there (what the journal keeps)."""
    if before is None and not after_exists:
        return
    if before is None:
        with workspace.locate(resolved, follow_last=False) as where:
            remove_if(where.parent_fd, where.name, after_revision or "")
    elif not after_exists:
        with workspace.locate(resolved, make_parents=True) as where:
            write_new(where.parent_fd, where.name, before, mode)
    else:
        with workspace.locate(resolved) as where:
            write_replacing(where.parent_fd, where.name, before, after_revision or "", mode or 0o644)


def current_revision(workspace: Workspace, path: str) -> str | None:
    """The revision at `path` now; None when no file is there; "unreadable" when it cannot be told."""
    try:
        return workspace.read(path).revision
    except (PathMissing, NotAFile):
        return None
    except PathRefused:
        return "unreadable"
