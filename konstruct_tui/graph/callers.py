"""Who refers to a symbol, and how the graph knows it.

`resolved` callers are proven: a file imports the name (directly, or through a package or index
file that re-exports it), or uses a member on a receiver whose type the source states
(`console.print` with `console: Console`). `by_name` candidates are only possible: a file that can
reach the defining file uses a member of that name on a receiver nobody could type
(`get_thing().print`), so it may be a caller. An answer with resolved callers is `ok` (candidates
beside them); with candidates only it is `undeterminable` (draw no conclusion); with neither,
`no_references` is a real "nothing".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .evidence import member_lines, name_lines
from .facts import OVERRIDES, LanguageSupport, Symbol
from .languages import languages
from .snapshot import GraphSnapshot
from .traversal import Reached, reach

RESOLVED = "resolved"
BY_NAME = "by_name"
OVERRIDDEN = "~"  # a member row `~Base.m`: the file calls an override of `Base.m` (see the Python plugin's members/uses.py)
_REEXPORT_DEPTH = 4
_REACH_LIMIT = 5000  # files examined for by-name candidates; a hub's whole project is enough
_FAMILY_DEPTH = 4
# Nested types are named like members (`Outer.Inner`) but are used as types, through file edges.
_TYPE_KINDS = frozenset({"class", "interface", "enum", "record", "annotation", "struct", "type", "namespace"})


def is_member(symbol: Symbol) -> bool:
    return "." in symbol.name and symbol.kind not in _TYPE_KINDS


@dataclass
class Callers:
    resolved: dict[str, dict[str, set[str]]] = field(default_factory=dict)  # path -> targets, kinds, via
    candidates: dict[str, tuple[int, set[str]]] = field(default_factory=dict)  # path -> (distance, targets)
    searched: int = 0  # files that can reach a definition (where candidates were looked for)
    overrides: dict[str, set[str]] = field(default_factory=dict)  # path -> targets, calls of an override
    through_base: dict[str, str] = field(default_factory=dict)  # path -> the supertype method it calls
    # path -> (build constraint, the declaration the default build binds its calls to): Go callers
    # of a declaration only another build compiles (see `LanguageSupport.builds`)
    other_build: dict[str, tuple[str, str]] = field(default_factory=dict)

    def set_apart(self, builds: tuple[dict[str, tuple[str, str]], set[str]]) -> None:
        """Proven callers that call the declaration only under a build constraint: candidates;
        callers whose build compiles another declaration of the name: not callers of this one."""
        apart, elsewhere = builds
        for path in elsewhere:
            self.resolved.pop(path, None)
        for path, why in apart.items():
            slot = self.resolved.pop(path, None)
            if slot is not None:
                self.candidates[path] = (1, set(slot["targets"]))
                self.other_build[path] = why

    def add_base_callers(self, base: Callers, name: str, defining: set[str]) -> None:
        """Callers of a supertype method this one overrides: candidates (the call may run it)."""
        for path in sorted(base.resolved):
            if path not in self.resolved and path not in defining and path not in self.candidates:
                self.candidates[path] = (1, set(defining))
                self.through_base[path] = name

    def add(self, path: str, target: str, kind: str, via: str = "") -> None:
        slot = self.resolved.setdefault(path, {"targets": set(), "kinds": set(), "via": set()})
        slot["targets"].add(target)
        slot["kinds"].add(kind)
        if via:
            slot["via"].add(via)


def find_callers(snap: GraphSnapshot, found: list[tuple[str, Symbol]]) -> Callers:
    out = Callers()
    family = _overridden(snap, found)
    for path, symbol in family:  # the declarations it overrides are part of it, as find-references says
        out.add(path, path, "overrides")
    for path, symbol in [*found, *family]:
        short = symbol.name.rsplit(".", 1)[-1]
        member = is_member(symbol)
        language = snap.files[path].language
        # A language whose resolver types member uses (`typed_members`): a member symbol's file
        # edges name only the types its signatures mention, never its callers. One that names the
        # declaration behind every use (`declaration_edges`): file edges name modules, which a
        # barrel or a `.d.ts` beside a `.js` would blur. Either way only member edges count.
        support = languages().get(language)
        typed = support is not None and support.typed_members
        if not (member and typed) and not (support is not None and support.declaration_edges):
            _named_by_edges(snap, path, short, out)
        overridden = OVERRIDDEN + symbol.name
        for edge in snap.side.members_in.get(path, ()):
            if symbol.name in edge.names or ("." not in symbol.name and short in edge.names):
                out.add(edge.source, path, "members")
            elif overridden in edge.names:
                out.overrides.setdefault(edge.source, set()).add(path)
    defining = {p for p, _ in found}
    for path in defining:
        out.resolved.pop(path, None)
    # A call of an override in a subclass may run this method (`super()`, a looser receiver):
    # possible, not proven, so a candidate beside the by-name ones.
    for path, targets in out.overrides.items():
        if path not in out.resolved and path not in defining:
            out.candidates[path] = (1, targets)
    members = {s.name.rsplit(".", 1)[-1] for _, s in found if is_member(s)}
    if members:
        mates = _package_mates(snap, defining)
        reached = reach(snap, sorted(mates), inbound=True, kinds=("imports", "references"), depth=None)
        # A Go file of the defining package (its tests first of all) reaches the method without
        # an edge: it is a candidate one step away.
        reached = [Reached(p, 1, p, (), ()) for p in sorted(mates - defining)] + reached
        # A file may reach the defining file only through its package's own name
        # (`self_package_imports`: `import * as z from "zod/v4"` in zod's tests; the file graph
        # leaves that to an install): the members it uses there say it does.
        if any((support := _language(snap, p)) is not None and support.self_package_imports for p in defining):
            near = {r.path for r in reached} | defining
            users = {e.source for p in defining for e in snap.side.members_in.get(p, ())} - near
            reached = [Reached(p, 1, p, (), ()) for p in sorted(users)] + reached
        out.searched = len(reached[:_REACH_LIMIT])
        unresolved = snap.side.unresolved
        for r in reached[:_REACH_LIMIT]:
            if r.path in out.resolved or r.path in defining:
                continue
            if members.intersection(unresolved.get(r.path, ())):
                out.candidates[r.path] = (min(r.distance, out.candidates.get(r.path, (r.distance,))[0]), defining)
    return out


def _overridden(snap: GraphSnapshot, found: list[tuple[str, Symbol]]) -> list[tuple[str, Symbol]]:
    """The base-class (or interface) members that the found methods override, and theirs, in a
    language whose resolver records override families (`override_families`).

    The resolver records an override as a member use of the overridden declaration by the file that
    declares the override. A call of any member of that family may run this one (a call through the
    base type) and the language server lists the whole family, so callers of the base count."""
    family: list[tuple[str, Symbol]] = []
    seen = {(p, s.name) for p, s in found}
    frontier = [(p, s.name) for p, s in found if is_member(s)
                and (support := _language(snap, p)) is not None and support.override_families]
    for _ in range(_FAMILY_DEPTH):
        following = []
        for path, name in frontier:
            for edge in snap.side.members_out.get(path, ()):
                for marked in edge.names:
                    overrider, arrow, overridden = marked.partition(OVERRIDES)
                    if not arrow or overrider != name or (edge.target, overridden) in seen:
                        continue
                    entry = snap.files.get(edge.target)
                    declared = next((s for s in entry.symbols() if s.name == overridden), None) if entry else None
                    if declared is None and entry is not None:
                        # an interface's property signature (`readonly path: string`) is no symbol,
                        # but the class member implementing it is used through it all the same
                        declared = Symbol(overridden, "property", 0, 0)
                    if declared is not None:
                        seen.add((edge.target, overridden))
                        following.append((edge.target, overridden))
                        family.append((edge.target, declared))
        frontier = following
    return family


def _language(snap: GraphSnapshot, path: str) -> LanguageSupport | None:
    return languages().get(snap.files[path].language)


def _package_mates(snap: GraphSnapshot, defining: set[str]) -> set[str]:
    """The defining files, and for a language whose packages are folders (`folder_packages`) every
    file of their packages: a method may be declared in any file of its package, while importers'
    edges point at the files that define the names."""
    found = set(defining)
    for path in defining:
        language = snap.files[path].language
        support = languages().get(language)
        if support is not None and support.folder_packages:
            folder = path.rpartition("/")[0]
            found.update(p for p in snap.files_under(folder)
                         if p.rpartition("/")[0] == folder and snap.files[p].language == language)
    return found


def _named_by_edges(snap: GraphSnapshot, path: str, short: str, out: Callers) -> None:
    """Files whose imports or uses name `short` in `path`, and, through files that re-export it
    (an `__init__.py`, an `index.ts`: they import the name and define nothing of that name),
    the files that use it from there."""
    frontier = [(path, "")]
    seen = {path}
    for _ in range(_REEXPORT_DEPTH):
        following = []
        for target, via in frontier:
            for edge in snap.predecessors(target):
                # Member edges ("T.M") are matched by find_callers: `c.Run()` is no use of `func Run`.
                if edge.kind == "members" or not any(n == short or n.endswith("." + short) for n in edge.names):
                    continue
                out.add(edge.source, path, edge.kind, via)
                if edge.kind == "imports" and edge.source not in seen and not _defines(snap, edge.source, short):
                    seen.add(edge.source)
                    following.append((edge.source, edge.source))
        frontier = following
        if not frontier:
            break


def _defines(snap: GraphSnapshot, path: str, short: str) -> bool:
    entry = snap.files.get(path)
    return entry is not None and any(s.name == short for s in entry.symbols())


def shaped(snap: GraphSnapshot, found: list[tuple[str, Symbol]], callers: Callers,
           read: Callable[[str], str | None], lines_for: int) -> list[dict[str, Any]]:
    """Result entries: resolved callers by path, then candidates nearest first. Call-site lines
    are read for the first `lines_for` entries (a text search would find the same lines)."""
    member = any(is_member(s) for _, s in found)
    short = found[0][1].name.rsplit(".", 1)[-1]
    results: list[dict[str, Any]] = []
    for path, slot in sorted(callers.resolved.items()):
        entry: dict[str, Any] = {"path": path, "targets": sorted(slot["targets"]), "kinds": sorted(slot["kinds"]),
                                 "evidence": RESOLVED}
        if slot["via"]:
            entry["via"] = sorted(slot["via"])
        results.append(entry)
    for path, (distance, targets) in sorted(callers.candidates.items(), key=lambda item: (item[1][0], item[0])):
        entry = {"path": path, "targets": sorted(targets), "kinds": [], "evidence": BY_NAME, "distance": distance}
        if path in callers.overrides:
            entry["calls_override"] = True  # the receiver is typed, as a subclass that overrides it
        if path in callers.through_base:
            entry["calls_base"] = callers.through_base[path]  # a call of the method it overrides
        if path in callers.other_build:  # calls it only when built with the constraint
            entry["built_with"], twin = callers.other_build[path]
            if twin:
                entry["binds_by_default"] = twin  # where the default build's calls go
        results.append(entry)
    for entry in results[:lines_for]:
        text = read(entry["path"])
        lines = member_lines(text, short) if member or entry["evidence"] == BY_NAME else None
        if not lines and (entry["evidence"] == RESOLVED or "built_with" in entry):
            lines = name_lines(text, short)
        entry["lines"] = lines
    return results
