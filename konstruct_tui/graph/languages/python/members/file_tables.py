"""What each file of the project defines, imports and states, read once per file and pass: the
tables member resolution (`meaning.py`, `uses.py`) asks thousands of times per pass."""

from __future__ import annotations

from collections import defaultdict
from typing import Protocol

from ....facts import FileFacts, ImportRef, ProjectView
from ..modules import ImportBinding, ModuleTable
from ..records import EMPTY, PythonMemberFacts


def member_facts_of(facts: FileFacts | None) -> PythonMemberFacts:
    """The file's member facts (none for a file without them)."""
    extra = facts.extra if facts is not None else None
    return extra if isinstance(extra, PythonMemberFacts) else EMPTY


class ImportTargets(Protocol):
    """What member resolution asks of the file resolver (`resolve.PythonResolver`): the module
    table, and the files and bindings an import names."""

    table: ModuleTable

    def targets(self, ref: ImportRef, importer: str) -> list[tuple[str, str, ImportBinding | None]]: ...


class FileTables:
    """Per-file tables (cached: a resolver lives for one pass): a file's symbols, member facts,
    classes its functions define, and import bindings."""

    def __init__(self, project: ProjectView, resolver: ImportTargets) -> None:
        self._project = project
        self._resolver = resolver
        # Per-file tables, each kept with the facts object it was read from: the resolver outlives
        # edits (reusable_resolver), and a file's new facts are a new object.
        self._bindings: dict[str, tuple[FileFacts | None, dict[str, tuple[str, str | None]]]] = {}
        self._symbols: dict[str, tuple[FileFacts | None, dict[str, str]]] = {}
        self._local_classes: dict[str, tuple[FileFacts | None, dict[str, list[str]]]] = {}
        # Facts read during one `resolve` call: the view does not change within it, and a file's
        # tables are asked for thousands of times per pass (each asking the view again).
        self._read: dict[str, FileFacts | None] | None = None

    def keep_reads(self) -> None:
        """From now until `drop_reads`, each file's facts are read from the view once."""
        self._read = {}

    def drop_reads(self) -> None:
        """Facts are read from the view again each time (the view may change between passes)."""
        self._read = None

    def facts(self, path: str) -> FileFacts | None:
        """`path`'s facts as the view holds them (within a pass, as first read)."""
        read = self._read
        if read is None:
            return self._project.facts_of(path)
        if path in read:
            return read[path]
        found = read[path] = self._project.facts_of(path)
        return found

    def symbols(self, path: str) -> dict[str, str]:
        facts = self.facts(path)
        cached = self._symbols.get(path)
        if cached is not None and cached[0] is facts:
            return cached[1]
        found = {s.name: s.kind for s in facts.symbols} if facts else {}
        self._symbols[path] = (facts, found)
        return found

    def stated(self, path: str) -> PythonMemberFacts:
        """What `path`'s member facts state."""
        return member_facts_of(self.facts(path))

    def local_classes(self, path: str) -> dict[str, list[str]]:
        """Classes a function of `path` defines (`def test(): class MySchema(Schema): ...`), by
        their own name: what a name used in that function and bound nowhere else is."""
        facts = self.facts(path)
        cached = self._local_classes.get(path)
        if cached is not None and cached[0] is facts:
            return cached[1]
        symbols = self.symbols(path)
        found: dict[str, list[str]] = defaultdict(list)
        for name, kind in symbols.items():
            owner, dot, short = name.rpartition(".")
            if dot and kind == "class" and symbols.get(owner) in ("function", "method"):
                found[short].append(name)
        self._local_classes[path] = (facts, found)
        return found

    def bindings(self, path: str) -> dict[str, tuple[str, str | None]]:
        """Local name -> (file, name in it or None for a module). External imports map to ("", None)."""
        facts = self.facts(path)
        cached = self._bindings.get(path)
        if cached is not None and cached[0] is facts:
            return cached[1]
        found: dict[str, tuple[str, str | None]] = {}
        for ref in facts.imports if facts else ():
            if ref.kind == "wildcard":
                continue
            targets = self._resolver.targets(ref, path)
            local = ref.alias or (ref.names[0] if ref.names else ref.target.split(".", 1)[0])
            if not targets:
                found.setdefault(local, ("", None))
                continue
            for _, _, binding in targets:
                if binding is not None:
                    found[binding.chain] = (binding.target, binding.symbol)
            if ref.kind == "import" and not ref.alias and "." in ref.target:
                # `import click.utils` binds `click` itself, the package: `click.prompt` then
                # reads the package's attribute (its `__init__.py`), as Python does.
                top = ref.target.split(".", 1)[0]
                package = self._resolver.table.lookup(top, path)
                if package is not None and top not in found:
                    found[top] = (package, None)
        self._bindings[path] = (facts, found)
        return found
