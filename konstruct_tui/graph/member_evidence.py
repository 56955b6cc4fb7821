"""Member-level evidence: which members of which files a file uses, beside the file graph.

`members` edges name the members a file uses where the receiver's type was proven (`Console.print`),
and a file's `unresolved` names the members it uses on receivers nobody could type. They ride
beside the file graph, never in it: `out_edges`/`in_edges`, the export and the neighborhoods stay
exactly as they are. Stored packed, one row per file (see `pack`); unpacked on the first question.
"""

from __future__ import annotations

import re
import threading
from collections import defaultdict
from collections.abc import Iterable, Mapping

from .facts import OVERRIDES, Edge
from .overlay import Overlay, collector_paused
from .records import FileEntry

MEMBERS = "members"
UNRESOLVED = "unresolved"
SIDE_KINDS = (MEMBERS, UNRESOLVED)


def edge_key(edge: Edge) -> tuple[str, str, str]:
    return (edge.source, edge.target, edge.kind)


_Views = tuple[Overlay[str, tuple[Edge, ...]], Overlay[str, tuple[Edge, ...]], Overlay[str, tuple[str, ...]]]


class Side:
    """The member-level evidence (see SIDE_KINDS), kept packed as stored: one row per file (`packed`:
    path -> its tokens, see `pack`). A warm start only files the rows; `members_in` (target ->
    member edges into it, by source), `members_out` and `unresolved` (path -> member names used on
    receivers of unknown type) are unpacked on the first question that needs them, and from then on
    carried into each next snapshot by re-unpacking only the rows that changed."""

    def __init__(self, packed: Overlay[str, tuple[str, ...]], views: _Views | None = None, *,
                 complete: bool = True) -> None:
        self.packed = packed
        self._views = views
        self._lock = threading.Lock()
        # False while the member tier of the index is not built yet (`konstruct index` builds the
        # file graph alone; the first question that needs member uses builds them): then no row
        # here is evidence of absence, and symbol answers say `undeterminable`, never "nothing".
        self.complete = complete

    def replaced(self, files: Mapping[str, FileEntry], sources: Iterable[str], edges: Iterable[Edge], *,
                 complete: bool | None = None) -> Side:
        """A copy with the rows of `sources` replaced by `edges` (packed rows, one per file)."""
        complete = self.complete if complete is None else complete
        rows = {edge.source: edge.names for edge in edges if edge.source in files and edge.kind == MEMBERS}
        sources = set(sources)
        gone = [source for source in sources if source not in rows and source in self.packed]
        packed = self.packed.updated(rows, gone)
        views = self._views
        if views is None or not (sources or rows):
            return Side(packed, views, complete=complete)
        return Side(packed, _views_updated(views, packed, sources | set(rows)), complete=complete)

    def _unpacked(self) -> _Views:
        views = self._views
        if views is not None:
            return views
        with self._lock, collector_paused():
            if self._views is None:
                members_in: dict[str, list[Edge]] = defaultdict(list)
                members_out: dict[str, tuple[Edge, ...]] = {}
                unresolved: dict[str, tuple[str, ...]] = {}
                for source in sorted(self.packed):
                    out, unknown = _unpacked_row(source, self.packed[source])
                    if unknown:
                        unresolved[source] = unknown
                    if out:
                        members_out[source] = out
                        for edge in out:
                            members_in[edge.target].append(edge)
                self._views = (Overlay({k: tuple(v) for k, v in members_in.items()}), Overlay(members_out),
                               Overlay(unresolved))
            return self._views

    @property
    def members_in(self) -> Mapping[str, tuple[Edge, ...]]:
        return self._unpacked()[0]

    @property
    def members_out(self) -> Mapping[str, tuple[Edge, ...]]:
        return self._unpacked()[1]

    @property
    def unresolved(self) -> Mapping[str, tuple[str, ...]]:
        return self._unpacked()[2]


def _unpacked_row(source: str, tokens: tuple[str, ...]) -> tuple[tuple[Edge, ...], tuple[str, ...]]:
    targets, unknown = unpack(tokens)
    # A file's own row keeps only override markers (TypeScript: `Cookie.path>CookieOptions.path`
    # declared side by side), which callers follow to the family; it is no use of the file.
    own = tuple(n for n in targets.pop(source, ()) if OVERRIDES in n)
    if own:
        targets[source] = own
    return tuple(Edge(source, target, MEMBERS, names) for target, names in targets.items()), unknown


def _views_updated(views: _Views, packed: Mapping[str, tuple[str, ...]], sources: set[str]) -> _Views:
    """`views` with the rows of `sources` re-read from `packed`: what the full unpack would give."""
    members_in, members_out, unresolved = views
    outs: dict[str, tuple[Edge, ...]] = {}
    unknowns: dict[str, tuple[str, ...]] = {}
    targets: set[str] = set()
    for source in sources:
        targets.update(e.target for e in members_out.get(source, ()))
        tokens = packed.get(source)
        out, unknown = _unpacked_row(source, tokens) if tokens is not None else ((), ())
        outs[source], unknowns[source] = out, unknown
        targets.update(e.target for e in out)
    into: dict[str, tuple[Edge, ...]] = {}
    for target in targets:
        kept = [e for e in members_in.get(target, ()) if e.source not in sources]
        kept.extend(e for source in sources for e in outs[source] if e.target == target)
        into[target] = tuple(sorted(kept, key=edge_key))
    return (
        members_in.updated({k: v for k, v in into.items() if v}, [k for k, v in into.items() if not v and k in members_in]),
        members_out.updated({k: v for k, v in outs.items() if v}, [k for k, v in outs.items() if not v and k in members_out]),
        unresolved.updated({k: v for k, v in unknowns.items() if v},
                           [k for k, v in unknowns.items() if not v and k in unresolved]),
    )


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
