"""Undo the last applied batch: only when every file it touched is still exactly as it left it."""

from __future__ import annotations

from typing import Any

from .batch import remove_empty_dirs, restore
from .bytecode import forget_bytecode
from .containment import PathMissing, PathRefused
from .handle import NotAFile, Workspace
from .journal import WriteJournal
from .swap import SwapConflict


class UndoRefused(Exception):
    """Nothing was restored; the message says why."""


def undo_last(workspace: Workspace, journal: WriteJournal) -> dict[str, Any]:
    batch = journal.latest()
    if batch is None:
        raise UndoRefused("nothing to undo: no batch has been applied in this workspace")
    changed = [e.path for e in batch.entries if _current(workspace, e.path) != e.after_revision]
    if changed:
        raise UndoRefused(
            f"cannot undo batch {batch.batch_id}: {', '.join(changed)} changed since it was written; nothing was restored"
        )
    done: list[tuple[Any, bytes | None]] = []
    results = []
    for entry in batch.entries:
        after = workspace.read(entry.path).data if entry.after_revision else None
        try:
            restore(workspace, entry.path, entry.before, after, entry.mode)
        except (SwapConflict, OSError, PathRefused, PathMissing) as error:
            for earlier, earlier_after in reversed(done):
                restore(workspace, earlier.path, earlier_after, earlier.before, earlier.mode)
            raise UndoRefused(f"cannot undo: {entry.path} changed during the undo ({error}); nothing was restored") from None
        done.append((entry, after))
        remove_empty_dirs(workspace, list(entry.created_dirs))
        status = "removed" if entry.before is None else ("recreated" if after is None else "restored")
        results.append({"path": entry.path, "status": status})
    journal.drop(batch.batch_id)
    forget_bytecode(workspace, [e.path for e in batch.entries])  # the restored source is what runs next
    return {"undone": batch.batch_id, "tool": batch.tool, "results": results}


def _current(workspace: Workspace, path: str) -> str | None:
    try:
        return workspace.read(path).revision
    except (PathMissing, NotAFile):
        return None
    except PathRefused:
        return "refused"
