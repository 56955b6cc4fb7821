"""TypeScript, TSX and JavaScript, the language plugin (one language to the graph: they import each
other freely): `extract` (bytes -> facts, in worker processes; `members/` holds the member facts and
their resolution), `resolve` (the file edges, through `specifiers`, `config` and `packages`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...facts import BuildVariants, FileFacts, MemberFactsRecord, ProjectView
from . import protocol
from .extract import LANGUAGE, extract_file
from .facts import TypeScriptMemberFacts
from .resolve import TypeScriptResolver
from ...facts import RunsUnimported, WrittenSupertypes
from .unimported import UNIMPORTED


@dataclass(frozen=True)
class TypeScriptSupport:
    name: str = LANGUAGE
    version: str = "15"  # 15: a call's keys typed (`facts.CallKey`, no quoting); 14: receiver chain steps typed (`facts.Step`, a call's keys a JSON list); 13: receiver chain heads typed (`facts.Head`, `facts.Context`); 12: typed member facts (`facts.TypeScriptMemberFacts`), object literal keys a field of their use, `Record` parts' keys; 11: keys calls give (`()["'a'"]`, ctx call keys), `keyed` returns and `["keyed", M, p]` specs, module `strings`, `typeof` aliases; 10: captures in document order (the same fact bytes in every process), local classes' implemented members, local functions' written returns, bounded class type parameters; 9: generic type aliases instantiated (tparam, ref arguments, keyof key sets, identity mapped types), Map/Set value types, own override rows, return specs, inline member specs, JSDoc links; 8: interface families, object and intersection aliases, inline object types, records, typeof, narrowing, literal shapes; 7: callback parameters typed by context (params, callsigs), reparse of generic call signatures; 6: scoped receiver chains, returns, bases, fields, aliases, default export names (5), `export default f` records f (4); 3: packed member rows; 2: member facts, members/unresolved edges
    extensions: tuple[str, ...] = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
    defers_members: bool = False
    reusable_resolver: bool = False
    typed_members: bool = True
    declaration_edges: bool = True
    folder_packages: bool = False
    builds: BuildVariants | None = None
    member_facts: MemberFactsRecord | None = TypeScriptMemberFacts
    config_files: tuple[str, ...] = ("package.json", "tsconfig.json", "tsconfig.*.json", "jsconfig.json", "jsconfig.*.json")

    # What the core asks beyond the file graph (each is described in `graph.facts.LanguageSupport`).
    grammars: tuple[tuple[str, str], ...] = (("typescript", "tree_sitter_typescript:language_typescript"),
                                              # .js/.jsx too: TSX is a superset
                                              ("tsx", "tree_sitter_typescript:language_tsx"))
    override_families: bool = True
    self_package_imports: bool = True
    imports_pass_on: bool = False
    supertypes: WrittenSupertypes | None = None
    unimported: RunsUnimported = UNIMPORTED

    def extract(self, path: str, source: bytes, members: bool = True) -> FileFacts:  # members: never deferred
        return extract_file(path, source)

    def runtime_caller(self, method: str, head: Callable[[], str]) -> str:
        return protocol.runtime_caller(method, head)

    def resolver(
        self, project: ProjectView, follow_reexports: bool = False, workspace_packages: bool = False
    ) -> TypeScriptResolver:
        return TypeScriptResolver(project, follow_reexports, workspace_packages)


SUPPORT = TypeScriptSupport()

__all__ = ["SUPPORT", "TypeScriptSupport"]
