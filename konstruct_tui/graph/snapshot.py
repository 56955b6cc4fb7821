"""The graph as queries see it: an immutable snapshot, swapped whole by the reconciler.

A query holds one snapshot for its whole answer, so it never sees half of an update. An update
shares structure with the snapshot it came from: the per-file maps are `Overlay`s (a shared base and
a small delta), and the derived views a query already paid for (symbol index, member evidence) are
carried over by replacing only the changed files' entries. Publishing a one-file change therefore
costs in proportion to the change, not to the project: on a 100,000-file tree an edit reaches queries
in milliseconds, where copying the maps alone took 40 ms.
"""

from __future__ import annotations

import bisect
import itertools
import json
import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .facts import Edge, Symbol
from .member_evidence import (
    MEMBERS,
    SIDE_KINDS,
    UNRESOLVED,
    Side,
    edge_key,
    pack,
    unpack,
)
from .overlay import Overlay, collector_paused
from .records import FileEntry

if TYPE_CHECKING:  # computed on first use: `graph export --help` must not load them
    from .neighborhoods import Neighborhoods

__all__ = ["KINDS", "MEMBERS", "SIDE_KINDS", "UNRESOLVED", "GraphSnapshot", "pack", "unpack"]

KINDS = ("imports", "references")
# Above this many files a snapshot whose file pairs moved answers with the newest neighborhoods its
# lineage computed (clustering costs seconds there, and holds igraph's lock on the interpreter);
# the reconciler recomputes them in the background once edits pause. Below it, clustering takes
# milliseconds and every answer is exact.
STALE_NEIGHBORHOODS_FILES = 20_000


class _Lineage:
    """What a snapshot shares with every snapshot derived from it: a counter that numbers each new
    set of file pairs, and the newest neighborhoods computed with the pairs version they fit."""

    def __init__(self) -> None:
        self.versions = itertools.count(1)
        self.hoods: tuple[int, Neighborhoods] | None = None
        self.lock = threading.Lock()

    def offer(self, version: int, hoods: Neighborhoods) -> None:
        with self.lock:
            if self.hoods is None or self.hoods[0] <= version:
                self.hoods = (version, hoods)


