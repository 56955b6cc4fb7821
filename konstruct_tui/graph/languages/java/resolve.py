"""Java imports and uses -> file edges.

Java finds a type by its package, not by its path, so one table of declared types
(`type_world.TypeWorld`) serves every source root (src/main/java, src/test/java, each module) at
once. A simple name resolves the way javac scopes it: a type the file declares, a single-type
import, a type of the file's own package (no import needed: the rule a path-based graph misses),
then on-demand imports. A dotted path resolves by its longest prefix that is a declared type
(`com.acme.Price`). On top of the names written, `calls` adds the types a compiled class
depends on through the signatures of what it calls. Types outside the project (the JDK,
libraries) make no edge. When one name is declared twice (the same class in two modules), the
copy nearest the user wins.
"""

from __future__ import annotations

from collections import defaultdict

from ...facts import Edge, FileFacts, ProjectView
from .calls import evaluate
from .type_world import TYPE_KINDS, TypeWorld, member_facts, type_names

__all__ = ["TYPE_KINDS", "JavaResolver"]


class JavaResolver:
    def __init__(self, project: ProjectView) -> None:
        self._world = TypeWorld(project)

    def _file_of(self, fqn: str, importer: str) -> str | None:
        found = self._world.declaration(fqn, importer)
        return None if found is None else found[0]

    def resolve(self, facts: FileFacts) -> list[Edge]:
        world, importer = self._world, facts.path
        if importer not in world.facts:
            return []  # resolvers see the project as indexed; a file outside it resolves nothing
        # Keyed by declaring file; None: a type the world knows without a file (left out below).
        imported: dict[str | None, set[str]] = defaultdict(set)
        comment_only: dict[str, set[str]] = defaultdict(set)
        referenced: dict[str | None, set[str]] = defaultdict(set)
        plain = {u for u in facts.uses if "." not in u}
        dotted = [u for u in facts.uses if "." in u]
        heads = plain | {u.split(".", 1)[0] for u in dotted}
        called = {
            chain.steps[0].name
            for chains in member_facts(facts).calls.values()
            for chain in chains
            if chain.head.kind == "unqualified" and chain.steps
        }
        for ref in facts.imports:
            owner = world.longest_type_prefix(ref.target)
            if owner is None or ref.kind == "wildcard" and owner != ref.target:
                continue  # a library type, or `import a.b.*` of a package (matched per use below)
            # An import only a comment uses (`{@link Foo}`) or nothing uses is not in the compiled
            # class: javac drops it, so jdeps and the JVM never see that dependency.
            if ref.kind == "import" and owner.rsplit(".", 1)[-1] not in heads:
                # Still a reference to the type for `callers` (a `{@link}` a reader follows), as
                # member evidence beside the file graph.
                found = world.declaration(owner, importer)
                if found is not None:
                    comment_only[found[0]].add(found[1])
                continue
            if ref.kind == "static" and ref.names != ("*",) and not {ref.names[0]} & (heads | called):
                continue
            path = self._file_of(owner, importer)
            if ref.kind in ("static", "wildcard"):
                imported[path].update(ref.names)
            else:
                imported[path].add(owner.rsplit(".", 1)[-1])
        declared = type_names(facts)
        own = {name.rsplit(".", 1)[-1] for name in declared}
        # Resolving from inside the file's first top-level type also finds member types inherited
        # from its supertypes (`Entry` in a subclass of a class declaring `Entry`).
        context = next((name for name in declared if "." not in name), "")
        single = {ref.target.rsplit(".", 1)[-1] for ref in facts.imports if ref.kind == "import"}
        for name in sorted(h for h in heads if h[:1].isupper()):  # in Java, only these name types
            if name in own:
                continue  # a member type of this file shadows the package's type in its body
            fqn = world.resolve_name(importer, context, name)
            if fqn is None:
                continue
            path = self._file_of(fqn, importer)
            referenced[path].add(name)
            if name not in single and fqn.rpartition(".")[0] != (facts.package or ""):
                imported[path].add(name)  # reached through an on-demand import
        nested: dict[str, set[str]] = defaultdict(set)
        for use in dotted:
            head = use.split(".", 1)[0]
            if head[:1].isupper():
                # `Outer.Inner`, `Color.RED`: the file edge goes to Outer's file (above); a nested
                # type is also a member use of it, so `callers` of `Outer.Inner` finds this file.
                fqn = world.resolve_name(importer, context, use) if head not in own else None
                found = world.declaration(fqn, importer) if fqn and fqn.count(".") > (facts.package or "").count(".") + 1 else None
                if found is not None and "." in found[1]:
                    nested[found[0]].add(found[1])
                continue
            fqn = world.longest_type_prefix(use)
            if fqn is not None:
                referenced[self._file_of(fqn, importer)].add(fqn.rsplit(".", 1)[-1])
        chains = evaluate(world, facts)
        self._static_fields(facts, plain, chains.uses)
        for table in (nested, comment_only):
            for path, names in table.items():
                chains.uses[path] |= names
        for fqn, names in chains.found.items():
            path = self._file_of(fqn, importer)
            if path is not None:
                referenced[path].update(names)
        edges = [
            Edge(importer, target, kind, tuple(sorted(names)))
            for kind, table in (("imports", imported), ("references", referenced), ("members", chains.uses))
            for target, names in sorted(table.items())
            if target != importer and target is not None
        ]
        if chains.unknown:
            edges.append(Edge(importer, importer, "unresolved", tuple(sorted(chains.unknown))))
        return edges

    def _static_fields(self, facts: FileFacts, plain: set[str], uses: dict[str, set[str]]) -> None:
        """Fields imported statically and used bare (`import static ...JsonToken.NAME` ... `NAME`)
        are member uses of the declaring type's field."""
        for ref in facts.imports:
            if ref.kind != "static":
                continue
            owner = self._world.longest_type_prefix(ref.target)
            if owner is None:
                continue
            names = plain if ref.names == ("*",) else set(ref.names) & plain
            for name in sorted(names):
                for path, declaring, signature in self._world.members(owner, name, facts.path):
                    if signature.is_field:
                        uses[path].add(f"{declaring}.{name}")
