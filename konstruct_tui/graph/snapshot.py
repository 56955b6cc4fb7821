"""The graph as queries see it: an immutable snapshot, swapped whole by the reconciler.

A query holds one snapshot for its whole answer, so it never sees half of an update. Derived views
(symbol index, neighborhoods) are computed on first use and cached on the snapshot; an update copies
the small per-file maps and replaces only the entries that changed, so publishing a one-file change
costs a dict copy, not a rebuild.
"""

from __future__ import annotations

import re
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
# Member-level evidence rides beside the file graph, never in it: `members` edges name the members a
# file uses where the receiver's type was proven (`Console.print`), and a file's one `unresolved`
# edge (to itself) names the members it uses on receivers nobody could type. Keeping them out of
# `out_edges`/`in_edges` leaves the file graph, its export and its neighborhoods exactly as before.
MEMBERS = "members"
UNRESOLVED = "unresolved"
SIDE_KINDS = (MEMBERS, UNRESOLVED)


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
        side: _Side | None = None,
    ) -> None:
        self.files = files
        self.out_edges = out_edges
        self.in_edges = in_edges
        self.side = side or _Side({})
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
        side: list[Edge] = []
        for edge in edges:
            if edge.kind in SIDE_KINDS:
                side.append(edge)
            elif edge.source in files and edge.target in files and edge.source != edge.target:
                out[edge.source].append(edge)
                inbound[edge.target].append(edge)
        out_edges = {key: tuple(value) for key, value in out.items()}
        in_edges = {key: tuple(value) for key, value in inbound.items()}
        kwargs["side"] = _Side({}).replaced(files, (), side)
        return cls(dict(files), out_edges, in_edges, **kwargs)  # type: ignore[arg-type]

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
        edges = list(edges)
        side = self.side.replaced(files, sources, [e for e in edges if e.kind in SIDE_KINDS])
        for edge in edges:
            if edge.kind in SIDE_KINDS:
                continue
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
        return GraphSnapshot(files, out, inbound, commit=commit, generation=self.generation + 1, previous=self,
                             side=side)

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


class _Side:
    """The member-level evidence (see SIDE_KINDS), kept packed as stored: one row per file (`packed`:
    path -> its tokens, see `pack`). A warm start only files the rows; `members_in` (target ->
    member edges into it), `members_out` and `unresolved` (path -> member names used on receivers
    of unknown type) are unpacked on the first question that needs them."""

    def __init__(self, packed: dict[str, tuple[str, ...]]) -> None:
        self.packed = packed
        self._views: tuple[dict[str, tuple[Edge, ...]], dict[str, tuple[Edge, ...]], dict[str, tuple[str, ...]]] | None = None
        self._lock = threading.Lock()

    def replaced(self, files: Mapping[str, FileEntry], sources: Iterable[str], edges: Iterable[Edge]) -> _Side:
        """A copy with the rows of `sources` replaced by `edges` (packed rows, one per file)."""
        packed = dict(self.packed)
        for source in sources:
            packed.pop(source, None)
        for edge in edges:
            if edge.source in files and edge.kind == MEMBERS:
                packed[edge.source] = edge.names
        return _Side(packed)

    def _unpacked(self) -> tuple[dict[str, tuple[Edge, ...]], dict[str, tuple[Edge, ...]], dict[str, tuple[str, ...]]]:
        with self._lock:
            if self._views is None:
                members_in: dict[str, list[Edge]] = defaultdict(list)
                members_out: dict[str, list[Edge]] = {}
                unresolved: dict[str, tuple[str, ...]] = {}
                for source, tokens in self.packed.items():
                    targets, unknown = unpack(tokens)
                    if unknown:
                        unresolved[source] = unknown
                    out = [Edge(source, target, MEMBERS, names) for target, names in targets.items() if target != source]
                    if out:
                        members_out[source] = out
                        for edge in out:
                            members_in[edge.target].append(edge)
                self._views = ({k: tuple(v) for k, v in members_in.items()},
                               {k: tuple(v) for k, v in members_out.items()}, unresolved)
            return self._views

    @property
    def members_in(self) -> dict[str, tuple[Edge, ...]]:
        return self._unpacked()[0]

    @property
    def members_out(self) -> dict[str, tuple[Edge, ...]]:
        return self._unpacked()[1]

    @property
    def unresolved(self) -> dict[str, tuple[str, ...]]:
        return self._unpacked()[2]


def pack(source: str, members: Mapping[str, Iterable[str]], unknown: Iterable[str]) -> Edge:
    """One file's member evidence as one stored row (an edge from the file to itself): `target>a,b`
    for the members proven used in each file (the path quoted when it holds whitespace or `%`), `?name` for
    each member name used on a receiver of unknown type. Ten thousand rows became one per file: a
    warm start reads them without building an object per use."""
    tokens = [f"{_quote(target)}>{','.join(sorted(members[target]))}" for target in sorted(members)]
    tokens += [f"?{name}" for name in sorted(set(unknown))]
    # One name, no whitespace: the store splits names on spaces when it loads them, and a warm
    # start then makes one string per file instead of one per token.
    return Edge(source, source, MEMBERS, ("|".join(tokens),))


def unpack(tokens: Iterable[str]) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    targets: dict[str, list[str]] = defaultdict(list)
    unknown = []
    for token in (t for packed in tokens for t in packed.split("|") if t):
        if token.startswith("?"):
            unknown.append(token[1:])
        else:
            target, _, names = token.partition(">")
            targets[_unquote(target)].extend(names.split(","))
    return {t: tuple(n) for t, n in targets.items()}, tuple(unknown)


def _quote(path: str) -> str:
    if "%" not in path and ">" not in path and "|" not in path and not any(c.isspace() for c in path):
        return path
    return "".join(f"%{ord(c):02X}" if c in "%>|" or c.isspace() else c for c in path)


def _unquote(text: str) -> str:
    if "%" not in text:
        return text
    return re.sub(r"%([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), text)


def _edge_key(edge: Edge) -> tuple[str, str, str]:
    return (edge.source, edge.target, edge.kind)


def _frozen(groups: Mapping[str, list[Edge]]) -> dict[str, tuple[Edge, ...]]:
    return {key: tuple(sorted(value, key=_edge_key)) for key, value in groups.items()}
