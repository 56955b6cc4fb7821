"""Facts of one TypeScript / TSX / JavaScript file: definitions, module dependencies, identifier uses.

Besides the generic `FileFacts`, resolution needs to know which local name each import binds and
what a module re-exports, so that a use can be followed through barrels (`index.ts` files that only
re-export) to the file that really defines it. That goes in `extra`, a `TypeScriptMemberFacts`
(`facts.py`), beside the member facts of `members/types.py`: its `bindings` (`Binding`), `exports`
(`Export`, `source` -1 for `export {local as name}`) and what the module exports as `default`.
"""

from __future__ import annotations

import posixpath
import re
from bisect import bisect_right
from dataclasses import replace
from importlib import resources
from typing import Any

from ... import treesitter as ts
from ...facts import FileFacts, ImportRef, Symbol
from .facts import Binding, DocLink, Export
from .members.chains import chain
from .members.types import type_facts
from .members.written import alias_of, property_key

LANGUAGE = "typescript"
_QUERY = resources.files(__package__).joinpath("typescript.scm").read_text()
_TYPESCRIPT_GRAMMAR = (".ts", ".mts", ".cts")


def extract_file(path: str, source: bytes) -> FileFacts:
    """`.ts/.mts/.cts` (and `.d.ts`) parse with the TypeScript grammar; `.tsx` and every JavaScript
    flavour with the TSX grammar, a superset of JavaScript with JSX."""
    extension = posixpath.splitext(path)[1].lower()
    grammar = "typescript" if extension in _TYPESCRIPT_GRAMMAR else "tsx"
    return extract(path, source, grammar, LANGUAGE)

# Nodes whose body makes everything inside it local (not a symbol of the file).
_FUNCTION_SCOPES = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "function",
        "generator_function",
        "arrow_function",
        "method_definition",
        "class_static_block",
    }
)
# Nodes that qualify the names defined inside them (`Class.method`, `Namespace.fn`, `obj.method`).
_CONTAINERS = frozenset(
    {
        "class_declaration",
        "abstract_class_declaration",
        "class",
        "interface_declaration",
        "internal_module",
        "module",
        "variable_declarator",
        "type_alias_declaration",  # `type Got = {extend(): Got} & ...`: `Got.extend`
    }
)
_REFERENCE_PATH = re.compile(r"""path\s*=\s*["']([^"']+)["']""")


def extract(path: str, source: bytes, grammar: str, language: str) -> FileFacts:
    root = ts.parse(grammar, source).root_node
    if root.has_error and grammar == "typescript":
        source, root = _repaired(source, root)
    # Every capture list in document order, once: tree-sitter's order within a capture name varies
    # from one process to the next (it was seen to reorder `callsigs` keys, and a first-one-wins
    # fact such as an overload's return type could change with it), and the facts must be the same
    # bytes for the same source. `_uses` and `type_facts` pair `qualifier` and `member` up by it.
    # `use` (half of all captures) is only ever read into a set: its order is never seen.
    found = ts.captures_in_order(ts.compiled(grammar, _QUERY), root, unordered=_READ_INTO_SETS)
    found.setdefault("qualifier", [])
    found.setdefault("member", [])
    qualifier = _qualifier_cache()
    imports: list[ImportRef] = []
    bindings: list[Binding] = []
    exports: list[Export] = []
    default_export = False
    default_name = None
    default_value = None
    skip_ranges: list[tuple[int, int]] = []

    # Document order, so import indexes (and lines) read top to bottom.
    ordered = sorted(
        (
            (node.start_byte, name, node)
            for name in ("import", "reexport", "export", "specifier", "reference")
            for node in found.get(name, ())
        ),
        key=lambda item: item[:2],
    )
    for _, capture, node in ordered:
        if capture == "import":
            skip_ranges.append((node.start_byte, node.end_byte))
            _static_import(node, imports, bindings)
        elif capture == "reexport":
            skip_ranges.append((node.start_byte, node.end_byte))
            _reexport(node, imports, exports)
        elif capture == "export":
            default_export |= _local_export(node, exports)
            value = node.child_by_field_name("value")
            if value is not None and value.type in ("new_expression", "call_expression") and _has_keyword(node, "default"):
                default_value = chain(value)  # `export default new Logger()`: what importers get
            declaration = node.child_by_field_name("declaration")
            name = declaration.child_by_field_name("name") if declaration is not None else None
            if name is not None and _has_keyword(node, "default"):
                default_name = ts.text(name)
        elif capture == "specifier":
            _call_import(node, imports, bindings, skip_ranges)
        elif capture == "reference":
            match = _REFERENCE_PATH.search(ts.text(node))
            if match:
                imports.append(ImportRef(target=match.group(1), line=node.start_point[0] + 1))

    links = _doc_links(source)
    return FileFacts(
        path=path,
        language=language,
        symbols=tuple(_symbols(found, qualifier)),
        imports=tuple(imports),
        uses=_uses(found, source, sorted(skip_ranges)),
        extra=replace(type_facts(found, qualifier), bindings=tuple(bindings), exports=tuple(exports),
                      default_export=default_export, default_name=default_name or None,
                      default_value=default_value or None, doclinks=links),
    )


