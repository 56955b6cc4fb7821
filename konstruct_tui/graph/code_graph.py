"""The graph as the rest of Konstruct holds it: one per workspace, for a session or one CLI call.

`CodeGraph` starts the reconciler (which builds or warm-starts the index in the background) and
answers queries from whatever snapshot is current; `build_index` is the synchronous build the CLI
runs in the foreground.
"""

from __future__ import annotations

import sqlite3
import time
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..workspace import Workspace
from .facts import LanguageSupport
from .indexer import Indexer, IndexReport, Progress
from .languages import languages
from .snapshot import GraphSnapshot
from .store import IndexStore, index_problem
from .timeline import mark
from .warm_start import unchanged

if TYPE_CHECKING:
    from .neighborhoods import Neighborhood

# A session's graph (reconciler, queries, freshness) is imported by `CodeGraph` itself: the CLI's
# `index` and `graph export` run `build_index` alone and need none of it.


class CodeGraph:
    def __init__(self, workspace: Workspace, *, start: bool = True, **reconciler_options: Any) -> None:
        from .freshness import Freshness
        from .query import GraphQuery
        from .reconciler import Reconciler

        self.workspace = workspace
        self.reconciler = Reconciler(workspace, **reconciler_options)
        self.freshness = Freshness(workspace)
        self.query = GraphQuery(lambda: self.reconciler.snapshot, self.freshness, self._why_not_ready)
        if start:
            self.reconciler.start()

    @property
    def snapshot(self) -> GraphSnapshot | None:
        return self.reconciler.snapshot

    @property
    def state(self) -> str:
        """starting (first build running), ready, failed or stopped."""
        return self.reconciler.state

    def wait_until_current(self, timeout: float | None = None) -> bool:
        """Block until every notified change is queryable (headless runs, tests; never a tool)."""
        return self.reconciler.wait_until_current(timeout)

    def notify(self, paths: Iterable[str]) -> None:
        """Tools that write call this with the workspace-relative paths they changed."""
        self.freshness.invalidate()
        self.reconciler.notify(paths)

    def rank_neighborhoods(self, request_text: str, limit: int = 5) -> list[tuple[Neighborhood, float]]:
        from .neighborhoods import rank_neighborhoods

        snapshot = self.snapshot
        return [] if snapshot is None else rank_neighborhoods(snapshot, request_text, limit)

    def close(self) -> None:
        self.reconciler.stop()

    def _why_not_ready(self) -> str:
        from .reconciler import FAILED

        if self.reconciler.state == FAILED:
            return f"the code graph could not be built ({self.reconciler.error}); draw no conclusion"
        return "the code graph is still being built; draw no conclusion, ask again shortly"


def build_index(
    workspace: Workspace,
    *,
    progress: Progress | None = None,
    workers: int = 2,
    supports: dict[str, LanguageSupport] | None = None,
    neighborhoods: bool = False,
    members: bool = True,
) -> tuple[GraphSnapshot, IndexReport]:
    """Build or refresh the index in the foreground (cold, warm or anything in between).

    `neighborhoods`: also settle the snapshot's neighborhoods (stored ones when the file pairs did
    not change) and store the summary a warm `konstruct index` prints. `members`: the index must
    have its member tier (member facts and evidence: what symbol questions read); False builds the
    file graph alone when the index is cold, and keeps a member tier current when there is one."""
    if supports is None:
        started = time.perf_counter()
        warm = unchanged(workspace.root)
        if warm is not None and (warm.members or not members) and not (neighborhoods and warm.summary is None):
            snapshot = warm.snapshot()  # nothing moved: no grammar, no parse, no resolution
            report = IndexReport(files=warm.files, edges=snapshot.edge_count(), members=warm.members)
            report.seconds = time.perf_counter() - started
            return snapshot, report
    mark("cold")
    supports = supports if supports is not None else languages()
    store = IndexStore.for_root(workspace.root, supports)
    try:
        indexer = Indexer(workspace, store, supports=supports, workers=workers, keep_facts=False, members=members)
        snapshot = indexer.refresh(None, progress)
        indexer.release()
        mark("built")
        if neighborhoods:
            hoods = store.neighborhoods_for(snapshot)
            edges = Counter(e.kind for out in snapshot.out_edges.values() for e in out)
            store.set_summary({"files": dict(indexer.report.files), "edges": dict(edges), "neighborhoods": len(hoods)})
        mark("summary")
        return snapshot, indexer.report
    except sqlite3.DatabaseError as error:  # met mid-build (another writer, a page gone bad): one line
        raise index_problem(store.path, error) from None
    finally:
        store.close()


def stored_snapshot(
    workspace: Workspace, supports: dict[str, LanguageSupport] | None = None
) -> GraphSnapshot | None:
    """The index as the last build left it, without looking at the tree (answers then carry
    `ahead_of_index` for whatever moved since). None when there is no complete index: never built,
    interrupted mid cold build, or built by other extraction code (that one is dropped)."""
    from .store import index_path

    if not index_path(workspace.root).exists():
        return None
    store = IndexStore.for_root(workspace.root, supports)
    try:
        if store.rebuilt or store.meta("complete") != "1":
            return None
        return GraphSnapshot.build(store.entries(), store.edges(), commit=store.meta("commit"),
                                   members=store.meta("members") == "1")
    finally:
        store.close()
