"""`/diff`: what this session changed, as one unified diff.

The "before" of each file is its pre-image in the first journal batch of the session that touched
it (the write journal keeps pre-images for `undo`); the "after" is the disk now. So the diff also
shows a later edit made by hand, and a file the session changed and then undid shows nothing.
"""

from __future__ import annotations

import difflib

from ..workspace import NotAFile, PathMissing, PathRefused, Workspace, WriteJournal


def session_diff(workspace: Workspace, since: float, only: str | None = None, journal: WriteJournal | None = None) -> tuple[str, list[str]]:
    """(unified diff, changed paths) for the batches journaled at or after `since` (epoch seconds)."""
    journal = journal or WriteJournal(workspace.root)
    before: dict[str, bytes | None] = {}
    for batch in journal.batches():
        if batch.created_at < since:
            continue
        for entry in batch.entries:
            before.setdefault(entry.path, entry.before)
    parts: list[str] = []
    changed: list[str] = []
    for path in sorted(before):
        if only and path != only and not path.startswith(only.rstrip("/") + "/"):
            continue
        old, new = before[path], _current(workspace, path)
        if old == new:
            continue
        changed.append(path)
        parts.append(_unified(path, old, new))
    return "".join(parts), changed


def _current(workspace: Workspace, path: str) -> bytes | None:
    try:
        return workspace.read(path).data
    except (PathMissing, NotAFile, PathRefused):
        return None


def _unified(path: str, old: bytes | None, new: bytes | None) -> str:
    try:
        a = old.decode("utf-8") if old is not None else ""
        b = new.decode("utf-8") if new is not None else ""
    except UnicodeDecodeError:
        return f"Binary files a/{path} and b/{path} differ\n"
    lines = difflib.unified_diff(
        a.splitlines(keepends=True), b.splitlines(keepends=True),
        "/dev/null" if old is None else f"a/{path}", "/dev/null" if new is None else f"b/{path}",
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
