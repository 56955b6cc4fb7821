"""A batch in flight: its intent is durable before the first file is touched, each landing is logged,
and its end is one rename (`<id>.open` -> `<id>`).

The applier holds an exclusive flock on the batch's `landed` log for as long as it runs. The lock
dies with the process, however it dies, which is how the next start tells a batch somebody is still
applying from one that was interrupted (recovery.py).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..userdirs import private_dir
from . import manifest
from .durable import fsync_dir
from .manifest import PreImage
from .revision import revision_of


@dataclass(frozen=True)
class IntendedFile:
    """One file a batch is about to change: its bytes now (None: absent), every revision the batch
    will leave it at in turn (None: deleted), and the folders a creation may have to make."""

    path: str
    before: bytes | None
    mode: int | None
    revisions: tuple[str | None, ...]
    may_create_dirs: tuple[str, ...] = ()


class JournalUnwritable(Exception):
    """The journal cannot take the batch's pre-images: the batch must not start."""


class OpenBatch:
    def __init__(self, journal_folder: Path, batch_id: str, tool: str, atomic: bool, files: list[IntendedFile]) -> None:
        self.journal_folder = journal_folder
        self.batch_id = batch_id
        self.tool = tool
        self.created_at = time.time()
        self.pre: dict[str, PreImage | None] = {}
        self.folder = journal_folder / f"{batch_id}.open"
        self._landed_fd = -1
        staging = journal_folder / f".{batch_id}.partial"
        try:
            private_dir(journal_folder)
            os.mkdir(staging, 0o700)
            # Locked before it has its `.open` name: recovery never sees it unlocked while we live.
            self._landed_fd = os.open(staging / manifest.LANDED, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
            fcntl.flock(self._landed_fd, fcntl.LOCK_EX)
            os.rename(staging, self.folder)
            pack = bytearray()
            entries = []
            for file in files:
                pre = None
                if file.before is not None:
                    pre = PreImage(len(pack), len(file.before), revision_of(file.before))
                    pack += file.before
                self.pre[file.path] = pre
                entries.append({
                    "path": file.path, "pre": pre.json() if pre else None, "mode": file.mode,
                    "after_revision": file.revisions[-1] if file.revisions else None,
                    "revisions": list(file.revisions), "may_create_dirs": list(file.may_create_dirs),
                })
            # One file, one fsync: the intent and every pre-image. A crash before it is durable
            # leaves an `.open` folder whose intent does not verify and nothing touched (recovery.py).
            header = manifest.dump(self._body(entries, atomic, "applying"), one_line=True)
            _write_synced(self.folder / manifest.INTENT, header + b"\n" + bytes(pack))
            fsync_dir(self.folder)
            fsync_dir(journal_folder)
        except OSError as error:
            self._unlock()
            shutil.rmtree(staging, ignore_errors=True)
            shutil.rmtree(self.folder, ignore_errors=True)
            raise JournalUnwritable(
                f"the undo journal cannot be written ({error.strerror or error}: {journal_folder}); "
                "nothing was written, because no edit is made without its undo"
            ) from None

    def landed(self, entry: int, path: str, revision: str | None, dirs: list[str]) -> None:
        """Log one entry that landed. Not fsynced: a killed process's writes survive in the page
        cache, and after a power cut recovery trusts the files themselves over this log."""
        line = json.dumps({"entry": entry, "path": path, "revision": revision, "dirs": dirs}) + "\n"
        os.write(self._landed_fd, line.encode())

    def complete(self, entries: list[dict[str, Any]], also_sync: Callable[[], None] = lambda: None) -> str | None:
        """Record what landed as the batch's manifest and close it; None (and no batch kept) when
        nothing landed. `entries`: path, mode, after_revision, created_dirs of each changed file;
        `also_sync`: makes the workspace's own renames durable, after the one fsync here."""
        if not entries:
            self.abandon()
            return None
        for entry in entries:
            pre = self.pre.get(entry["path"])
            entry["pre"] = pre.json() if pre else None
        # An OSError here leaves the batch open and locked: the caller rolls back or releases it.
        # One fsync at the end, after the rename (on ext4 it commits the renames before it too): a
        # power cut before it leaves the folder `.open` (recovery settles it) or, on filesystems
        # that reorder, a manifest that does not verify (undo refuses and names it).
        fd = _write_unsynced(self.folder / manifest.MANIFEST, manifest.dump(self._body(entries, None, "complete")))
        try:
            final = self.journal_folder / self.batch_id
            os.rename(self.folder, final)
            self.folder = final
            os.fsync(fd)
        finally:
            os.close(fd)
        also_sync()
        fsync_dir(self.journal_folder)
        self._unlock()
        return self.batch_id

    def abandon(self) -> None:
        """Nothing of the batch is on disk (nothing landed, or it was rolled back): forget it."""
        shutil.rmtree(self.folder, ignore_errors=True)
        self._unlock()

    def release(self) -> None:
        """Leave the batch open for the next start's recovery (its end could not be recorded)."""
        self._unlock()

    def _body(self, entries: list[dict[str, Any]], atomic: bool | None, state: str) -> dict[str, Any]:
        body: dict[str, Any] = {"version": manifest.VERSION, "batch": self.batch_id, "tool": self.tool,
                                "created_at": self.created_at, "state": state, "entries": entries}
        if atomic is not None:
            body["atomic"] = atomic
        return body

    def _unlock(self) -> None:
        if self._landed_fd >= 0:
            os.close(self._landed_fd)  # closing releases the flock
            self._landed_fd = -1



def _write_synced(path: Path, data: bytes) -> None:
    fd = _write_unsynced(path, data)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_unsynced(path: Path, data: bytes) -> int:
    """Create `path` (it must not exist) with `data`; the open descriptor is returned for an fsync."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except BaseException:
        os.close(fd)
        raise
    return fd