_DOC_LINK = re.compile(rb"\{@link(?:code|plain)?\s+([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)")


def _doc_links(source: bytes) -> tuple[DocLink, ...]:
    """The members a JSDoc `{@link Server.fetchSockets()}` names: the language server's
    find-references lists them (and renames them)."""
    if b"@link" not in source:
        return ()
    found = {m.group(1).decode("utf-8", "replace") for m in _DOC_LINK.finditer(source)}
    return tuple(DocLink(head, tuple(members)) for head, *members in (name.split(".") for name in sorted(found)))


_GENERIC_SIGNATURE = re.compile(rb"(?m)([\w$>\])}])([ \t]*\n(?:[ \t]*(?://[^\n]*)?\n)*[ \t]*<\s*[A-Za-z_$])")


def _repaired(source: bytes, root: Any) -> tuple[bytes, Any]:
    """tree-sitter-typescript 0.23 cannot parse an interface member without `;` followed by a
    generic call signature (`(h: H): App` then `<P>(path: P): App`, hono's `HandlerInterface`): the
    whole file becomes one error. TypeScript reads the line break as the separator; so, for a file
    that fails, a `;` is put where the break is and the file parsed again, kept only when that parses
    cleanly (the `.ts` grammar has no JSX, so a line starting with `<T` is a type parameter list)."""
    fixed = _GENERIC_SIGNATURE.sub(rb"\1;\2", source)
    if fixed == source:
        return source, root
    again = ts.parse("typescript", fixed).root_node
    return (fixed, again) if not again.has_error else (source, root)


def _string_value(node: Any) -> str | None:
    if node is None or node.type != "string":
        return None
    fragments = [ts.text(child) for child in node.named_children if child.type == "string_fragment"]
    return "".join(fragments) or None


def _has_keyword(node: Any, keyword: str) -> bool:
    return any(not child.is_named and child.type == keyword for child in node.children)


def _static_import(node: Any, imports: list[ImportRef], bindings: list[Binding]) -> None:
    line = node.start_point[0] + 1
    require = next((c for c in node.named_children if c.type == "import_require_clause"), None)
    if require is not None:  # import x = require("./x")
        target = _string_value(require.child_by_field_name("source"))
        local = next((c for c in require.named_children if c.type == "identifier"), None)
        if target:
            if local is not None:
                bindings.append(Binding(ts.text(local), len(imports), "*"))
            imports.append(ImportRef(target=target, line=line))
        return
    target = _string_value(node.child_by_field_name("source"))
    if not target:
        return
    index = len(imports)
    names: list[str] = []
    alias = None
    type_only = _has_keyword(node, "type")
    all_specifiers_typed = True
    clause = next((c for c in node.named_children if c.type == "import_clause"), None)
    for part in clause.named_children if clause is not None else ():
        if part.type == "identifier":  # default import
            names.append("default")
            bindings.append(Binding(ts.text(part), index, "default"))
            all_specifiers_typed = False
        elif part.type == "namespace_import":
            local = next((c for c in part.named_children if c.type == "identifier"), None)
            names.append("*")
            all_specifiers_typed = False
            if local is not None:
                alias = ts.text(local)
                bindings.append(Binding(alias, index, "*"))
        elif part.type == "named_imports":
            for spec in part.named_children:
                if spec.type != "import_specifier":
                    continue
                imported = spec.child_by_field_name("name")
                local = spec.child_by_field_name("alias") or imported
                if imported is None or local is None:
                    continue
                name = _string_value(imported) or ts.text(imported)
                names.append(name)
                bindings.append(Binding(ts.text(local), index, name))
                all_specifiers_typed &= _has_keyword(spec, "type")
    if names and all_specifiers_typed:
        type_only = True
    kind = "type" if type_only else "import"
    imports.append(ImportRef(target=target, names=tuple(names), line=line, kind=kind, alias=alias))


