"""Python, the language plugin: `extract` (bytes -> facts, in worker processes; `scopes` and
`stated` read what the source states), `resolve` (imports to files over the `modules` table, as
grimp counts them) and `members` (member facts and the member resolver)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...facts import BuildVariants, FileFacts, MemberFactsRecord, ProjectView
from . import protocol
from .extract import LANGUAGE, extract, query
from .records import PythonMemberFacts
from .resolve import PythonResolver
from ...facts import RunsUnimported, WrittenSupertypes
from .supertypes import SUPERTYPES
from .unimported import UNIMPORTED


@dataclass(frozen=True)
class PythonSupport:
    name: str = LANGUAGE
    extensions: tuple[str, ...] = (".py", ".pyi")
    # The resolver's module table comes from paths and packaging config alone, and it reads other
    # files' facts through the view on each call, so an edit to a file's imports or symbols does
    # not outdate it (the index rebuilds resolvers anyway when a path or config file changes).
    reusable_resolver: bool = True
    # 7: member facts a typed record (`records.PythonMemberFacts`); 6: no fixture parameters or yields; 5: except-as, dotted aliases, imports rebound per
    # function, inferred returns and yields, fixtures; 4: names per function, super(), with/await; 3: packed member rows; 2: member facts
    version: str = "7"
    # The member facts (`extra`) are the member tier: `konstruct index` builds the file graph
    # without them (a third of the extraction), the first question that needs member uses
    # extracts them (see `Indexer.complete_members`).
    defers_members: bool = True
    typed_members: bool = True
    declaration_edges: bool = False
    folder_packages: bool = False
    builds: BuildVariants | None = None
    member_facts: MemberFactsRecord | None = PythonMemberFacts
    config_files: tuple[str, ...] = ("pyproject.toml", "setup.cfg", "setup.py")

    # What the core asks beyond the file graph (each is described in `graph.facts.LanguageSupport`).
    grammars: tuple[tuple[str, str], ...] = (("python", "tree_sitter_python:language"),)
    override_families: bool = False
    self_package_imports: bool = False
    imports_pass_on: bool = True
    supertypes: WrittenSupertypes | None = SUPERTYPES
    unimported: RunsUnimported = UNIMPORTED

    def extract(self, path: str, source: bytes, members: bool = True) -> FileFacts:
        return extract(path, source, members)

    def runtime_caller(self, method: str, head: Callable[[], str]) -> str:
        return protocol.runtime_caller(method, head)

    def resolver(self, project: ProjectView) -> PythonResolver:
        return PythonResolver(project)


SUPPORT = PythonSupport()

__all__ = ["SUPPORT", "PythonMemberFacts", "PythonSupport", "query"]