class GraphSnapshot:
    def __init__(
        self,
        files: Mapping[str, FileEntry],
        out_edges: Mapping[str, tuple[Edge, ...]],
        in_edges: Mapping[str, tuple[Edge, ...]],
        *,
        commit: str | None = None,
        generation: int = 0,
        side: Side | None = None,
        lineage: _Lineage | None = None,
        pairs_version: int | None = None,
    ) -> None:
        """Plain dicts passed in are taken over (never changed again), not copied."""
        self.files: Overlay[str, FileEntry] = _overlay(files)
        self.out_edges: Overlay[str, tuple[Edge, ...]] = _overlay(out_edges)
        self.in_edges: Overlay[str, tuple[Edge, ...]] = _overlay(in_edges)
        self.side = side or Side(Overlay())
        self.commit = commit
        self.generation = generation
        self._lock = threading.Lock()
        # Neighborhoods cost a community detection; snapshots with the same pairs version have the
        # same file pairs (the usual case: an edit inside a function), so they share one result.
        # The lineage keeps only the newest, so snapshots never chain up in memory.
        self._lineage = lineage or _Lineage()
        self.pairs_version = next(self._lineage.versions) if pairs_version is None else pairs_version

    @classmethod
    def build(cls, files: Mapping[str, FileEntry], edges: Iterable[Edge], *, members: bool = True,
              **kwargs: object) -> GraphSnapshot:
        """A snapshot from scratch. `edges` must come in (source, target, kind) order (the store
        and the resolver both give them so): every per-file tuple is then sorted without a sort.
        `members`: the edges hold the member tier (see `Side.complete`)."""
        files = dict(files)  # taken over by the snapshot; a plain dict also answers `in` in C
        out: dict[str, list[Edge]] = defaultdict(list)
        inbound: dict[str, list[Edge]] = defaultdict(list)
        side: list[Edge] = []
        # The cycle collector off while 700,000 edges are made and filed (a session's start on a
        # 100,000-file tree): its passes over the growing heap were 40% of the time.
        with collector_paused():
            for edge in edges:
                source, target = edge.source, edge.target
                if edge.kind in SIDE_KINDS:
                    side.append(edge)
                elif source in files and target in files and source != target:
                    out[source].append(edge)
                    inbound[target].append(edge)
            out_edges = {key: tuple(value) for key, value in out.items()}
            in_edges = {key: tuple(value) for key, value in inbound.items()}
            kwargs["side"] = Side(Overlay({e.source: e.names for e in side if e.source in files and e.kind == MEMBERS}),
                                  complete=members)
        return cls(files, out_edges, in_edges, **kwargs)  # type: ignore[arg-type]

    def replace(
        self,
        changed: Mapping[str, FileEntry],
        removed: Iterable[str],
        edge_sources: Iterable[str],
        edges: Iterable[Edge],
        *,
        commit: str | None,
        members: bool | None = None,
    ) -> GraphSnapshot:
        """A new snapshot: `changed` entries upserted, `removed` gone, every edge leaving
        `edge_sources` (and every edge touching a removed file) replaced by `edges`. Costs what the
        change touches: this snapshot is shared, never copied, and stays as it was. `members`: the
        member tier is now built (None: as it was)."""
        removed = set(removed)
        files = self.files.updated(changed, removed)
        sources = set(edge_sources) | removed
        out_old, in_old = self.out_edges, self.in_edges
        out: dict[str, tuple[Edge, ...]] = {}
        touched: set[str] = set()
        for source in sources:
            for edge in out_old.get(source, ()):
                touched.add(edge.target)
        for path in removed:  # edges into a removed file from files that keep their own edges
            for edge in in_old.get(path, ()):
                if edge.source not in sources:
                    kept = out.get(edge.source, out_old.get(edge.source, ()))
                    out[edge.source] = tuple(e for e in kept if e.target != path)
        new_out: dict[str, list[Edge]] = defaultdict(list)
        new_in: dict[str, list[Edge]] = defaultdict(list)
        edges = list(edges)
        side = self.side.replaced(files, sources, [e for e in edges if e.kind in SIDE_KINDS], complete=members)
        for edge in edges:
            if edge.kind in SIDE_KINDS:
                continue
            if edge.source in files and edge.target in files and edge.source != edge.target:
                new_out[edge.source].append(edge)
                new_in[edge.target].append(edge)
                touched.add(edge.target)
        moved = bool(out)  # an edge into a removed file went: a pair went with it
        for source in sources:
            fresh = new_out.get(source)
            out[source] = tuple(sorted(fresh, key=edge_key)) if fresh else ()
            if not moved and {e.target for e in out_old.get(source, ())} != {e.target for e in out[source]}:
                moved = True
        inbound: dict[str, tuple[Edge, ...]] = {}
        for target in touched - removed:
            kept = [e for e in in_old.get(target, ()) if e.source not in sources]
            kept.extend(new_in.get(target, ()))
            inbound[target] = tuple(sorted(kept, key=edge_key))
        out_edges = out_old.updated({k: v for k, v in out.items() if v}, [k for k, v in out.items() if not v])
        in_edges = in_old.updated({k: v for k, v in inbound.items() if v},
                                  [k for k, v in inbound.items() if not v] + [p for p in removed if p in in_old])
        if "neighborhoods" in self.__dict__:  # computed (or loaded from the store) for this one
            self._lineage.offer(self.pairs_version, self.__dict__["neighborhoods"])
        snapshot = GraphSnapshot(files, out_edges, in_edges, commit=commit, generation=self.generation + 1,
                                 side=side, lineage=self._lineage,
                                 pairs_version=next(self._lineage.versions) if moved else self.pairs_version)
        paths = self.__dict__.get("sorted_paths")
        if paths is not None:
            snapshot.__dict__["sorted_paths"] = _paths_updated(paths, self.files, changed, removed)
        symbols = self.__dict__.get("symbol_index")
        if symbols is not None:  # a query paid for it: carry it over, changed files only
            snapshot.__dict__["symbol_index"] = _symbols_updated(symbols, self.files, files, set(changed) | removed)
        return snapshot

    # --- plain lookups -----------------------------------------------------------------------

    def entry(self, path: str) -> FileEntry | None:
        return self.files.get(path)

    def files_under(self, folder: str) -> list[str]:
        """Indexed files in `folder` (workspace-relative; "" or "." is the root), sorted."""
        folder = folder.strip("/")
        paths = self.sorted_paths
        if folder in ("", "."):
            return list(paths)
        prefix = folder + "/"
        # "0" follows "/" in code point order: every path under the folder sorts between the two.
        return paths[bisect.bisect_left(paths, prefix):bisect.bisect_left(paths, folder + "0")]

    @cached_property
    def sorted_paths(self) -> list[str]:
        """Every indexed path, sorted (read-only: later snapshots share it or a copy of it)."""
        return sorted(self.files)

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
        return sum(map(len, self.out_edges.values()))

    # --- derived views, computed once per snapshot -------------------------------------------

    @cached_property
    def symbol_index(self) -> Mapping[str, list[tuple[str, Symbol]]]:
        """Short name and qualified name -> [(path, symbol)], in path order. Treat as read-only:
        later snapshots share it."""
        index: dict[str, list[tuple[str, Symbol]]] = defaultdict(list)
        files = self.files
        having = [(path, files[path].symbols_json) for path in sorted(files)]
        having = [(path, text) for path, text in having if text != "[]"]
        # One decode of every file's symbols, and the cycle collector off meanwhile: a build on
        # 100,000 files otherwise spends 3 of its 4.5 s collecting the objects it is creating.
        with collector_paused():
            rows = json.loads("[" + ",".join(text for _, text in having) + "]")
            for (path, _), symbols in zip(having, rows):
                for name, kind, start, end in symbols:
                    symbol = Symbol(name, kind, start, end)
                    index[name].append((path, symbol))
                    short = name.rsplit(".", 1)[-1]
                    if short != name:
                        index[short].append((path, symbol))
        return Overlay(dict(index))

    @property
    def neighborhoods(self) -> Neighborhoods:
        """This graph's neighborhoods; on a big graph whose file pairs moved since they were last
        computed, those last ones (`neighborhoods_current` says which) until the reconciler has
        recomputed them in the background."""
        own = self.__dict__.get("neighborhoods")
        if own is not None:
            return own
        known = self._lineage.hoods
        if known is not None and (known[0] == self.pairs_version or len(self.files) > STALE_NEIGHBORHOODS_FILES):
            return known[1]
        return self.settled_neighborhoods()

    @property
    def neighborhoods_at_hand(self) -> bool:
        """Whether `neighborhoods` answers without clustering."""
        known = self._lineage.hoods
        return "neighborhoods" in self.__dict__ or (known is not None and (
            known[0] == self.pairs_version or len(self.files) > STALE_NEIGHBORHOODS_FILES))

    @property
    def neighborhoods_current(self) -> bool:
        """Whether `neighborhoods` were computed from exactly this graph's file pairs."""
        known = self._lineage.hoods
        return "neighborhoods" in self.__dict__ or (known is not None and known[0] == self.pairs_version)

    def settled_neighborhoods(self) -> Neighborhoods:
        """This graph's own neighborhoods, clustering now when no snapshot of its lineage with the
        same file pairs has them (the reconciler calls this in the background)."""
        from .neighborhoods import detect  # read at call time: a test slows it down to race it

        with self._lock:  # two queries asking at once compute it once
            own = self.__dict__.get("neighborhoods")
            if own is None:
                known = self._lineage.hoods
                own = known[1] if known is not None and known[0] == self.pairs_version else detect(self)
                self.__dict__["neighborhoods"] = own
                self._lineage.offer(self.pairs_version, own)
            return own


