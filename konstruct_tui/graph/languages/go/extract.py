"""Go extraction: pure, bytes in, `FileFacts` out (runs in worker processes). Package-level
definitions, imports (with `.`/`_`/named aliases), and the identifiers a file uses, bare (same
package or dot import) and qualified (`pkg.Name`); member facts from `members`."""

from __future__ import annotations

from importlib import resources

from ... import treesitter as ts
from ...facts import FileFacts, ImportRef, Symbol
from .members import member_facts, receiver_type

LANGUAGE = "go"
_QUERY = resources.files(__package__).joinpath("go.scm").read_text()
_BODIES = frozenset({"function_declaration", "method_declaration", "func_literal"})


def _query() -> ts.Query:
    return ts.compiled("go", _QUERY)


def extract(path: str, source: bytes) -> FileFacts:
    root = ts.parse("go", source).root_node
    found = ts.captures_in_order(_query(), root)
    package_nodes = ts.in_order(found.get("package", ()))
    package = ts.text(package_nodes[0]) if package_nodes else None

    imports: list[ImportRef] = []
    for spec in ts.in_order(found.get("import", ())):
        path_node, alias_node = spec.child_by_field_name("path"), spec.child_by_field_name("name")
        if path_node is None:
            continue
        alias = ts.text(alias_node) if alias_node is not None else None
        kind = "wildcard" if alias == "." else "import"
        target = ts.text(path_node)[1:-1]  # "quoted" or `raw`
        imports.append(ImportRef(target=target, line=path_node.start_point[0] + 1, kind=kind, alias=alias))

    return FileFacts(
        path=path,
        language=LANGUAGE,
        symbols=tuple(_symbols(found)),
        imports=tuple(imports),
        uses=_uses(found, source),
        package=package,
        extra=member_facts(found),
    )


def _symbols(found: dict[str, list[ts.Node]]) -> list[Symbol]:
    symbols: list[Symbol] = []
    for capture, nodes in found.items():
        if not capture.startswith("definition."):
            continue
        for node in nodes:
            if _inside_body(node):
                continue
            kind = capture.split(".", 1)[1]
            if kind == "type":
                kind = _type_kind(node)
            prefix = ""
            if node.type == "method_declaration":
                receiver = receiver_type(node)
                prefix = f"{receiver}." if receiver else ""
            for name in node.children_by_field_name("name"):  # `const a, b = 1, 2`
                symbols.append(Symbol(prefix + ts.text(name), kind, node.start_point[0] + 1, node.end_point[0] + 1))
    symbols.sort(key=lambda symbol: (symbol.start_line, symbol.end_line, symbol.name))
    return symbols


def _inside_body(node: ts.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in _BODIES:
            return True
        parent = parent.parent
    return False


def _type_kind(spec: ts.Node) -> str:
    body = spec.child_by_field_name("type")
    if body is not None and body.type == "struct_type":
        return "struct"
    if body is not None and body.type == "interface_type":
        return "interface"
    return "type"


_STRUCT_LITERAL_TYPES = frozenset({"type_identifier", "qualified_type", "generic_type"})


def _field_name(node: ts.Node) -> bool:
    """Whether an identifier names no package-level thing: the `Map` of `sync.Map`, or the key of
    a struct literal (`Command{ErrWriter: w}` sets a field, it does not read `var ErrWriter`)."""
    parent = node.parent
    if parent is None:
        return False
    if node.type == "type_identifier":
        return parent.type == "qualified_type"
    if parent.type != "literal_element" or parent.parent is None or parent.parent.type != "keyed_element":
        return False
    keyed = parent.parent
    if keyed.named_children[0].start_byte != parent.start_byte:
        return False  # the value, not the key
    literal = keyed.parent.parent if keyed.parent is not None else None
    kind = literal.child_by_field_name("type") if literal is not None and literal.type == "composite_literal" else None
    return kind is not None and kind.type in _STRUCT_LITERAL_TYPES


def _uses(found: dict[str, list[ts.Node]], source: bytes) -> tuple[str, ...]:
    # Slicing the source and decoding each distinct name once is much cheaper than `node.text`.
    # The `Map` of `sync.Map` is not the package's own `Map`: the pair below carries it.
    raw = {source[node.start_byte : node.end_byte] for node in found.get("use", ()) if not _field_name(node)}
    # A qualifier is always immediately followed by its member, so the capture lists, in document
    # order, pair up.
    qualifiers, members = ts.in_order(found.get("qualifier", ())), ts.in_order(found.get("member", ()))
    for qualifier, member in zip(qualifiers, members, strict=False):
        raw.add(source[qualifier.start_byte : qualifier.end_byte] + b"." + source[member.start_byte : member.end_byte])
    return tuple(sorted(name.decode("utf-8", "replace") for name in raw))
