"""Per-query trust: which files of an answer moved since the indexed commit (`stale`), and which are
ahead of the index itself (`ahead_of_index`: bytes on disk the reconciler has not taken in yet).

The index holds the working tree: the indexed commit plus uncommitted edits as a live overlay. A
stale file's edges come from that overlay (fine to use, worth knowing); a file ahead of the index has
edges from bytes that no longer exist, so the agent should re-read it and trust the rest.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable

from ..workspace import Workspace, on_disk
from . import gitstate
from .extraction import MAX_PARSE_BYTES
from .snapshot import GraphSnapshot


class Freshness:
    def __init__(self, workspace: Workspace, ttl: float = 2.0) -> None:
        self.workspace = workspace
        self.ttl = ttl
        self._lock = threading.Lock()
        self._changed: tuple[str | None, float, frozenset[str]] = (None, 0.0, frozenset())

    def invalidate(self) -> None:
        """A write happened: the next answer asks git again instead of waiting for the TTL."""
        with self._lock:
            self._changed = (None, 0.0, frozenset())

    def stale(self, snapshot: GraphSnapshot, paths: Iterable[str]) -> tuple[str, ...]:
        if not snapshot.commit:
            return ()
        changed = self._changed_since(snapshot.commit)
        return tuple(sorted({p for p in paths if p in changed}))

    def ahead_of_index(self, snapshot: GraphSnapshot, paths: Iterable[str]) -> tuple[str, ...]:
        """A stat per file; a hash only when the stat moved but the size did not (a touch)."""
        ahead = set()
        for path in set(paths):
            entry = snapshot.files.get(path)
            if entry is None:
                continue
            try:
                info = os.lstat(os.path.join(self.workspace.root, on_disk(path)))
            except OSError:
                ahead.add(path)  # deleted on disk, still in the index
                continue
            if entry.same_stat(info.st_size, info.st_mtime_ns, info.st_ino):
                continue
            if info.st_size != entry.size or not entry.hash or info.st_size > MAX_PARSE_BYTES:
                ahead.add(path)
                continue
            try:
                if self.workspace.read(path).revision != entry.hash:
                    ahead.add(path)
            except Exception:  # unreadable now: certainly not what the index holds
                ahead.add(path)
        return tuple(sorted(ahead))

    def _changed_since(self, commit: str) -> frozenset[str]:
        with self._lock:
            cached_commit, at, changed = self._changed
            if cached_commit == commit and time.monotonic() - at < self.ttl:
                return changed
        found = gitstate.changed_since(self.workspace.root, commit)
        changed = frozenset(found or ())
        with self._lock:
            self._changed = (commit, time.monotonic(), changed)
        return changed
