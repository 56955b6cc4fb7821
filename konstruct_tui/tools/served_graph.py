"""The graph of a long-lived server (`konstruct mcp`): the session's `CodeGraph`, whose background
reconciler builds the index while the client connects and then re-indexes only what changed.

Nothing in the server watches the tree, and an MCP client may edit files with its own tools, so a
structural question re-sweeps the tree (at most every `sweep_after` seconds) and waits a moment for
it; a slow sweep is not waited for, and the answer's `ahead_of_index` names what it missed. The
first question waits for the first build, since the client asked and there is nothing else to
say. Enrichment never waits at all.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from ..graph import CodeGraph, Freshness, GraphQuery, GraphSnapshot

FIRST_BUILD_WAIT = 600.0
SWEEP_AFTER = 2.0
SWEEP_WAIT = 1.0


class ServedGraph:
    def __init__(self, graph: CodeGraph, *, first_build_wait: float = FIRST_BUILD_WAIT,
                 sweep_after: float = SWEEP_AFTER, sweep_wait: float = SWEEP_WAIT) -> None:
        self.graph = graph
        self.query: GraphQuery = graph.query
        self.freshness: Freshness = graph.freshness
        self.first_build_wait, self.sweep_after, self.sweep_wait = first_build_wait, sweep_after, sweep_wait
        self._swept = time.monotonic()  # the first build is a sweep

    @property
    def snapshot(self) -> GraphSnapshot | None:
        return self.graph.snapshot

    def ensure(self, *, existing_only: bool = False, members: bool = False) -> GraphSnapshot | None:
        """`members`: the question reads member evidence; on an index `konstruct index` built, the
        reconciler publishes the file graph first and then builds the member tier, which such a
        question waits for as it waits for a first build."""
        reconciler = self.graph.reconciler
        if existing_only:
            return reconciler.snapshot
        pending = members and reconciler.snapshot is not None and not reconciler.snapshot.side.complete
        if reconciler.snapshot is None or pending:
            reconciler.wait_until_current(self.first_build_wait)
            self._swept = time.monotonic()
            return reconciler.snapshot
        if time.monotonic() - self._swept > self.sweep_after:
            reconciler.rescan()
            self._swept = time.monotonic()
        reconciler.wait_until_current(self.sweep_wait)  # a write just notified, or the sweep above
        return reconciler.snapshot

    def notify(self, paths: Iterable[str]) -> None:
        self.graph.notify(paths)

    def _why_not_ready(self) -> str:
        return self.graph._why_not_ready()

    def close(self) -> None:
        self.graph.close()
