"""Java extraction: pure, bytes in, `FileFacts` out (runs in worker processes). What a file
declares (package, types, members), imports and uses; the files those name are `resolve.py`'s.

Uses are every identifier and type name written in code (`Helper`, `@Audited`, `compute`), and
dotted paths (`java.util.List`, `Outer.Inner`). Resolution only looks up capitalised names as
types; the rest still matter to the index, which tells a method used in its own file from a dead
one by them.
"""

from __future__ import annotations

import re
from importlib import resources
from itertools import compress
from dataclasses import replace
from operator import attrgetter

from ... import treesitter as ts
from ...facts import FileFacts, ImportRef, Symbol
from ..fields import MissingField, name_of
from . import callsites
from . import signatures
from .member_facts import JavaMemberFacts
from .type_world import TYPE_KINDS

LANGUAGE = "java"

_DOTTED_PATH = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+")
_MEMBER_KINDS = ("method", "constructor", "constant")
_START = attrgetter("start_byte")
_TEXT = attrgetter("text")  # never None: trees are parsed from bytes


def _dotted(node: ts.Node) -> str:
    return "".join(ts.text(node).split())


def _imports(groups: dict[str, list[ts.Node]]) -> tuple[ImportRef, ...]:
    refs = []
    for node in groups.get("import", ()):
        path = next((c for c in node.named_children if c.type in ("scoped_identifier", "identifier")), None)
        if path is None:
            continue
        target = _dotted(path)
        line = node.start_point[0] + 1
        is_static = any(c.type == "static" for c in node.children)
        on_demand = any(c.type == "asterisk" for c in node.children)
        if is_static and on_demand:
            refs.append(ImportRef(target, ("*",), line, "static"))
        elif is_static:
            owner, _, member = target.rpartition(".")
            refs.append(ImportRef(owner, (member,), line, "static"))
        elif on_demand:
            refs.append(ImportRef(target, ("*",), line, "wildcard"))
        else:
            refs.append(ImportRef(target, (), line, "import"))
    refs.sort(key=lambda r: (r.line, r.target, r.names))
    return tuple(refs)


def _declaration(name: ts.Node) -> ts.Node:
    """The field or constant declaration of a declarator's `name` (the query captures it there)."""
    declarator = name.parent
    declaration = declarator.parent if declarator is not None else None
    if declaration is None:
        raise MissingField(f"a field name at byte {name.start_byte} outside any declaration")
    return declaration


def _definitions(groups: dict[str, list[ts.Node]]) -> list[tuple[int, int, str, str, ts.Node]]:
    """(start byte, -end byte, kind, name, node) for every definition, in document order."""
    found = []
    for kind in (*sorted(TYPE_KINDS), *_MEMBER_KINDS):
        for node in groups.get(f"definition.{kind}", ()):
            found.append((node.start_byte, -node.end_byte, kind, name_of(node), node))
    for name_node in groups.get("field", ()):
        declaration = _declaration(name_node)
        name = ts.text(name_node)
        constant = declaration.type == "constant_declaration" or (name.isupper() and len(name) > 1)
        # Sort key uses the declarator so `int a, b;` yields two fields at distinct positions.
        found.append(
            (name_node.start_byte, -declaration.end_byte, "constant" if constant else "field", name, declaration)
        )
    found.sort(key=lambda item: (item[0], item[1]))
    return found


def _symbols(groups: dict[str, list[ts.Node]]) -> tuple[tuple[Symbol, ...], JavaMemberFacts]:
    """Symbols with qualified names (one sweep in byte order with a stack of enclosing scopes),
    and the type information `signatures` derives from the same definitions."""
    symbols = []
    scopes: list[tuple[int, str, str]] = []  # (end byte, name, kind) of enclosing types and methods
    types: list[tuple[int, int, str, ts.Node]] = []
    members_of: list[tuple[str, ts.Node]] = []
    seen_declarations: set[int] = set()
    for start, negative_end, kind, name, node in _definitions(groups):
        while scopes and scopes[-1][0] <= start:
            scopes.pop()
        qualified = ".".join([*(s[1] for s in scopes), name])
        symbols.append(Symbol(qualified, kind, node.start_point[0] + 1, node.end_point[0] + 1))
        if kind in TYPE_KINDS:
            types.append((node.start_byte, node.end_byte, qualified, node))
        elif scopes and scopes[-1][2] in TYPE_KINDS and node.start_byte not in seen_declarations:
            seen_declarations.add(node.start_byte)  # `int a, b;` is one declaration node
            members_of.append((".".join(s[1] for s in scopes), node))
        if kind in TYPE_KINDS or kind in ("method", "constructor"):
            scopes.append((-negative_end, name, kind))
    scoped: callsites.Scoped = {}
    variables = signatures.variables(groups, scoped)
    untyped: set[str] = set()
    calls = callsites.calls(groups, types, variables, untyped, scoped)
    extra = replace(
        signatures.type_info(types, members_of),
        variables=variables,
        calls=calls,
        inferred=callsites.inferred(groups, variables, scoped),
        fields=callsites.field_uses(groups, types, variables, scoped),
        by_name=tuple(sorted(untyped)),
    )
    return tuple(symbols), extra


def _uses(groups: dict[str, list[ts.Node]]) -> tuple[str, ...]:
    # Package and import lines are not uses: the imports carry them.
    header_end = max((n.end_byte for key in ("package", "import") for n in groups.get(key, ())), default=0)
    in_code = header_end.__le__  # start byte -> after the header?

    def texts(key: str) -> set[bytes]:
        # C-level `map`s, and each distinct text decoded once: names repeat a lot in a file.
        nodes = groups.get(key, ())
        return set(map(_TEXT, compress(nodes, map(in_code, map(_START, nodes)))))

    used = {raw.decode("utf-8", "replace") for raw in texts("type") | texts("name")}
    for raw in texts("chain"):
        if _DOTTED_PATH.fullmatch(dotted := "".join(raw.decode("utf-8", "replace").split())):
            used.add(dotted)
    return tuple(sorted(used))


_QUERY = resources.files(__package__).joinpath("java.scm").read_text()


def extract(path: str, source: bytes) -> FileFacts:
    groups = ts.captures_in_order(ts.compiled("java", _QUERY), ts.parse("java", source).root_node)
    packages = groups.get("package", ())
    symbols, extra = _symbols(groups)
    return FileFacts(
        path=path,
        language=LANGUAGE,
        symbols=symbols,
        extra=extra,
        imports=_imports(groups),
        uses=_uses(groups),
        package=_dotted(packages[0]) if packages else None,
    )
