"""The graph as queries see it: an immutable snapshot, swapped whole by the reconciler.

A query holds one snapshot for its whole answer, so it never sees half of an update. Derived views
(symbol index, neighborhoods) are computed on first use and cached on the snapshot; an update copies
the small per-file maps and replaces only the entries that changed, so publishing a one-file change
costs a dict copy, not a rebuild.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import TYPE_CHECKING

from .facts import Edge, Symbol
from .records import FileEntry

if TYPE_CHECKING:
    from .neighborhoods import Neighborhoods

KINDS = ("imports", "references")


class GraphSnapshot:
    def __init__(
        self,
        files: Mapping[str, FileEntry],
        out_edges: Mapping[str, tuple[Edge, ...]],
        in_edges: Mapping[str, tuple[Edge, ...]],
        *,
        commit: str | None = None,
        generation: int = 0,
        previous: GraphSnapshot | None = None,
    ) -> None:
        self.files = files
        self.out_edges = out_edges
        self.in_edges = in_edges
        self.commit = commit
        self.generation = generation
        self._lock = threading.Lock()
        # Neighborhoods cost a community detection; reuse the last computed ones when the file-level
        # graph (its pairs) is the same, the usual case for an edit inside a function. Only the
        # newest ancestor that computed them is kept, so snapshots never chain up in memory.
        self._hood_source: GraphSnapshot | None = None
        if previous is not None:
            self._hood_source = previous if "neighborhoods" in previous.__dict__ else previous._hood_source

    @classmethod
    def build(cls, files: Mapping[str, FileEntry], edges: Iterable[Edge], **kwargs: object) -> GraphSnapshot:
        """A snapshot from scratch. `edges` must come in (source, target, kind) order (the store
        and the resolver both give them so): every per-file tuple is then sorted without a sort."""
        out: dict[str, list[Edge]] = defaultdict(list)
        inbound: dict[str, list[Edge]] = defaultdict(list)
        for edge in edges:
            if edge.source in files and edge.target in files and edge.source != edge.target:
                out[edge.source].append(edge)
                inbound[edge.target].append(edge)
        out_edges = {key: tuple(value) for key, value in out.items()}
        in_edges = {key: tuple(value) for key, value in inbound.items()}
        return cls(dict(files), out_edges, in_edges, **kwargs)  # type: ignore[arg-type]  # kwargs: the remaining fields, as given

    def replace(
        self,
        changed: Mapping[str, FileEntry],
        removed: Iterable[str],
        edge_sources: Iterable[str],
        edges: Iterable[Edge],
        *,
        commit: str | None,
    ) -> GraphSnapshot:
        """A new snapshot: `changed` entries upserted, `removed` gone, every edge leaving
        `edge_sources` (and every edge touching a removed file) replaced by `edges`."""
        removed = set(removed)
        files = dict(self.files)
        files.update(changed)
        for path in removed:
            files.pop(path, None)
        sources = set(edge_sources) | removed
        out = dict(self.out_edges)
        inbound = dict(self.in_edges)
        touched: set[str] = set()
        for source in sources:
            for edge in out.pop(source, ()):
                touched.add(edge.target)
        for path in removed:
            for edge in inbound.pop(path, ()):
                if edge.source not in sources:
                    out[edge.source] = tuple(e for e in out.get(edge.source, ()) if e.target != path)
        new_out: dict[str, list[Edge]] = defaultdict(list)
        new_in: dict[str, list[Edge]] = defaultdict(list)
        for edge in edges:
            if edge.source in files and edge.target in files and edge.source != edge.target:
                new_out[edge.source].append(edge)
                new_in[edge.target].append(edge)
                touched.add(edge.target)
        out.update(_frozen(new_out))
        for target in touched - removed:
            kept = [e for e in inbound.get(target, ()) if e.source not in sources]
            kept.extend(new_in.get(target, ()))
            if kept:
                inbound[target] = tuple(sorted(kept, key=_edge_key))
            else:
                inbound.pop(target, None)
        return GraphSnapshot(files, out, inbound, commit=commit, generation=self.generation + 1, previous=self)

    # --- plain lookups -----------------------------------------------------------------------

    def entry(self, path: str) -> FileEntry | None:
        return self.files.get(path)

    def files_under(self, folder: str) -> list[str]:
        """Indexed files in `folder` (workspace-relative; "" or "." is the root), sorted."""
        folder = folder.strip("/")
        if folder in ("", "."):
            return sorted(self.files)
        prefix = folder + "/"
        return sorted(p for p in self.files if p.startswith(prefix))

    def successors(self, path: str, kinds: Iterable[str] = KINDS) -> list[Edge]:
        return [e for e in self.out_edges.get(path, ()) if e.kind in kinds]

    def predecessors(self, path: str, kinds: Iterable[str] = KINDS) -> list[Edge]:
        return [e for e in self.in_edges.get(path, ()) if e.kind in kinds]

    def pairs(self) -> frozenset[tuple[str, str]]:
        """Unique (source, target) file pairs over every edge kind."""
        cached = self.__dict__.get("_pairs")
        if cached is None:
            cached = frozenset((e.source, e.target) for edges in self.out_edges.values() for e in edges)
            self.__dict__["_pairs"] = cached
        return cached

    def edge_count(self) -> int:
        return sum(len(v) for v in self.out_edges.values())

    # --- derived views, computed once per snapshot -------------------------------------------

    @cached_property
    def symbol_index(self) -> dict[str, list[tuple[str, Symbol]]]:
        """Short name and qualified name -> [(path, symbol)], in path order."""
        index: dict[str, list[tuple[str, Symbol]]] = defaultdict(list)
        for path in sorted(self.files):
            entry = self.files[path]
            if entry.symbols_json == "[]":
                continue
            for symbol in entry.symbols():
                index[symbol.name].append((path, symbol))
                short = symbol.name.rsplit(".", 1)[-1]
                if short != symbol.name:
                    index[short].append((path, symbol))
        return dict(index)

    @cached_property
    def neighborhoods(self) -> Neighborhoods:
        from .neighborhoods import detect

        with self._lock:  # two queries asking at once compute it once
            if "neighborhoods" in self.__dict__:
                return self.__dict__["neighborhoods"]
            source, self._hood_source = self._hood_source, None
            if source is not None and source.pairs() == self.pairs():
                return source.__dict__["neighborhoods"]
            return detect(self)


def _edge_key(edge: Edge) -> tuple[str, str, str]:
    return (edge.source, edge.target, edge.kind)


def _frozen(groups: Mapping[str, list[Edge]]) -> dict[str, tuple[Edge, ...]]:
    return {key: tuple(sorted(value, key=_edge_key)) for key, value in groups.items()}
