"""Rust resolution: facts of the project -> file edges and member evidence.

What a path says is resolved: `mod` declarations to their files, `use` paths starting at `crate::`,
`self::`, `super::`, a module declared beside, or a crate of the project (a workspace member or a
`path` dependency), through `pub use` re-exports to the file that defines the name; a path in code
(`config::load()`, `Parser::new()`) the same way, `Type::method` as a member use of the file that
declares `Type.method` in that crate. A method called on a value (`parser.parse()`) is only a name:
its receiver's type is not inferred, so it is an `unresolved` member use (a caller candidate).
"""

from __future__ import annotations

from collections import defaultdict

from ...facts import Edge, FileFacts, ImportRef, ProjectView
from .crates import packages
from .extract import LANGUAGE
from .member_facts import NO_MEMBER_FACTS, RustMemberFacts
from .modules import Layout, Place

_REEXPORT_DEPTH = 4


class RustResolver:
    def __init__(self, project: ProjectView) -> None:
        self.project = project
        paths = list(project.paths())
        self.layout = Layout({p for p in paths if p.endswith(".rs")}, packages(project, paths))
        self._libraries = {p.folder: p.library for p in self.layout.packages}
        self._members: dict[str, list[str]] | None = None

    # --- facts of other files, read on demand
    def _facts(self, path: str) -> FileFacts | None:
        facts = self.project.facts_of(path)
        return facts if facts is not None and facts.language == LANGUAGE else None

    def _defines(self, path: str, name: str) -> bool:
        facts = self._facts(path)
        return facts is not None and any(s.name == name for s in facts.symbols)

    def _declaring(self, member: str) -> list[str]:
        """Files declaring `Type.method` (an `impl` may sit in any module of the crate)."""
        if self._members is None:
            table: dict[str, list[str]] = defaultdict(list)
            for path in sorted(self.layout.files):
                for symbol in (f.symbols if (f := self._facts(path)) else ()):
                    if "." in symbol.name:
                        table[symbol.name].append(path)
            self._members = dict(table)
        return self._members.get(member, [])

    # --- paths
    def _start(self, path: str, place: Place, first: str) -> tuple[Place, tuple[str, ...]] | None:
        """Where a path's first segment points: a crate's root module, or a module of this crate."""
        if first == "crate":
            return place, ()
        if first == "self":
            return place, place.module
        if first == "super":
            return place, place.module[:-1]
        package = self.layout.package_of(path)
        if package is not None:
            folder = package.dependencies.get(first) or (package.folder if first == package.name else None)
            library = self._libraries.get(folder) if folder is not None else None
            if library is not None and library != place.root:
                return self.layout.place(library), ()
        if self.layout.file_of(place, (*place.module, first)) is not None:
            return place, (*place.module, first)
        return None

    def locate(self, path: str, segments: list[str]) -> tuple[str, list[str]] | None:
        """(the file of the deepest module the path names, the segments after it), or None for a
        path outside the project (`std::fmt`, a registry crate)."""
        if not segments:
            return None
        place = self.layout.place(path)
        started = self._start(path, place, segments[0])
        if started is None:
            return None
        crate, module = started
        rest = segments[1:]
        while segments[0] == "super" and rest[:1] == ["super"]:
            module, rest = module[:-1], rest[1:]
        while rest and self.layout.file_of(crate, (*module, rest[0])) is not None:
            module, rest = (*module, rest[0]), rest[1:]
        target = self.layout.file_of(crate, module)
        return (target, rest) if target is not None else None

    def definer(self, path: str, name: str, depth: int = 0) -> str:
        """The file that defines `name` as seen from `path`: itself, or through its `pub use`."""
        facts = self._facts(path)
        if facts is None or depth >= _REEXPORT_DEPTH or self._defines(path, name):
            return path
        for ref in facts.imports:
            if ref.kind != "reexport":
                continue
            if name in ref.names and ref.alias in (None, name) or ref.alias == name:
                found = self.locate(path, [*ref.target.split("::"), *ref.names])
                if found is not None and len(found[1]) <= 1:
                    return self.definer(found[0], ref.names[0] if found[1] else name, depth + 1)
            elif ref.names == ("*",):
                found = self.locate(path, ref.target.split("::"))
                if found is not None and not found[1] and self._exports(found[0], name, depth + 1):
                    return self.definer(found[0], name, depth + 1)
        return path

    def _exports(self, path: str, name: str, depth: int) -> bool:
        return self.definer(path, name, depth) != path or self._defines(path, name)

    # --- edges
    def resolve(self, facts: FileFacts) -> list[Edge]:
        path = facts.path
        place = self.layout.place(path)
        found: dict[tuple[str, str], set[str]] = defaultdict(set)
        members: set[tuple[str, str]] = set()
        bound: dict[str, tuple[str, list[str]]] = {}  # a name `use` brings in -> (file, rest)
        globs: list[str] = []
        for ref in facts.imports:
            if ref.kind == "mod":
                child = self.layout.child(path, place, ref.target)
                if child is not None:
                    found[(child, "imports")].add(ref.target)
                continue
            self._import(path, ref, found, bound, globs)
        for use in facts.uses:
            self._use(path, use.split("::"), found, members, bound, globs)
        edges = [Edge(path, target, kind, tuple(sorted(names))) for (target, kind), names in sorted(found.items())]
        by_target: dict[str, set[str]] = defaultdict(set)
        for target, member in members:
            by_target[target].add(member)
        edges += [Edge(path, target, "members", tuple(sorted(names))) for target, names in sorted(by_target.items())]
        methods = (facts.extra if isinstance(facts.extra, RustMemberFacts) else NO_MEMBER_FACTS).method_calls
        if methods:
            edges.append(Edge(path, path, "unresolved", tuple(sorted(methods))))
        return edges

    def _import(self, path: str, ref: ImportRef, found: dict[tuple[str, str], set[str]],
                bound: dict[str, tuple[str, list[str]]], globs: list[str]) -> None:
        segments = [s for s in ref.target.split("::") if s]
        leaf = ref.names[0] if ref.names else None
        if leaf is not None and leaf != "*":
            segments.append(leaf)
        located = self.locate(path, segments)
        if located is None:
            return
        target, rest = located
        if leaf == "*":
            if not rest:
                found[(target, "imports")].add("*")
                globs.append(target)
            return
        local = ref.alias or (rest[0] if rest else leaf or segments[-1])
        bound[local] = (target, rest)
        if not rest:  # a module: `use crate::config;`
            found[(target, "imports")].update(())
            return
        definer = self.definer(target, rest[0])
        found[(target, "imports")].add(rest[0])
        if definer != target:
            found[(definer, "imports")].add(rest[0])
        bound[local] = (definer, rest)

    def _use(self, path: str, segments: list[str], found: dict[tuple[str, str], set[str]],
             members: set[tuple[str, str]], bound: dict[str, tuple[str, list[str]]], globs: list[str]) -> None:
        head = bound.get(segments[0])
        if head is not None:
            target, rest = head[0], [*head[1], *segments[1:]]
            if not head[1]:  # a module brought in by `use`: walk on from it
                located = self.locate(target, ["self", *segments[1:]])
                if located is None:
                    return
                target, rest = located
        elif len(segments) > 1:
            located = self.locate(path, segments)
            if located is None:
                return
            target, rest = located
            if rest:
                target = self.definer(target, rest[0])
        else:
            target = next((g for g in globs if self._exports(g, segments[0], 0)), "")
            if not target:
                return
            target, rest = self.definer(target, segments[0]), segments
        if not rest or target == path:
            return
        found[(target, "references")].add(rest[0])
        if len(rest) >= 2:
            member = f"{rest[0]}.{rest[1]}"
            declaring = self._declaring(member)
            crate = self.layout.package_of(target)
            same = [d for d in declaring if self.layout.package_of(d) == crate]
            for declared in same or ([target] if target in declaring else []):
                members.add((declared, member))
