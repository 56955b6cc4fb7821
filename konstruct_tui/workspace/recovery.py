"""Settling what a process that died mid-batch (SIGKILL, a crash, a power cut) left behind.

Run at the start of everything that touches the workspace, and before every batch and every undo.
A batch folder still `.open` whose flock is free was interrupted:

- atomic: every file it changed is put back to its pre-image, the folders it made are removed, and
  the batch is forgotten: nothing of it stays on disk;
- non-atomic: what landed is recorded as the batch (each file at the revision it was left at), so
  `konstruct undo` takes back exactly that.

A file is taken to have landed when it is at one of the revisions the batch meant to leave it at
(its intent says which), or at the revision its landing log names. A file at neither was changed by
someone after the interruption and is left alone. An undo that was interrupted (`.undoing`) is
finished the same way. Our temp files (`.konstruct-*.tmp`, `.konstruct-*.deleting`) left in the
batch's folders are removed.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import manifest
from .containment import PathMissing, PathRefused
from .durable import fsync_dir, write_file
from .handle import Workspace
from .journal import OPEN, UNDOING, WriteJournal, load_batch
from .manifest import JournalDamaged
from .restoring import current_revision, restore_revision
from .revision import revision_of
from .swap import SwapConflict


@dataclass(frozen=True)
class Recovered:
    """What recovery did with one interrupted batch: a line for the person, and for an atomic batch
    it rolled back, the files it put back (path, restored/removed/recreated)."""

    line: str
    batch_id: str = ""
    tool: str = ""
    rolled_back: tuple[tuple[str, str], ...] = ()


def recover_interrupted(workspace: Workspace, journal: WriteJournal) -> list[Recovered]:
    """Settle every interrupted batch and undo nobody is still working on."""
    try:
        names = os.listdir(journal.folder)
    except OSError:
        return []
    if not any(name.endswith((".open", UNDOING, ".partial")) for name in names):
        return []  # the common case, one listing: nothing was interrupted
    folders = journal.interrupted()
    lines = []
    for folder in folders:
        with _claimed(folder) as mine:
            if not mine:
                continue  # another konstruct is applying (or undoing) it right now
            try:
                if folder.name.endswith(UNDOING):
                    lines.append(Recovered(_finish_undo(workspace, folder)))
                else:
                    lines.append(_settle(workspace, folder))
            except JournalDamaged as damage:
                if folder.name.endswith(OPEN) and not _landing_log(folder):
                    shutil.rmtree(folder, ignore_errors=True)  # its intent was never whole: nothing was touched
                    continue
                lines.append(Recovered(f"an interrupted batch could not be recovered: {damage}"))
            except OSError as error:
                lines.append(Recovered(f"an interrupted batch could not be recovered yet ({error.strerror or error}: {folder}); the next start tries again"))
    _remove_staging(journal.folder)
    return lines


def live_or_stuck(journal: WriteJournal) -> Path | None:
    """An interrupted batch still there after recovery: being applied by another process, or damaged."""
    left = journal.interrupted()
    return left[-1] if left else None


def is_live(folder: Path) -> bool:
    with _claimed(folder) as mine:
        return not mine


def _settle(workspace: Workspace, folder: Path) -> Recovered:
    intent, pack = manifest.load_intent(folder)
    logged = _landing_log(folder)
    batch_id, tool, atomic = str(intent["batch"]), str(intent["tool"]), bool(intent.get("atomic"))
    landed: list[dict[str, Any]] = []
    foreign: list[str] = []
    for item in intent["entries"]:
        before = manifest.pre_image(folder, item, pack)
        now = current_revision(workspace, item["path"])
        state = _landing(item, before, now, logged)
        if state == "landed":
            dirs = [*item.get("may_create_dirs", ()), *[d for d in _logged_dirs(logged, item["path"]) if d not in item.get("may_create_dirs", ())]]
            landed.append({"path": item["path"], "mode": item.get("mode"), "after_revision": now, "created_dirs": dirs, "before": before})
        elif state == "foreign":
            foreign.append(item["path"])
    _remove_temp_files(workspace, intent["entries"])
    note = f"; left alone, changed since: {', '.join(foreign)}" if foreign else ""
    if atomic:
        stuck = []
        for entry in reversed(landed):
            try:
                restore_revision(workspace, entry["path"], entry["before"], entry["after_revision"], entry["after_revision"] is not None, entry["mode"])
                workspace.remove_empty_dirs(entry["created_dirs"])
            except (SwapConflict, OSError, PathRefused, PathMissing):
                stuck.append(entry)
        if stuck:
            _close(folder, intent, stuck)
            return Recovered(f"interrupted atomic batch {batch_id} ({tool}) rolled back except {', '.join(e['path'] for e in stuck)}, "
                             f"which could not be restored; `konstruct undo` takes them back{note}")
        shutil.rmtree(folder, ignore_errors=True)
        restored = tuple((e["path"], _undo_status(e["before"], e["after_revision"])) for e in landed)
        return Recovered(f"interrupted atomic batch {batch_id} ({tool}) rolled back: {len(landed)} file(s) restored to their "
                         f"pre-images, nothing of it is left{note}", batch_id, tool, restored)
    if not landed:
        shutil.rmtree(folder, ignore_errors=True)
        return Recovered(f"interrupted batch {batch_id} ({tool}): nothing of it had landed{note}")
    _close(folder, intent, landed)
    return Recovered(f"interrupted batch {batch_id} ({tool}): {len(landed)} of {len(intent['entries'])} file(s) had landed and are "
                     f"recorded; `konstruct undo` takes back exactly those{note}")


def _undo_status(before: bytes | None, after_revision: str | None) -> str:
    return "removed" if before is None else ("recreated" if after_revision is None else "restored")


def _landing(item: dict[str, Any], before: bytes | None, now: str | None, logged: dict[str, Any]) -> str:
    """"landed", "untouched" or "foreign" (changed by someone else) for one file of the intent."""
    before_revision = None if before is None else revision_of(before)
    if now == before_revision:
        return "untouched"
    if now in item.get("revisions", ()) or (item["path"] in logged and now == logged[item["path"]]):
        return "landed"
    return "foreign"


def _close(folder: Path, intent: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    """Turn an interrupted batch into a finished one holding `entries` (what is on disk from it)."""
    pre = {item["path"]: item.get("pre") for item in intent["entries"]}
    body = {
        "version": manifest.VERSION, "batch": intent["batch"], "tool": intent["tool"], "created_at": intent["created_at"],
        "state": "complete", "recovered": True,
        "entries": [{"path": e["path"], "pre": pre.get(e["path"]), "mode": e["mode"], "after_revision": e["after_revision"],
                     "created_dirs": e["created_dirs"]} for e in entries],
    }
    write_file(folder / manifest.MANIFEST, manifest.dump(body))
    final = folder.with_name(str(intent["batch"]))
    os.rename(folder, final)
    fsync_dir(folder.parent)


def _finish_undo(workspace: Workspace, folder: Path) -> str:
    batch = load_batch(folder)
    left = []
    for entry in reversed(batch.entries):
        now = current_revision(workspace, entry.path)
        if now == entry.before_revision:
            continue
        if now != entry.after_revision:
            left.append(entry.path)
            continue
        try:
            restore_revision(workspace, entry.path, entry.before, now, now is not None, entry.mode)
            workspace.remove_empty_dirs(list(entry.created_dirs))
        except (SwapConflict, OSError, PathRefused, PathMissing):
            left.append(entry.path)
    shutil.rmtree(folder, ignore_errors=True)
    note = f"; left alone, changed since: {', '.join(left)}" if left else ""
    return f"interrupted undo of batch {batch.batch_id} ({batch.tool}) finished{note}"


def _landing_log(folder: Path) -> dict[str, Any]:
    """path -> the last revision logged for it. A torn last line (the process died mid-write) is ignored."""
    logged: dict[str, Any] = {}
    try:
        text = (folder / manifest.LANDED).read_text(errors="replace")
    except OSError:
        return logged
    for line in text.splitlines():
        try:
            record = json.loads(line)
            logged[record["path"]] = record.get("revision")
            logged.setdefault("\0dirs", {}).setdefault(record["path"], []).extend(record.get("dirs") or [])
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    return logged


def _logged_dirs(logged: dict[str, Any], path: str) -> list[str]:
    return list(logged.get("\0dirs", {}).get(path, []))


def _remove_temp_files(workspace: Workspace, entries: list[dict[str, Any]]) -> None:
    """Our temp files in the batch's folders: a `.tmp` holds bytes the journal has (new or displaced);
    a `.deleting` is removed only when it holds bytes the journal knows."""
    known = {item.get("pre", {}).get("revision") for item in entries if item.get("pre")}
    for item in entries:
        known.update(r for r in item.get("revisions", ()) if r)
    for folder in sorted({item["path"].rpartition("/")[0] for item in entries}):
        try:
            with workspace.locate(folder or ".") as where:
                fd = os.open(where.name or ".", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=where.parent_fd)
        except (OSError, PathRefused, PathMissing):
            continue
        try:
            for name in os.listdir(fd):
                if not name.startswith(".konstruct-"):
                    continue
                if name.endswith(".deleting") and _revision_at(fd, name) not in known:
                    continue
                if name.endswith((".tmp", ".deleting")):
                    with contextlib.suppress(OSError):
                        os.unlink(name, dir_fd=fd)
        finally:
            os.close(fd)


def _revision_at(dir_fd: int, name: str) -> str | None:
    from .swap import current_revision as at

    return at(dir_fd, name)


@contextlib.contextmanager
def _claimed(folder: Path) -> Iterator[bool]:
    """Hold the batch's lock if nobody else does (the applier's flock on `landed`, an undo's on the manifest)."""
    name = manifest.MANIFEST if folder.name.endswith(UNDOING) else manifest.LANDED
    try:
        fd = os.open(folder / name, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        yield folder.exists()
        return
    except OSError:
        yield False
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        yield False
        return
    try:
        yield True
    finally:
        os.close(fd)


def _remove_staging(journal_folder: Path) -> None:
    """An intent that was still being written when its process died never touched a file: drop it."""
    try:
        names = [n for n in os.listdir(journal_folder) if n.startswith(".") and n.endswith(".partial")]
    except OSError:
        return
    for name in names:
        with _claimed(journal_folder / name) as mine:
            if mine:
                shutil.rmtree(journal_folder / name, ignore_errors=True)

