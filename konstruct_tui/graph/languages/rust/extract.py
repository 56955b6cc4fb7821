"""Rust extraction: pure, bytes in, `FileFacts` out (runs in worker processes).

Symbols: the items of a file (functions, structs, enums, unions, traits, type aliases, consts,
statics, `macro_rules!`, inline modules), and the functions of `impl` and `trait` blocks as
`Type.method`. Items inside an inline module or a function body are left out: they are not
reachable by the paths the resolver follows.

Imports, one `ImportRef` per leaf of a `use` tree (`use a::{b, c::D as E, *}` gives three):
`target` is the path up to the leaf (`crate::a`), `names` the leaf (`("D",)`, `()` for `self`,
`("*",)` for a glob), `alias` the `as` name; `kind` is `import`, `reexport` (a `pub use`) or `mod`
(a `mod name;` declaration, target the module name).

Uses: bare names and whole paths (`a::b::c`, `Type::new`) written outside `use` declarations;
member facts (`member_facts.RustMemberFacts`): the names of methods called on a receiver
(`x.go()`), which nothing here can type.
"""

from __future__ import annotations

from importlib import resources

from ... import treesitter as ts
from ...facts import FileFacts, ImportRef, Symbol
from .member_facts import RustMemberFacts

LANGUAGE = "rust"
_ITEM_KINDS = {
    "function_item": "function",
    "struct_item": "struct",
    "enum_item": "enum",
    "union_item": "struct",
    "trait_item": "trait",
    "type_item": "type",
    "const_item": "constant",
    "static_item": "variable",
    "macro_definition": "macro",
    "mod_item": "module",
}
_FUNCTIONS = frozenset({"function_item", "function_signature_item"})
_NOT_NAMES = frozenset({"self", "Self", "super", "crate"})


def _query() -> ts.Query:
    text = resources.files(__package__).joinpath("uses.scm").read_text()
    return ts.compiled(LANGUAGE, text)


def extract(path: str, source: bytes) -> FileFacts:
    root = ts.parse(LANGUAGE, source).root_node
    symbols: list[Symbol] = []
    imports: list[ImportRef] = []
    for item in root.named_children:
        _item(item, symbols, imports)
    symbols.sort(key=lambda s: (s.start_line, s.end_line, s.name))
    uses, methods = _uses(root, source)
    return FileFacts(path=path, language=LANGUAGE, symbols=tuple(symbols), imports=tuple(imports),
                     uses=uses, extra=RustMemberFacts(methods))


def _lines(node: ts.Node) -> tuple[int, int]:
    return node.start_point[0] + 1, node.end_point[0] + 1


def _item(item: ts.Node, symbols: list[Symbol], imports: list[ImportRef]) -> None:
    kind = item.type
    if kind == "use_declaration":
        public = any(c.type == "visibility_modifier" for c in item.children)
        argument = item.child_by_field_name("argument")
        if argument is not None:
            _use_tree(argument, [], "reexport" if public else "import", item.start_point[0] + 1, imports)
        return
    if kind == "extern_crate_declaration":
        name = item.child_by_field_name("name")
        alias = item.child_by_field_name("alias")
        if name is not None:
            imports.append(ImportRef(ts.text(name), (), item.start_point[0] + 1, "import", 0,
                                     ts.text(alias) if alias is not None else None))
        return
    if kind == "impl_item":
        owner = _type_name(item.child_by_field_name("type"))
        _functions_of(item, owner, symbols)
        return
    name = item.child_by_field_name("name")
    if kind not in _ITEM_KINDS or name is None:
        return
    if kind == "mod_item" and item.child_by_field_name("body") is None:
        imports.append(ImportRef(ts.text(name), (), item.start_point[0] + 1, "mod"))
        return
    symbols.append(Symbol(ts.text(name), _ITEM_KINDS[kind], *_lines(item)))
    if kind == "trait_item":
        _functions_of(item, ts.text(name), symbols)


def _functions_of(block: ts.Node, owner: str | None, symbols: list[Symbol]) -> None:
    body = block.child_by_field_name("body")
    if owner is None or body is None:
        return
    for child in body.named_children:
        name = child.child_by_field_name("name")
        if child.type in _FUNCTIONS and name is not None:
            symbols.append(Symbol(f"{owner}.{ts.text(name)}", "method", *_lines(child)))


def _type_name(node: ts.Node | None) -> str | None:
    """`Foo` of `Foo`, `Foo<T>`, `a::Foo`, `&mut Foo`; None for a tuple, slice or other shape."""
    while node is not None and node.type in ("generic_type", "reference_type", "scoped_type_identifier"):
        field = "name" if node.type == "scoped_type_identifier" else "type"
        node = node.child_by_field_name(field)
    return ts.text(node) if node is not None and node.type == "type_identifier" else None


def _use_tree(node: ts.Node, prefix: list[str], kind: str, line: int, out: list[ImportRef]) -> None:
    kind_of = node.type
    if kind_of == "use_as_clause":
        path, alias = node.child_by_field_name("path"), node.child_by_field_name("alias")
        segments = [*prefix, *_segments(path)]
        out.append(ImportRef("::".join(segments[:-1]), (segments[-1],), line, kind, 0,
                             ts.text(alias) if alias is not None else None))
    elif kind_of == "use_wildcard":
        inner = node.named_children[0] if node.named_children else None
        out.append(ImportRef("::".join([*prefix, *_segments(inner)]), ("*",), line, kind))
    elif kind_of == "scoped_use_list":
        path = node.child_by_field_name("path")
        deeper = [*prefix, *_segments(path)]
        listed = node.child_by_field_name("list")
        for child in listed.named_children if listed is not None else ():
            _use_tree(child, deeper, kind, line, out)
    elif kind_of == "use_list":
        for child in node.named_children:
            _use_tree(child, prefix, kind, line, out)
    elif kind_of == "self":
        out.append(ImportRef("::".join(prefix), (), line, kind))
    else:  # identifier, scoped_identifier, crate, super
        segments = [*prefix, *_segments(node)]
        out.append(ImportRef("::".join(segments[:-1]), (segments[-1],), line, kind))


def _segments(node: ts.Node | None) -> list[str]:
    if node is None:
        return []
    if node.type in ("scoped_identifier", "scoped_type_identifier"):
        return [*_segments(node.child_by_field_name("path")), *_segments(node.child_by_field_name("name"))]
    if node.type == "generic_type":
        return _segments(node.child_by_field_name("type"))
    return [ts.text(node)]


def _inside(node: ts.Node, types: frozenset[str]) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in types:
            return True
        parent = parent.parent
    return False


_PATHS = frozenset({"scoped_identifier", "scoped_type_identifier"})
_SKIPPED = frozenset({"use_declaration", "extern_crate_declaration"})


def _uses(root: ts.Node, source: bytes) -> tuple[tuple[str, ...], tuple[str, ...]]:
    found = ts.captures(_query(), root)
    used: set[str] = set()
    for node in found.get("name", ()):
        name = source[node.start_byte:node.end_byte].decode("utf-8", "replace")
        if name not in _NOT_NAMES and not _inside(node, _SKIPPED):
            used.add(name)
    for node in found.get("path", ()):
        if node.parent is not None and node.parent.type in _PATHS and node.parent.child_by_field_name("path") == node:
            continue  # the `a::b` of `a::b::c`: the outer path says it all
        if not _inside(node, _SKIPPED):
            used.add("::".join(_segments(node)))
    methods = tuple(sorted({ts.text(node) for node in found.get("method", ())}))
    return tuple(sorted(used)), methods