def _reexport(node: Any, imports: list[ImportRef], exports: list[Export]) -> None:
    target = _string_value(node.child_by_field_name("source"))
    if not target:
        return
    index = len(imports)
    names: list[str] = ["*"]
    alias = None
    for part in node.named_children:
        if part.type == "namespace_export":  # export * as ns from "./x"
            local = next((c for c in part.named_children if c.type in ("identifier", "string")), None)
            if local is not None:
                alias = _string_value(local) or ts.text(local)
                exports.append(Export(alias, index, "*"))
        elif part.type == "export_clause":
            names = []
            for spec in part.named_children:
                name_node = spec.child_by_field_name("name")
                if spec.type != "export_specifier" or name_node is None:
                    continue
                name = _string_value(name_node) or ts.text(name_node)
                alias_node = spec.child_by_field_name("alias")
                exported = (_string_value(alias_node) or ts.text(alias_node)) if alias_node else name
                names.append(name)
                exports.append(Export(exported, index, name))
    imports.append(ImportRef(target=target, names=tuple(names), line=node.start_point[0] + 1, kind="reexport", alias=alias))


def _local_export(node: Any, exports: list[Export]) -> bool:
    """Record `export {a as b}` / `export default a` / `export = a`; True for a default export of a
    declaration or expression defined right here."""
    value = node.child_by_field_name("value")
    clause = next((c for c in node.named_children if c.type == "export_clause"), None)
    if clause is not None:
        for spec in clause.named_children:
            name_node = spec.child_by_field_name("name")
            if spec.type != "export_specifier" or name_node is None:
                continue
            alias_node = spec.child_by_field_name("alias")
            exports.append(Export(ts.text(alias_node or name_node), -1, ts.text(name_node)))
        return False
    is_default = _has_keyword(node, "default") or _has_keyword(node, "=")
    if not is_default:
        return False
    if value is None and _has_keyword(node, "="):
        value = next((c for c in node.named_children if c.type == "identifier"), None)
    if value is not None and value.type == "identifier":
        exports.append(Export("default", -1, ts.text(value)))
        return False
    declared = node.child_by_field_name("declaration")
    name = declared.child_by_field_name("name") if declared is not None else None
    if name is not None:  # `export default function f`: importers call it `default`, the file calls it `f`
        exports.append(Export("default", -1, ts.text(name)))
    return True


def _call_import(
    specifier: Any, imports: list[ImportRef], bindings: list[Binding], skip_ranges: list[tuple[int, int]]
) -> None:
    """`import("./x")` or `require("./x")`; `const x = require(...)` / `const {a} = require(...)`
    also bind names (and those names, being declarations, are not uses)."""
    call = specifier.parent.parent.parent  # string_fragment -> string (or template) -> arguments -> call
    index = len(imports)
    declarator = call.parent
    if declarator is not None and declarator.type == "variable_declarator":
        name = declarator.child_by_field_name("name")
        if name is not None:
            skip_ranges.append((name.start_byte, name.end_byte))
        if name is not None and name.type == "identifier":
            bindings.append(Binding(ts.text(name), index, "*"))
        elif name is not None and name.type == "object_pattern":
            for part in name.named_children:
                if part.type == "shorthand_property_identifier_pattern":
                    bindings.append(Binding(ts.text(part), index, ts.text(part)))
                elif part.type == "pair_pattern":
                    key, value = part.child_by_field_name("key"), part.child_by_field_name("value")
                    if key is not None and value is not None and value.type == "identifier":
                        bindings.append(Binding(ts.text(value), index, ts.text(key)))
    imports.append(ImportRef(target=ts.text(specifier), line=call.start_point[0] + 1))


