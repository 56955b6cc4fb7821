"""How a tool reaches the code graph: `graph_of(context)`.

In a session the agent hands tools a `CodeGraph` (a background reconciler; answers never wait for
it). A headless call (`konstruct tool`, `konstruct mcp` before its graph is up) has none: then a
`ForegroundGraph` stands in. A structural question asked from the shell is the person's own action,
so it brings the index up to date in the foreground, like `konstruct index`; enrichment, which
must never hold a read or a write up, only loads an index that already exists (as stored, no
re-reading of the tree), and otherwise says the graph had nothing to add.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from ..graph import Freshness, GraphQuery, GraphSnapshot, IndexStore, build_index, index_path
from ..graph.languages import languages

if TYPE_CHECKING:
    from ..workspace import Workspace
    from .base import ToolContext

NOT_READY = "the code graph is still being built; draw no conclusion, ask again shortly"
NO_INDEX = "there is no index for this workspace yet (run `konstruct index`)"


class GraphAccess(Protocol):
    """What tools need of a graph; `graph.code_graph.CodeGraph` is the session's implementation."""

    query: GraphQuery
    freshness: Freshness

    @property
    def snapshot(self) -> GraphSnapshot | None: ...

    def notify(self, paths: Iterable[str]) -> None: ...


class ForegroundGraph:
    """The graph of a one-shot call. `snapshot` is None until `ensure()` (structural questions) or
    `ensure(existing_only=True)` (enrichment) has loaded it."""

    def __init__(self, workspace: Workspace, *, max_age: float | None = None) -> None:
        self.workspace = workspace
        self.freshness = Freshness(workspace)
        self.max_age = max_age  # a long-lived server re-sweeps after this many seconds (edits elsewhere)
        self._snapshot: GraphSnapshot | None = None
        self._loaded_at = 0.0
        self._dirty = False
        self.error: str | None = None
        self.query = GraphQuery(lambda: self._snapshot, self.freshness, self._why_not)

    @property
    def snapshot(self) -> GraphSnapshot | None:
        return self._snapshot

    def ensure(self, *, existing_only: bool = False, members: bool = False) -> GraphSnapshot | None:
        """`members`: the question reads member evidence (a symbol's callers, dead code), so the
        index's member tier is built first when it is not yet (once per index)."""
        expired = self.max_age is not None and time.monotonic() - self._loaded_at > self.max_age
        current = self._snapshot is not None and not self._dirty and not expired
        if current and (existing_only or not members or self._snapshot.side.complete):  # type: ignore[union-attr]
            return self._snapshot
        if existing_only and self._snapshot is None:
            self._snapshot = self._stored()
            self._loaded_at = time.monotonic()
            return self._snapshot
        try:
            self._snapshot, _ = build_index(self.workspace, members=members)
            self._dirty = False
            self._loaded_at = time.monotonic()
        except Exception as error:  # the graph is best-effort: a broken index never breaks a tool
            self.error = f"{type(error).__name__}: {error}"
            self._snapshot = None
        return self._snapshot

    def notify(self, paths: Iterable[str]) -> None:
        self.freshness.invalidate()
        self._dirty = True

    def _stored(self) -> GraphSnapshot | None:
        """The index as `konstruct index` (or a session) last left it, without re-reading the tree:
        enrichment reads it as it is, and the per-query freshness checks name what moved since."""
        if not index_path(self.workspace.root).exists():
            return None
        try:
            store = IndexStore.for_root(self.workspace.root, languages())
        except Exception as error:  # a broken cache file: no enrichment, never a failed read
            self.error = f"{type(error).__name__}: {error}"
            return None
        try:
            if store.is_empty():
                return None
            return GraphSnapshot.build(store.entries(), store.edges(), commit=store.meta("commit"),
                                       members=store.meta("members") == "1")
        finally:
            store.close()

    def _why_not(self) -> str:
        if self.error:
            return f"the code graph could not be built ({self.error}); draw no conclusion"
        return NO_INDEX


def graph_of(context: ToolContext, *, structural: bool, members: bool = False) -> GraphAccess:
    """The context's graph; for a headless call, a foreground graph made ready as far as the caller
    may wait (`structural`: a graph question may build the index; enrichment may not; `members`:
    the question reads member evidence, so a headless call builds the index's member tier)."""
    graph = context.graph
    if graph is None:
        graph = context.graph = ForegroundGraph(context.workspace)
    ensure = getattr(graph, "ensure", None)  # foreground and served graphs load on demand; a session's never waits
    if callable(ensure):
        ensure(existing_only=not structural, members=members)
    return graph


def not_ready_reason(graph: GraphAccess) -> str:
    if isinstance(graph, ForegroundGraph):
        return graph._why_not()
    why = getattr(graph, "_why_not_ready", None)  # CodeGraph and ServedGraph say why
    return why() if callable(why) else NOT_READY
