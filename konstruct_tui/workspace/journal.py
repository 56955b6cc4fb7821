"""The write journal: the pre-images of each applied batch, so `konstruct undo` can put them back.

Kept in the user data dir, one folder per workspace, bounded by count and bytes (oldest dropped
first). Pre-images may hold secrets, so everything is private to the user.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..userdirs import data_dir, private_dir, workspace_key

MAX_BATCHES = 50
MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class JournalEntry:
    """One file a batch changed: its bytes before (None: it did not exist) and its revision after
    (None: the batch deleted it)."""

    path: str
    before: bytes | None
    mode: int | None
    after_revision: str | None
    created_dirs: tuple[str, ...] = ()


@dataclass(frozen=True)
class JournalBatch:
    batch_id: str
    tool: str
    created_at: float
    entries: list[JournalEntry]


class WriteJournal:
    def __init__(self, root: str | os.PathLike[str], base: Path | None = None) -> None:
        self.folder = (base or data_dir() / "journal") / workspace_key(root)

    def record(self, tool: str, entries: list[JournalEntry]) -> str:
        batch_id = f"{time.time_ns():020d}-{secrets.token_hex(3)}"
        private_dir(self.folder)
        staging = self.folder / f".{batch_id}.partial"
        private_dir(staging)
        manifest: dict[str, Any] = {"batch": batch_id, "tool": tool, "created_at": time.time(), "entries": []}
        for number, entry in enumerate(entries):
            blob = None
            if entry.before is not None:
                blob = f"{number}.pre"
                (staging / blob).write_bytes(entry.before)
            manifest["entries"].append(
                {
                    "path": entry.path,
                    "blob": blob,
                    "mode": entry.mode,
                    "after_revision": entry.after_revision,
                    "created_dirs": list(entry.created_dirs),
                }
            )
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=1))
        os.rename(staging, self.folder / batch_id)
        self._prune()
        return batch_id

    def batches(self) -> list[JournalBatch]:
        """Every batch still kept, oldest first (`/diff` in the workbench reads a session's worth)."""
        return [self._load(folder) for folder in self._batch_dirs()]

    def latest(self) -> JournalBatch | None:
        batches = self._batch_dirs()
        return self._load(batches[-1]) if batches else None

    def drop(self, batch_id: str) -> None:
        shutil.rmtree(self.folder / batch_id, ignore_errors=True)

    def _load(self, folder: Path) -> JournalBatch:
        manifest = json.loads((folder / "manifest.json").read_text())
        entries = [
            JournalEntry(
                item["path"],
                (folder / item["blob"]).read_bytes() if item["blob"] else None,
                item["mode"],
                item["after_revision"],
                tuple(item.get("created_dirs", ())),
            )
            for item in manifest["entries"]
        ]
        return JournalBatch(manifest["batch"], manifest["tool"], manifest["created_at"], entries)

    def _batch_dirs(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        return sorted(p for p in self.folder.iterdir() if p.is_dir() and not p.name.startswith("."))

    def _prune(self) -> None:
        batches = self._batch_dirs()
        sizes = [sum(f.stat().st_size for f in b.iterdir()) for b in batches]
        total = sum(sizes)
        # The newest batch always stays, whatever its size.
        while len(batches) > 1 and (len(batches) > MAX_BATCHES or total > MAX_BYTES):
            shutil.rmtree(batches.pop(0), ignore_errors=True)
            total -= sizes.pop(0)