def _symbols(found: dict[str, list[Any]], qualifier: Any) -> list[Symbol]:
    symbols: list[Symbol] = []
    for capture, nodes in found.items():
        if not capture.startswith("definition."):
            continue
        for node in nodes:
            prefix = qualifier(node)
            name_node = node.child_by_field_name("name")
            if prefix is None or name_node is None:
                continue
            if not prefix and node.type == "method_definition" and node.parent.type == "object":
                continue  # a method of an anonymous object (`export default { data() {} }`)
            kind = capture.split(".", 1)[1]
            if name_node.type in ("object_pattern", "array_pattern"):
                names = _pattern_names(name_node)
            else:
                names = [property_key(name_node)]
            value = node.child_by_field_name("value") if node.type == "variable_declarator" else None
            if value is not None and value.type in ("arrow_function", "function_expression", "function"):
                kind = "function"
            elif kind == "variable" and node.parent is not None and _has_keyword(node.parent, "const"):
                kind = "constant"
            for name in names:
                qualified = ".".join([*prefix, name])
                symbols.append(Symbol(qualified, kind, node.start_point[0] + 1, node.end_point[0] + 1))
    symbols.sort(key=lambda symbol: (symbol.start_line, symbol.end_line, symbol.name))
    return symbols


_READ_INTO_SETS = frozenset({"use"})


def _qualifier_cache() -> Any:
    """`_qualifier` remembered per parent within one file: the members of a class share it.
    Callers never change the list they get."""
    memo: dict[int, list[str] | None] = {}

    def qualifier(node: Any) -> list[str] | None:
        parent = node.parent
        if parent is None:
            return []
        if parent.id not in memo:
            memo[parent.id] = _qualifier(node)
        return memo[parent.id]

    return qualifier


def _qualifier(node: Any) -> list[str] | None:
    """Names of the enclosing containers, outermost first; None for a definition local to a
    function body (not a symbol anyone outside can name)."""
    parts: list[str] = []
    parent = node.parent
    while parent is not None:
        kind = parent.type
        if kind in _FUNCTION_SCOPES or (kind == "object_type" and alias_of(parent) is None):
            return None  # a member of an inline object type (`x: {deep(): T}`) is no member of `x`'s owner
        if kind in _CONTAINERS:
            name = parent.child_by_field_name("name")
            if name is None or name.type in ("object_pattern", "array_pattern"):
                return None
            parts.append(_string_value(name) or ts.text(name))
        parent = parent.parent
    parts.reverse()
    return parts


def _pattern_names(pattern: Any) -> list[str]:
    names: list[str] = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        if node.type in ("identifier", "shorthand_property_identifier_pattern"):
            names.append(ts.text(node))
            continue
        if node.type in ("assignment_pattern", "object_assignment_pattern"):
            left = node.child_by_field_name("left")
            stack.extend([left] if left is not None else [])
            continue
        if node.type == "pair_pattern":
            value = node.child_by_field_name("value")
            stack.extend([value] if value is not None else [])
            continue
        stack.extend(reversed(node.named_children))
    return names


def _uses(found: dict[str, list[Any]], source: bytes, skip_ranges: list[tuple[int, int]]) -> tuple[str, ...]:
    starts = [start for start, _ in skip_ranges]

    def kept(start: int) -> bool:
        at = bisect_right(starts, start) - 1
        return at < 0 or start >= skip_ranges[at][1]

    # Slicing the source and decoding each distinct name once is much cheaper than `node.text`.
    raw = {source[n.start_byte : n.end_byte] for n in found.get("use", ()) if kept(n.start_byte)}
    # Each qualifier is immediately followed by its member (the object is a bare identifier), so
    # the two capture lists, in document order, pair up.
    for qualifier, member in zip(found["qualifier"], found["member"], strict=False):
        if kept(qualifier.start_byte):
            raw.add(source[qualifier.start_byte : qualifier.end_byte] + b"." + source[member.start_byte : member.end_byte])
    return tuple(sorted(name.decode("utf-8", "replace") for name in raw))
