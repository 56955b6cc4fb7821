"""Rust, the language plugin: `extract` (bytes -> facts, in worker processes), `resolve` (the
project's facts -> edges), `crates` and `modules` (Cargo's layout). See docs/code-graph.md,
"Rust", for what it resolves and what it does not."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...facts import BuildVariants, FileFacts, MemberFactsRecord, ProjectView
from . import protocol
from .extract import LANGUAGE, extract
from .member_facts import RustMemberFacts
from .resolve import RustResolver
from ...facts import RunsUnimported, WrittenSupertypes
from ...unimported import OnlyImported


@dataclass(frozen=True)
class RustSupport:
    name: str = LANGUAGE
    extensions: tuple[str, ...] = (".rs",)
    version: str = "2"  # 2: member facts a typed record
    defers_members: bool = False
    reusable_resolver: bool = False
    # Method calls on values are names only (no type inference): they are caller candidates, and
    # a member's file edges are consulted like any symbol's.
    typed_members: bool = False
    declaration_edges: bool = False
    folder_packages: bool = False
    builds: BuildVariants | None = None
    member_facts: MemberFactsRecord | None = RustMemberFacts
    config_files: tuple[str, ...] = ("Cargo.toml",)

    # What the core asks beyond the file graph (each is described in `graph.facts.LanguageSupport`).
    grammars: tuple[tuple[str, str], ...] = (("rust", "tree_sitter_rust:language"),)
    override_families: bool = False
    self_package_imports: bool = False
    imports_pass_on: bool = False
    supertypes: WrittenSupertypes | None = None
    unimported: RunsUnimported = OnlyImported()

    def extract(self, path: str, source: bytes, members: bool = True) -> FileFacts:  # members: never deferred
        return extract(path, source)

    def runtime_caller(self, method: str, head: Callable[[], str]) -> str:
        return protocol.runtime_caller(method, head)

    def resolver(self, project: ProjectView) -> RustResolver:
        return RustResolver(project)


SUPPORT = RustSupport()

__all__ = ["SUPPORT", "RustSupport"]
