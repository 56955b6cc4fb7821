"""TypeScript, TSX and JavaScript (one language to the graph: they import each other freely).

`.ts/.mts/.cts` (and `.d.ts`) parse with the TypeScript grammar; `.tsx` and every JavaScript flavour
with the TSX grammar, a superset of JavaScript with JSX (the TypeScript grammar would misread JSX,
the TSX one only `<T>expr` casts, which JavaScript has not).

Edges: `imports` for each import, re-export, dynamic `import()`, `require()` and triple-slash
reference that resolves to a project file, named by what it imports; `references` for the imported
bindings the file really uses (an import whose names are never used has no `references` edge), to
the module that provides them, or with `follow_reexports` through barrels to the defining file.
"""

from __future__ import annotations

import posixpath
from typing import Any

from ...facts import Edge, FileFacts, ProjectView
from .config import custom_conditions
from .extract import LANGUAGE
from .facts import members_of
from .members.edges import member_edges
from .members.receivers import Receivers
from .specifiers import SpecifierResolver, facts_or_none

_JS = (".js", ".mjs", ".cjs", ".jsx")
_DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")


class TypeScriptResolver:
    """`follow_reexports`: a `references` edge goes to the file that finally defines the used name
    (through barrels) instead of the module the import names. Off by default: the file graph then
    matches what module-level tools (dependency-cruiser) call a dependency, and a barrel's own
    `imports` edges still lead on to the definers.

    `workspace_packages`: a bare specifier naming a package.json inside the project (`@acme/ui`,
    `zod/v4` in the zod monorepo) resolves to that package's source. Off by default for the same
    reason: module-level tools resolve those only through an installed node_modules (and then to
    build output), so with it on the file graph disagrees with them on every cross-package import.
    """

    def __init__(self, project: ProjectView, follow_reexports: bool = False, workspace_packages: bool = False) -> None:
        self._project = project
        self._follow = follow_reexports
        self._specifiers = SpecifierResolver(project, project.paths(), workspace_packages)
        self._specifiers_workspace = workspace_packages
        self._definers: dict[tuple[str, str], tuple[str, str] | None] = {}
        self._facts: dict[str, tuple[FileFacts | None, frozenset[str]]] = {}
        self._typed_specifiers: SpecifierResolver | None = None
        self._declarations: frozenset[str] | None = None
        self._member_targets: dict[tuple[str, int], str | None] = {}
        self._receivers = Receivers(lambda path: self._facts_of(path)[0], self._target, self._definer)

    def resolve(self, facts: FileFacts) -> list[Edge]:
        found: dict[tuple[str, str], set[str]] = {}

        def add(target: str, names: Any, kind: str) -> None:
            # a file's own members edge holds only override markers (`Cookie.secrets>CookieOptions.secrets`)
            if target != facts.path or kind == "members":
                named = found.setdefault((target, kind), set())
                named.update(names)
                if "default" in named:  # the name the defining file declares it under is used too
                    named.update(self._default_local(target))

        targets: dict[int, str] = {}
        for index, ref in enumerate(facts.imports):
            target = self._specifiers.resolve(facts.path, ref.target)
            if target is None:
                continue
            targets[index] = target
            add(target, (ref.alias or name if name == "*" else name for name in ref.names), "imports")

        uses = set(facts.uses)
        members = _members_by_qualifier(uses)
        for binding in members_of(facts).bindings:
            local, imported = binding.local, binding.imported
            target = targets.get(binding.source)
            if target is None:
                continue
            if imported == "*":
                for member in members.get(local, ()):
                    add(*self._referenced(target, member), "references")
                if local in uses and not members.get(local):
                    add(target, [local], "references")
            elif local in uses:
                add(*self._referenced(target, imported), "references")
        used, unknown = member_edges(facts, uses, self._receivers)
        for target, names in used.items():
            add(target, names, "members")
        edges = [
            Edge(facts.path, target, kind, tuple(sorted(names)))
            for (target, kind), names in sorted(found.items())
        ]
        if unknown:
            edges.append(Edge(facts.path, facts.path, "unresolved", tuple(sorted(unknown))))
        return edges

    def _default_local(self, path: str) -> tuple[str, ...]:
        """The top-level declaration `path` exports as `default` (`export default function f`,
        `export default f`), if it names one: callers and dead code look symbols up by that name."""
        facts, top_level = self._facts_of(path)
        if facts is None:
            return ()
        return tuple(e.name for e in members_of(facts).exports
                     if e.exported == "default" and e.source < 0 and e.name in top_level)

    def _referenced(self, target: str, name: str) -> tuple[str, list[str]]:
        if self._follow:
            definer, defined_as = self._definer(target, name) or (target, name)
            return definer, [defined_as]
        return target, [name]

    def _definer(self, path: str, name: str, depth: int = 0) -> tuple[str, str] | None:
        """The file (and name there) that defines what `path` exports as `name`: its own top-level
        declaration, or whatever it re-exports under that name, followed through barrels."""
        key = (path, name)
        if key in self._definers:
            return self._definers[key]
        self._definers[key] = None  # a re-export cycle resolves to nothing, not to a loop
        result = self._find_definer(path, name, depth) if depth < 32 else None
        self._definers[key] = result
        return result

    def _find_definer(self, path: str, name: str, depth: int) -> tuple[str, str] | None:
        facts, top_level = self._facts_of(path)
        if facts is None:
            return None
        extra = members_of(facts)
        if name == "default" and extra.default_export:
            # `export default class Options`: the class is named Options wherever it is imported.
            return path, extra.default_name or name
        if name in top_level:
            return path, name
        bindings = {b.local: (b.source, b.imported) for b in extra.bindings}
        for export in extra.exports:
            if export.exported != name:
                continue
            index, local = export.source, export.name
            if index < 0:  # export {local as name}: declared here, or an imported binding
                if local in bindings:
                    index, local = bindings[local]
                else:
                    return path, local  # `export {local as name}`: declared here as `local`
            target = self._target(facts, index)
            if target is None:
                return None
            if local == "*":
                return target, name
            return self._definer(target, local, depth + 1) or (target, local)
        for index, ref in enumerate(facts.imports):
            if ref.kind == "reexport" and ref.names == ("*",) and ref.alias is None:
                target = self._target(facts, index)
                if target is not None and name != "default":
                    found = self._definer(target, name, depth + 1)
                    if found is not None:
                        return found
        return None

    def _facts_of(self, path: str) -> tuple[FileFacts | None, frozenset[str]]:
        if path not in self._facts:
            facts = facts_or_none(self._project, path)
            top_level = frozenset(s.name for s in facts.symbols if "." not in s.name) if facts else frozenset()
            self._facts[path] = (facts, top_level)
        return self._facts[path]

    def _target(self, facts: FileFacts, index: int) -> str | None:
        """Where import `index` of `facts` leads, for member evidence: as the file graph resolves
        it for a relative specifier; a bare one as tsc would without an install: the importing
        file's own package by name (a test importing `zod/v4` inside zod) through its `exports` as
        tsc reads them (custom export conditions such as `@zod/source`, build output mapped back
        to `src/`). Other workspace packages need an
        install to resolve and stay as the file graph has them (see `workspace_packages`)."""
        if not 0 <= index < len(facts.imports):
            return None
        key = (facts.path, index)
        if key not in self._member_targets:
            self._member_targets[key] = self._find_target(facts, index)
        return self._member_targets[key]

    def _find_target(self, facts: FileFacts, index: int) -> str | None:
        specifier = facts.imports[index].target
        if specifier.startswith((".", "/", "node:")):
            found = self._specifiers.resolve(facts.path, specifier)
        else:  # a bare name (`paths`, `#imports`, the package itself): as tsc reads the package's exports
            if self._typed_specifiers is None:
                self._typed_specifiers = SpecifierResolver(
                    self._project, self._project.paths(), self._specifiers_workspace,
                    custom_conditions(self._project), own_sources=True)
            found = self._typed_specifiers.resolve(facts.path, specifier)
        if found is not None and found.endswith(_JS):
            # tsc types `./x.js` by the `x.d.ts` beside it, when there is one: that is where the
            # names a TypeScript user sees are declared (the file graph keeps the JavaScript file).
            if self._declarations is None:
                self._declarations = frozenset(p for p in self._project.paths() if p.endswith(_DECLARATIONS))
            stem = posixpath.splitext(found)[0]
            found = next((stem + d for d in _DECLARATIONS if stem + d in self._declarations), found)
        return found


def _members_by_qualifier(uses: set[str]) -> dict[str, set[str]]:
    members: dict[str, set[str]] = {}
    for use in uses:
        qualifier, dot, member = use.partition(".")
        if dot:
            members.setdefault(qualifier, set()).add(member)
    return members
