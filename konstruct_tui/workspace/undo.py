"""Undo the newest batch: only when every file it touched is still exactly as it left it, and only
after its manifest and every pre-image verify against their hashes.

Order: an interrupted batch is settled first (recovery.py). If that rolled back an atomic batch, that
rollback *is* the undo (the newest batch that touched the disk), and nothing older is taken back. A
batch still being applied by another process, or an interrupted one that cannot be recovered,
stops undo: an older batch is never undone over a newer one.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from typing import Any

from .bytecode import forget_bytecode
from .containment import PathMissing, PathRefused
from .handle import NotAFile, Workspace
from .journal import UNDOING, JournalEntry, WriteJournal, load_batch
from .manifest import MANIFEST, JournalDamaged
from .recovery import is_live, live_or_stuck, recover_interrupted
from .restoring import current_revision, restore, restore_revision
from .swap import SwapConflict


class UndoRefused(Exception):
    """Nothing was restored; the message says why."""


class JournalUnusable(UndoRefused):
    """The journal is damaged or cannot be written: nothing was restored (`konstruct undo` exits 2)."""


def undo_last(workspace: Workspace, journal: WriteJournal) -> dict[str, Any]:
    try:
        return _undo_last(workspace, journal)
    except JournalDamaged as damage:  # the journal's folder itself cannot be read
        raise JournalUnusable(str(damage)) from None


def _undo_last(workspace: Workspace, journal: WriteJournal) -> dict[str, Any]:
    for recovered in recover_interrupted(workspace, journal):
        if recovered.rolled_back:
            forget_bytecode(workspace, [path for path, _ in recovered.rolled_back])
            results = [{"path": path, "status": status} for path, status in recovered.rolled_back]
            return {"undone": recovered.batch_id, "tool": recovered.tool, "results": results, "recovered": True}
    finished = journal.finished()
    stuck = live_or_stuck(journal)
    if stuck is not None and (not finished or stuck.name > finished[-1].name):
        batch_id = stuck.name.split(".")[0]
        if is_live(stuck):
            raise UndoRefused(f"batch {batch_id} is being applied or undone by another konstruct right now; undo again when it has finished")
        raise JournalUnusable(
            f"batch {batch_id} was interrupted and could not be recovered ({stuck}); nothing was restored. "
            f"Check its files by hand; `konstruct undo --drop {batch_id}` forgets it and lets undo reach older batches"
        )
    if not finished:
        raise UndoRefused("nothing to undo: no batch has been applied in this workspace")
    try:
        batch = load_batch(finished[-1])
    except JournalDamaged as damage:
        raise JournalUnusable(str(damage)) from None
    changed = [e.path for e in batch.entries if current_revision(workspace, e.path) != e.after_revision]
    if changed:
        raise UndoRefused(
            f"cannot undo batch {batch.batch_id}: {', '.join(changed)} changed since it was written; nothing was restored"
        )
    undoing = finished[-1].with_name(batch.batch_id + UNDOING)
    try:
        os.rename(finished[-1], undoing)  # from here an interruption is finished by the next start
        lock = os.open(undoing / MANIFEST, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as error:
        raise JournalUnusable(
            f"the undo journal cannot be written ({error.strerror or error}: {journal.folder}); nothing was restored. "
            "Make that folder writable and run undo again"
        ) from None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        results = _restore_all(workspace, batch.entries, batch.batch_id)
    except UndoRefused:
        os.rename(undoing, finished[-1])
        raise
    finally:
        os.close(lock)
    shutil.rmtree(undoing, ignore_errors=True)
    forget_bytecode(workspace, [e.path for e in batch.entries])  # the restored source is what runs next
    return {"undone": batch.batch_id, "tool": batch.tool, "results": results}


def drop_batch(journal: WriteJournal, batch_id: str) -> None:
    """Forget one batch without restoring anything (the way past a damaged one). Raises UndoRefused."""
    known = {p.name.split(".")[0]: p for p in [*journal.finished(), *journal.interrupted()]}
    if batch_id not in known:
        raise UndoRefused(f"no such batch in this workspace's undo journal ({journal.folder})")
    if is_live(known[batch_id]):
        raise UndoRefused("that batch is being applied or undone by another konstruct right now")
    journal.drop(batch_id)


def _words(error: Exception) -> str:
    return (error.strerror if isinstance(error, OSError) else None) or str(error)


def _restore_all(workspace: Workspace, entries: list[JournalEntry], batch_id: str) -> list[dict[str, str]]:
    done: list[tuple[JournalEntry, bytes | None]] = []
    results = []
    for entry in entries:
        try:
            after = workspace.read(entry.path).data if entry.after_revision is not None else None
            restore_revision(workspace, entry.path, entry.before, entry.after_revision, after is not None, entry.mode)
        except (SwapConflict, OSError, PathRefused, PathMissing, NotAFile) as error:
            for earlier, earlier_after in reversed(done):  # put the batch's bytes back: all of it stays, or none
                restore(workspace, earlier.path, earlier_after, earlier.before, earlier.mode)
            why = f"changed during the undo ({error})" if isinstance(error, SwapConflict) else f"could not be restored ({_words(error)})"
            raise UndoRefused(f"cannot undo batch {batch_id}: {entry.path} {why}; nothing was restored") from None
        done.append((entry, after))
        workspace.remove_empty_dirs(list(entry.created_dirs))
        status = "removed" if entry.before is None else ("recreated" if after is None else "restored")
        results.append({"path": entry.path, "status": status})
    return results
