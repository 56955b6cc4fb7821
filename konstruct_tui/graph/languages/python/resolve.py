"""Python imports and uses -> file edges.

Import edges follow grimp's reading, the reference tool we are measured against:
- `import a.b.c` depends on `a/b/c.py` only (not on `a/__init__.py` or `a/b/__init__.py`);
- `from pkg import name` depends on `pkg/name.py` when that is a module, else on `pkg/__init__.py`;
- a dotted name that is not a module falls back one level (`import pkg.mod.Attr` -> `pkg/mod.py`);
- relative imports resolve against the importer's folder, whatever root it sits in.

Reference edges only name files the file already imports: `from m import f` then `f(...)` refers to
m's file with `f`; `import m` then `m.f` refers to m's file with `f`. A re-export is not followed to
its defining file here: the re-exporting `__init__.py` holds its own import edge with the same name,
so a caller query walks the chain instead of us inventing an edge nobody wrote.
"""

from __future__ import annotations

from collections import defaultdict

from ...facts import Edge, FileFacts, ImportRef, ProjectView
from .members import MemberUses
from .modules import ImportBinding, ModuleTable, join, parent_dir
from .records import PythonMemberFacts


class PythonResolver:
    def __init__(self, project: ProjectView) -> None:
        self._project = project
        self.table = ModuleTable(project)
        self._members = MemberUses(project, self)

    def resolve(self, facts: FileFacts) -> list[Edge]:
        importer = facts.path
        imported: dict[str, set[str]] = defaultdict(set)
        bindings: list[ImportBinding] = []
        wildcards: list[str] = []
        for ref in facts.imports:
            for target, label, binding in self.targets(ref, importer):
                if target == importer:
                    continue
                imported[target].add(label)
                if binding is not None:
                    bindings.append(binding)
                if ref.kind == "wildcard":
                    wildcards.append(target)
        referenced = self._references(facts, bindings, wildcards)
        edges = [Edge(importer, t, "imports", tuple(sorted(n))) for t, n in sorted(imported.items())]
        edges += [Edge(importer, t, "references", tuple(sorted(n))) for t, n in sorted(referenced.items()) if n]
        if isinstance(facts.extra, PythonMemberFacts) and facts.extra.deferred:
            return edges  # extracted without member facts: the member tier resolves this file's member uses
        members, unknown = self._members.resolve(facts)
        edges += [Edge(importer, t, "members", tuple(sorted(n))) for t, n in sorted(members.items()) if n]
        if unknown:
            edges.append(Edge(importer, importer, "unresolved", tuple(sorted(unknown))))
        return edges

    # -- imports ------------------------------------------------------------------------------

    def targets(self, ref: ImportRef, importer: str) -> list[tuple[str, str, ImportBinding | None]]:
        """(file, edge label, binding) for each file the import statement depends on."""
        if ref.kind == "import":
            absolute = self._absolute(ref.target, importer)
            if absolute is None:
                return []
            path, exact = absolute
            # `import a.b.c` binds `a` but code reaches the module as `a.b.c`; an alias binds it.
            chain = ref.alias or (ref.target if exact else ref.target.rsplit(".", 1)[0])
            return [(path, ref.target, ImportBinding(path, None, chain))]
        name = ref.names[0] if ref.names else "*"
        local = ref.alias or name
        if ref.level:
            directory = self._relative_base(importer, ref.level)
            if directory is None:
                return []
            if name != "*":
                module = self.table.in_directory(directory, join(ref.target, name).replace("/", "."))
                if module is not None:
                    return [(module, name, ImportBinding(module, None, local))]
            holder = self.table.in_directory(directory, ref.target)
        else:
            if name != "*":
                found = self.table.lookup(f"{ref.target}.{name}", importer)
                if found is not None:
                    return [(found, name, ImportBinding(found, None, local))]
            holder = self.table.lookup(ref.target, importer) if ref.target else None
            if holder is None and "." in ref.target and name != "*":
                return []  # grimp gives up past one missing level: `from a.gone import x`
        if holder is None:
            return []
        binding = None if name == "*" else ImportBinding(holder, name, local)
        return [(holder, name, binding)]

    def _absolute(self, dotted: str, importer: str) -> tuple[str, bool] | None:
        found = self.table.lookup(dotted, importer)
        if found is not None:
            return found, True
        if "." in dotted:
            parent = self.table.lookup(dotted.rsplit(".", 1)[0], importer)
            if parent is not None:
                return parent, False
        return None

    def _relative_base(self, importer: str, level: int) -> str | None:
        directory = parent_dir(importer)
        for _ in range(level - 1):
            if not directory:
                return None  # beyond the top: an error at run time, no dependency
            directory = parent_dir(directory)
        return directory

    # -- references ---------------------------------------------------------------------------

    def _references(self, facts: FileFacts, bindings: list[ImportBinding], wildcards: list[str]) -> dict[str, set[str]]:
        referenced: dict[str, set[str]] = defaultdict(set)
        plain = {u for u in facts.uses if "." not in u}
        # Dotted uses by their first name: a module binding only looks at the uses that start
        # with its own first name, not at all of them (a file has hundreds).
        dotted: dict[str, list[str]] = defaultdict(list)
        for use in facts.uses:
            if "." in use:
                dotted[use.split(".", 1)[0]].append(use)
        heads = plain | dotted.keys()
        for binding in bindings:
            if binding.symbol is not None:
                if binding.chain in heads:
                    referenced[binding.target].add(binding.symbol)
                continue
            prefix = binding.chain + "."
            for use in dotted.get(binding.chain.split(".", 1)[0], ()):
                if use.startswith(prefix):
                    referenced[binding.target].add(use[len(prefix) :].split(".", 1)[0])
        for target in wildcards:
            target_facts = self._project.facts_of(target)
            if target_facts is None:
                continue
            exported = {s.name for s in target_facts.symbols if "." not in s.name and not s.name.startswith("_")}
            referenced[target] |= exported & plain
        referenced.pop(facts.path, None)
        return referenced
