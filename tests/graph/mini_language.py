"""A tiny language for testing the graph core without tree-sitter: one statement per line.

    def NAME          a symbol defined here
    import a/b        imports the file a/b.mini
    use NAME          refers to NAME, resolved to the file that defines it
"""

from __future__ import annotations

from dataclasses import dataclass

from konstruct_tui.graph.facts import (
    BuildVariants,
    Edge,
    FileFacts,
    ImportRef,
    MemberFactsRecord,
    ProjectView,
    RunsUnimported,
    Symbol,
    WrittenSupertypes,
)
from konstruct_tui.graph.unimported import OnlyImported


class MiniResolver:
    def __init__(self, project: ProjectView) -> None:
        self.project = project
        self.known = set(project.paths())
        self.defined: dict[str, str] = {}
        for path in sorted(self.known):
            facts = project.facts_of(path) if path.endswith(".mini") else None
            for symbol in facts.symbols if facts else ():
                self.defined.setdefault(symbol.name, path)

    def resolve(self, facts: FileFacts) -> list[Edge]:
        edges = []
        for ref in facts.imports:
            target = ref.target + ".mini"
            if target in self.known:
                edges.append(Edge(facts.path, target, "imports", ref.names))
        for use in facts.uses:
            if use in self.defined:
                edges.append(Edge(facts.path, self.defined[use], "references", (use,)))
        return edges


@dataclass(frozen=True)
class MiniSupport:
    name: str = "mini"
    extensions: tuple[str, ...] = (".mini",)
    version: str = "1"
    defers_members: bool = False
    reusable_resolver: bool = False
    typed_members: bool = False
    declaration_edges: bool = False
    folder_packages: bool = False
    builds: BuildVariants | None = None
    member_facts: MemberFactsRecord | None = None
    config_files: tuple[str, ...] = ()
    grammars: tuple[tuple[str, str], ...] = ()  # no tree-sitter
    override_families: bool = False
    self_package_imports: bool = False
    imports_pass_on: bool = False
    supertypes: WrittenSupertypes | None = None
    unimported: RunsUnimported = OnlyImported()

    def extract(self, path: str, source: bytes, members: bool = True) -> FileFacts:
        symbols, imports, uses = [], [], []
        for number, line in enumerate(source.decode("utf-8", "replace").splitlines(), 1):
            words = line.split()
            if len(words) == 2 and words[0] == "def":
                symbols.append(Symbol(words[1], "function", number, number))
            elif len(words) >= 2 and words[0] == "import":
                imports.append(ImportRef(words[1], tuple(words[2:]), number))
            elif len(words) == 2 and words[0] == "use":
                uses.append(words[1])
        return FileFacts(path, "mini", tuple(symbols), tuple(imports), tuple(uses))

    def runtime_caller(self, method: str, head: object) -> str:
        return ""

    def resolver(self, project: ProjectView) -> MiniResolver:
        return MiniResolver(project)


def mini_languages() -> dict[str, MiniSupport]:
    return {"mini": MiniSupport()}


@dataclass(frozen=True)
class SlowMiniSupport(MiniSupport):
    """Takes 50 ms per file: a build of several hundred files runs for many seconds, so a test can
    tell "stopped in the middle" from "finished" even on a loaded machine."""

    def extract(self, path: str, source: bytes, members: bool = True) -> FileFacts:
        import time

        time.sleep(0.05)
        return super().extract(path, source)


def slow_mini_languages() -> dict[str, MiniSupport]:
    return {"mini": SlowMiniSupport()}
