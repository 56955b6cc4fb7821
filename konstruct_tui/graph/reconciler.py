"""The background reconciler: after start, the only thing that indexes.

Tools that write call `notify(paths)`; bursts are coalesced (a short quiet window, capped so a
steady stream of writes still gets indexed); only the named files are re-read, and only the files
the change can affect are re-resolved. Queries never wait for it: they read `snapshot`, the last
good graph, which is replaced by a single reference assignment once a new one is complete.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..workspace import Workspace
from .facts import LanguageSupport
from .indexer import IndexCancelled, Indexer, Progress
from .languages import languages
from .overlay import freeze_heap
from .snapshot import GraphSnapshot
from .store import IndexStore, pairs_digest

if TYPE_CHECKING:
    from .neighborhoods import Neighborhoods

log = logging.getLogger(__name__)

STARTING, READY, FAILED, STOPPED = "starting", "ready", "failed", "stopped"
FREEZE_HEAP_FILES = 20_000  # below this a full collection takes milliseconds: leave the heap alone


class Reconciler:
    def __init__(
        self,
        workspace: Workspace,
        *,
        supports: dict[str, LanguageSupport] | None = None,
        support_factory: Callable[[], dict[str, LanguageSupport]] | None = None,
        workers: int = 2,
        inline_limit: int = 48,
        quiet: float = 0.010,
        max_delay: float = 0.050,
        warm_neighborhoods: bool = True,
        rescan_every: float | None = 30.0,
        progress: Progress | None = None,
        settle_after: float = 1.0,
    ) -> None:
        self.workspace = workspace
        self._supports = supports if supports is not None else (support_factory or languages)()
        self._support_factory = support_factory
        self._workers = workers
        self._inline_limit = inline_limit
        self.quiet, self.max_delay = quiet, max_delay
        self._warm_neighborhoods = warm_neighborhoods
        # Edits made outside Konstruct (an editor, a checkout, a commit moving HEAD) are never
        # notified; a periodic sweep (stat only, at low priority) picks them up.
        self._rescan_every = rescan_every
        self._progress = progress
        # Neighborhoods of a changed graph are computed once edits pause for `settle_after`
        # seconds, in this thread, and stored: never on the path of an edit or a warm start.
        self._settle_after = settle_after
        self._hoods_owed = False
        self._stored_hoods: Neighborhoods | None = None
        # Clustering a big graph takes seconds: it runs on its own thread, so an edit that comes
        # meanwhile is indexed at once; its result is stored from this thread (the store's owner).
        self._clusterer: threading.Thread | None = None
        self._clustered: tuple[Neighborhoods, str | None] | None = None
        self._snapshot: GraphSnapshot | None = None
        self.state = STARTING
        self.error: str | None = None
        self.indexer: Indexer | None = None
        self._cond = threading.Condition()
        self._pending: set[str] = set()
        self._rescan = False
        self._busy = True  # the initial build counts as work in progress
        self._first = self._last = 0.0
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="konstruct-reconciler", daemon=True)

    # --- what the rest of Konstruct calls ------------------------------------------------------

    @property
    def snapshot(self) -> GraphSnapshot | None:
        """The last good graph, or None while the first build is still running (or failed)."""
        return self._snapshot

    def start(self) -> Reconciler:
        self._thread.start()
        return self

    def notify(self, paths: Iterable[str]) -> None:
        """Files (or folders) were written, created or deleted. Returns at once."""
        paths = [p for p in paths if isinstance(p, str) and p]
        if not paths:
            return
        with self._cond:
            now = time.monotonic()
            if not self._pending:
                self._first = now
            self._last = now
            self._pending.update(paths)
            self._cond.notify_all()

    def rescan(self) -> None:
        """Something changed outside Konstruct (a checkout, an editor): sweep the whole workspace."""
        with self._cond:
            self._rescan = True
            self._first = self._last = time.monotonic()
            self._cond.notify_all()

    def wait_until_current(self, timeout: float | None = None) -> bool:
        """Block until everything notified so far is in the published snapshot (tests, benches)."""
        with self._cond:
            return self._cond.wait_for(
                lambda: self.state in (FAILED, STOPPED) or not (self._busy or self._pending or self._rescan),
                timeout,
            )

    def stop(self, timeout: float = 5.0) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout)

    # --- the thread ----------------------------------------------------------------------------

    def _run(self) -> None:
        _lower_priority()
        store = None
        try:
            store = IndexStore.for_root(self.workspace.root, self._supports)
            self.indexer = Indexer(
                self.workspace, store, supports=self._supports, support_factory=self._support_factory,
                workers=self._workers, inline_limit=self._inline_limit, low_priority=True,
                should_stop=lambda: self._stopping,
            )
            # An index `konstruct index` built has the file graph alone: it is published at once, and
            # symbol answers say "not indexed yet" until the member tier follows.
            self._publish(self.indexer.refresh(None, self._progress, interim=self._publish))
            self._idle_preparation()
            self.state = READY
            self._loop()
        except IndexCancelled:
            pass  # stop() during the first build: the store says "incomplete", the next start redoes it
        except Exception as error:  # the graph is best-effort: say so, never take the app down
            log.exception("the code graph reconciler stopped")
            self.error = f"{type(error).__name__}: {error}"
            self.state = FAILED
        finally:
            if self.state != FAILED:
                self.state = STOPPED
            if store is not None:
                store.close()
            with self._cond:
                self._busy = False
                self._cond.notify_all()

    def _idle_preparation(self) -> None:
        assert self.indexer is not None
        if self._snapshot is not None:
            self.indexer.prepare_incremental(self._snapshot.files)
        self._settle_neighborhoods()
        # On a big tree the index now holds millions of long-lived objects (every file's facts, the
        # snapshot): keep them out of the cycle collector's full passes (see `freeze_heap`).
        snapshot = self._snapshot
        if snapshot is not None and len(snapshot.files) >= FREEZE_HEAP_FILES:
            freeze_heap()

    def _settle_neighborhoods(self) -> None:
        """The current snapshot's neighborhoods: at start from the store when its file pairs are
        those they were last computed from, else computed now (so a session's first question never
        waits for them); later, recomputed on the clustering thread and stored for the next start."""
        assert self.indexer is not None
        snapshot = self._snapshot
        if not self._warm_neighborhoods or snapshot is None or self._pending:
            return
        if self._stored_hoods is None:
            self._stored_hoods = self.indexer.store.neighborhoods_for(snapshot)
            return
        if self._clusterer is not None and self._clusterer.is_alive():
            self._hoods_owed = True  # once it is done, for the snapshot current then
            return
        stored = self._stored_hoods

        def cluster() -> None:
            _lower_priority()
            try:
                hoods = snapshot.settled_neighborhoods()  # an ancestor's, when the file pairs did not move
                digest = None if hoods is stored else pairs_digest(snapshot.out_edges)
            except Exception:  # best-effort, like the rest of the graph
                log.exception("computing neighborhoods failed")
                return
            with self._cond:
                self._clustered = (hoods, digest)
                self._cond.notify_all()

        self._clusterer = threading.Thread(target=cluster, name="konstruct-neighborhoods", daemon=True)
        self._clusterer.start()

    def _store_clustered(self) -> None:
        assert self.indexer is not None
        with self._cond:
            clustered, self._clustered = self._clustered, None
        if clustered is not None:
            hoods, digest = clustered
            if digest is not None:
                self.indexer.store.save_neighborhoods(digest, hoods)
            self._stored_hoods = hoods

    def _loop(self) -> None:
        assert self.indexer is not None
        while True:
            with self._cond:
                self._busy = False
                self._cond.notify_all()
                settle = self._hoods_owed
                woke = self._cond.wait_for(
                    lambda: self._stopping or self._pending or self._rescan or self._clustered is not None,
                    self._settle_delay() if settle else self._rescan_every)
                if self._stopping:
                    return
                stored = self._clustered is not None and not (self._pending or self._rescan)
            if stored:
                self._store_clustered()
                continue
            with self._cond:
                if not woke and settle:
                    self._hoods_owed = False
                    self._busy = False
                elif not woke:
                    self._rescan = True
            if not woke and settle:
                self._settle_neighborhoods()
                continue
            with self._cond:
                self._wait_for_quiet()
                paths, self._pending = self._pending, set()
                rescan, self._rescan = self._rescan, False
                self._busy = True
            current = self._snapshot
            assert current is not None
            try:
                if rescan:
                    updated = self.indexer.refresh(current, summarize=False)
                    if paths:
                        updated = self.indexer.update(updated, paths)
                else:
                    updated = self.indexer.update(current, paths, interim=self._publish)
            except IndexCancelled:
                return
            except Exception as error:  # keep serving the last good snapshot
                log.exception("re-indexing %d files failed", len(paths))
                self.error = f"{type(error).__name__}: {error}"
                continue
            self._publish(updated)
            self._hoods_owed = True

    def _settle_delay(self) -> float:
        """How long edits must pause before clustering again: longer on a big graph, whose
        clustering (seconds at 100,000 files) holds this thread and delays the next edit."""
        snapshot = self._snapshot
        files = len(snapshot.files) if snapshot is not None else 0
        return self._settle_after * max(1.0, files / 10_000)

    def _wait_for_quiet(self) -> None:
        """Coalesce a burst: wait until no notify for `quiet` seconds, at most `max_delay` in all."""
        while not self._stopping:
            now = time.monotonic()
            until = min(self._last + self.quiet, self._first + self.max_delay)
            if now >= until:
                return
            self._cond.wait(until - now)

    def _publish(self, snapshot: GraphSnapshot) -> None:
        self._snapshot = snapshot  # one reference assignment: readers see the old or the new, whole


def _lower_priority() -> None:
    """Nice this thread only (Linux gives each thread its own nice value): edits and queries first."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):
        pass
