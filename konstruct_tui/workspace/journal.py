"""The write journal: the pre-images of each applied batch, so `konstruct undo` can put them back.

Kept in the user data dir, one folder per workspace, one sub-folder per batch (named by the time it
began, so names sort oldest first), bounded by count and bytes (oldest dropped first). Pre-images may
hold secrets, so everything is private to the user. The format is manifest.py's; a batch in flight
is intent.py's; what the next start does with one that was interrupted is recovery.py's.

Folder names: `<id>` a finished batch, `<id>.open` one being applied (or interrupted), `<id>.undoing`
one being undone (or interrupted), `.<id>.partial` an intent still being written (never acted on).
"""

from __future__ import annotations

import os
import secrets
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from ..userdirs import data_dir, workspace_key
from . import manifest
from .intent import IntendedFile, OpenBatch
from .manifest import JournalDamaged
from .revision import revision_of

MAX_BATCHES = 50
MAX_BYTES = 64 * 1024 * 1024
OPEN = ".open"
UNDOING = ".undoing"


@dataclass(frozen=True)
class JournalEntry:
    """One file a batch changed: its bytes before (None: it did not exist) and its revision after
    (None: the batch deleted it)."""

    path: str
    before: bytes | None
    mode: int | None
    after_revision: str | None
    created_dirs: tuple[str, ...] = ()

    @property
    def before_revision(self) -> str | None:
        return None if self.before is None else revision_of(self.before)


@dataclass(frozen=True)
class JournalBatch:
    batch_id: str
    tool: str
    created_at: float
    entries: list[JournalEntry]


class WriteJournal:
    def __init__(self, root: str | os.PathLike[str], base: Path | None = None) -> None:
        self.folder = (base or data_dir() / "journal") / workspace_key(root)

    def begin(self, tool: str, atomic: bool, files: list[IntendedFile]) -> OpenBatch:
        """Make the batch's intent durable. Raises JournalUnwritable: then nothing may be written."""
        return OpenBatch(self.folder, _new_id(), tool, atomic, files)

    def record(self, tool: str, entries: list[JournalEntry]) -> str:
        """Journal a batch that is already applied (kept for callers that write by other means)."""
        files = [IntendedFile(e.path, e.before, e.mode, (e.after_revision,)) for e in entries]
        batch = self.begin(tool, False, files)
        batch_id = batch.complete([_entry_json(e) for e in entries])
        self.prune()
        return batch_id or ""

    def batches(self) -> list[JournalBatch]:
        """Every finished batch still kept that verifies, oldest first (`/diff` reads a session's worth)."""
        kept = []
        try:
            folders = self.finished()
        except JournalDamaged:
            return []
        for folder in folders:
            try:
                kept.append(load_batch(folder))
            except JournalDamaged:
                continue
        return kept

    def latest(self) -> JournalBatch | None:
        """The newest finished batch, verified. Raises JournalDamaged rather than skip to an older one."""
        batches = self.finished()
        return load_batch(batches[-1]) if batches else None

    def drop(self, batch_id: str) -> None:
        for name in (batch_id, batch_id + OPEN, batch_id + UNDOING):
            shutil.rmtree(self.folder / name, ignore_errors=True)

    def finished(self) -> list[Path]:
        return [self.folder / name for name in self._names() if "." not in name]

    def interrupted(self) -> list[Path]:
        """Batches left open or half undone by a process that ended mid-way (or is still at it)."""
        return [self.folder / name for name in self._names() if name.endswith((OPEN, UNDOING))]

    def _names(self) -> list[str]:
        try:
            return sorted(name for name in os.listdir(self.folder) if not name.startswith("."))
        except (FileNotFoundError, NotADirectoryError):
            return []
        except OSError as error:
            raise JournalDamaged(f"the undo journal's folder cannot be read ({error.strerror}: {self.folder}); "
                                 "nothing was restored. Make it readable and run undo again") from None

    def prune(self) -> None:
        batches = self.finished()
        sizes = [_size(b) for b in batches]
        total = sum(sizes)
        # The newest batch always stays, whatever its size.
        while len(batches) > 1 and (len(batches) > MAX_BATCHES or total > MAX_BYTES):
            shutil.rmtree(batches.pop(0), ignore_errors=True)
            total -= sizes.pop(0)


def load_batch(folder: Path) -> JournalBatch:
    """A finished batch with every pre-image checked against its hash. Raises JournalDamaged."""
    data = manifest.load(folder, manifest.MANIFEST)
    pack = manifest.read_pack(folder) if "version" in data else None
    entries = [
        JournalEntry(
            item["path"],
            manifest.pre_image(folder, item, pack),
            item.get("mode"),
            item["after_revision"],
            tuple(item.get("created_dirs", ())),
        )
        for item in data["entries"]
    ]
    return JournalBatch(str(data["batch"]), str(data["tool"]), float(data["created_at"]), entries)


def _entry_json(entry: JournalEntry) -> dict[str, object]:
    return {"path": entry.path, "mode": entry.mode, "after_revision": entry.after_revision, "created_dirs": list(entry.created_dirs)}


def _new_id() -> str:
    return f"{time.time_ns():020d}-{secrets.token_hex(3)}"


def _size(folder: Path) -> int:
    """A batch's size, by its pre-images (the intent; `N.pre` files in the previous format): one stat
    where a scan of every folder cost a millisecond per batch on a busy disk."""
    try:
        return os.stat(folder / manifest.INTENT).st_size
    except FileNotFoundError:
        try:
            return sum(entry.stat().st_size for entry in os.scandir(folder))
        except OSError:
            return 0
    except OSError:
        return 0
