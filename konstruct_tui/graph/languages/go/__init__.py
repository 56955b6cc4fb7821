"""Go, the language plugin: `extract` (bytes -> facts, in worker processes), `members` (the member
facts, records of `member_facts`), `resolve` (an import path to a package folder through the
project's go.mod files, then each `pkg.Name` to the file of that package that defines `Name`) and
`build_constraints` (which build compiles a file: callers a build leaves out are only candidates)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ...facts import BuildVariants, FileFacts, MemberFactsRecord, ProjectView, Symbol
from . import build_constraints
from . import protocol
from .extract import LANGUAGE, extract
from .member_facts import GoMemberFacts
from .resolve import GoResolver
from ...facts import RunsUnimported, WrittenSupertypes
from .unimported import UNIMPORTED


class GoBuilds:
    """`LanguageSupport.builds` for Go: `//go:build` lines and `_windows.go` file names."""

    def other_build_callers(self, under: Callable[[str], Iterable[str]], found: Sequence[tuple[str, Symbol]],
                            callers: list[str], defines: Callable[[str, str], bool],
                            read: Callable[[str], str | None]) -> tuple[dict[str, tuple[str, str]], set[str]]:
        return build_constraints.other_build_callers(under, found, callers, defines, read)


@dataclass(frozen=True)
class GoSupport:
    name: str = LANGUAGE
    extensions: tuple[str, ...] = (".go",)
    defers_members: bool = False
    reusable_resolver: bool = False
    typed_members: bool = True
    declaration_edges: bool = False
    # every file of a folder is one package: a method may be declared in any of them
    folder_packages: bool = True
    builds: BuildVariants | None = GoBuilds()
    member_facts: MemberFactsRecord | None = GoMemberFacts
    config_files: tuple[str, ...] = ("go.mod", "go.work")
    version: str = "7"  # 7: selectors one per chain; 6: member facts a typed record (selector chains as fields); 5: captures in document order (the same fact bytes in every process); 4: member chains typed per function, method results, struct fields; 3: packed member rows; 2: member facts (written types, results, untyped members), members/unresolved edges

    # What the core asks beyond the file graph (each is described in `graph.facts.LanguageSupport`).
    grammars: tuple[tuple[str, str], ...] = (("go", "tree_sitter_go:language"),)
    override_families: bool = False
    self_package_imports: bool = False
    imports_pass_on: bool = False
    supertypes: WrittenSupertypes | None = None
    unimported: RunsUnimported = UNIMPORTED

    def extract(self, path: str, source: bytes, members: bool = True) -> FileFacts:  # members: never deferred
        return extract(path, source)

    def runtime_caller(self, method: str, head: Callable[[], str]) -> str:
        return protocol.runtime_caller(method, head)

    def resolver(self, project: ProjectView) -> GoResolver:
        return GoResolver(project)


SUPPORT = GoSupport()

__all__ = ["SUPPORT", "GoSupport"]