def _paths_updated(paths: list[str], before: Mapping[str, FileEntry], changed: Iterable[str],
                   removed: set[str]) -> list[str]:
    """`paths` with `changed` in and `removed` out: the same list when no path came or went, else
    a copy edited in place (a memmove, not a sort)."""
    added = sorted(p for p in changed if p not in before and p not in removed)
    gone = [p for p in removed if p in before]
    if not added and not gone:
        return paths
    paths = list(paths)
    for path in gone:
        del paths[bisect.bisect_left(paths, path)]
    for path in added:
        bisect.insort(paths, path)
    return paths


def _overlay(mapping: Mapping[str, Any]) -> Overlay[str, Any]:
    return mapping if isinstance(mapping, Overlay) else Overlay(mapping if isinstance(mapping, dict) else dict(mapping))


def _named(path: str, entry: FileEntry) -> Iterator[tuple[str, tuple[str, Symbol]]]:
    """The symbol index's entries for one file, in the order a full build files them."""
    for symbol in entry.symbols():
        yield symbol.name, (path, symbol)
        short = symbol.name.rsplit(".", 1)[-1]
        if short != symbol.name:
            yield short, (path, symbol)


def _place_path(place: tuple[str, Symbol]) -> str:
    return place[0]


def _symbols_updated(
    index: Mapping[str, list[tuple[str, Symbol]]],
    before: Mapping[str, FileEntry],
    after: Mapping[str, FileEntry],
    paths: set[str],
) -> Mapping[str, list[tuple[str, Symbol]]]:
    """`index` with the entries of `paths` as `after` has them: what a full build would give. Each
    list is sorted by path, so a file's entries are found by bisection: a name that 40,000 files
    define (`value`, `run`) costs a list copy, not a filter and a sort."""
    lists: dict[str, list[tuple[str, Symbol]]] = {}
    for path in sorted(paths):
        old, new = before.get(path), after.get(path)
        old_json = "[]" if old is None else old.symbols_json
        new_json = "[]" if new is None else new.symbols_json
        if old_json == new_json:  # the usual edit: same definitions, same lines
            continue
        entries: dict[str, list[tuple[str, Symbol]]] = defaultdict(list)
        if new is not None and new_json != "[]":
            for name, place in _named(path, new):
                entries[name].append(place)
        names = set(entries)
        if old is not None and old_json != "[]":
            names.update(name for name, _ in _named(path, old))
        for name in names:
            places = lists.get(name)
            if places is None:
                places = lists[name] = list(index.get(name, ()))
            low = bisect.bisect_left(places, path, key=_place_path)
            high = bisect.bisect_right(places, path, key=_place_path)
            places[low:high] = entries.get(name, ())
    base = index if isinstance(index, Overlay) else Overlay(dict(index))
    return base.updated({k: v for k, v in lists.items() if v}, [k for k, v in lists.items() if not v and k in base])
