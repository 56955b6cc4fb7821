"""Java, the language plugin: `extract` (bytes -> facts, in worker processes; `signatures` and
`callsites` read the member facts, records of `member_facts`), `resolve` (imports and type names
to the files that declare them, over every source root of `type_world`; `calls` types call
chains)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...facts import BuildVariants, FileFacts, MemberFactsRecord, ProjectView
from . import protocol
from .extract import LANGUAGE, extract
from .member_facts import JavaMemberFacts
from .resolve import JavaResolver
from ...facts import RunsUnimported, WrittenSupertypes
from .supertypes import SUPERTYPES
from .unimported import UNIMPORTED


@dataclass(frozen=True)
class JavaSupport:
    name: str = LANGUAGE
    extensions: tuple[str, ...] = (".java",)
    defers_members: bool = False
    reusable_resolver: bool = False
    typed_members: bool = True
    declaration_edges: bool = False
    folder_packages: bool = False
    builds: BuildVariants | None = None
    member_facts: MemberFactsRecord | None = JavaMemberFacts
    config_files: tuple[str, ...] = ()
    version: str = "6"  # 6: member facts a typed record (call chains as heads and steps, signatures); 5: captures in document order (the same fact bytes in every process); 4: field reads, enum `case` labels, `var` initializers; 3: packed member rows; 2: member uses (calls typed to their declaring type, by-name names)

    # What the core asks beyond the file graph (each is described in `graph.facts.LanguageSupport`).
    grammars: tuple[tuple[str, str], ...] = (("java", "tree_sitter_java:language"),)
    override_families: bool = False
    self_package_imports: bool = False
    imports_pass_on: bool = False
    supertypes: WrittenSupertypes | None = SUPERTYPES
    unimported: RunsUnimported = UNIMPORTED

    def extract(self, path: str, source: bytes, members: bool = True) -> FileFacts:  # members: never deferred
        return extract(path, source)

    def runtime_caller(self, method: str, head: Callable[[], str]) -> str:
        return protocol.runtime_caller(method, head)

    def resolver(self, project: ProjectView) -> JavaResolver:
        return JavaResolver(project)


SUPPORT = JavaSupport()

__all__ = ["SUPPORT", "JavaSupport"]
