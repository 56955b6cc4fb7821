"""Go member uses: the facts extraction keeps, and their resolution.

Extraction keeps the types the source writes for names (`var c T`, a parameter or method receiver
`c *T`, `c := T{}` / `&T{}` / `c := NewT()` / `pkg.NewT()`), each function's result type, and the
methods used on receivers no name can type (`NewT().M`, `xs[0].M`). Resolution types `x.M`: `x`'s
written type, in the file's own package or an imported one, names the method `T.M` wherever in
that package it is declared; an untyped `x` that is not an import leaves `M` as by-name evidence.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from .. import treesitter as ts

_TYPE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?")


def _written(node: Any) -> str | None:
    text = ts.text(node).lstrip("*&").split("[", 1)[0].strip()
    return text if _TYPE.fullmatch(text) else None


def _value_type(value: Any) -> str | None:
    """`T{}`, `&T{}` -> "T"; `NewT()`, `pkg.NewT()` -> "NewT()" (its result type, resolved later)."""
    if value.type == "unary_expression":
        value = value.child_by_field_name("operand") or value
    if value.type == "composite_literal":
        kind = value.child_by_field_name("type")
        return _written(kind) if kind is not None else None
    if value.type == "call_expression":
        function = value.child_by_field_name("function")
        written = _written(function) if function is not None else None
        return written + "()" if written else None
    return None


def member_facts(found: dict[str, list[Any]]) -> dict[str, Any]:
    types: dict[str, set[str]] = defaultdict(set)
    for node in found.get("typed", ()):
        kind = node.child_by_field_name("type")
        written = _written(kind) if kind is not None else None
        if written:
            for name in node.children_by_field_name("name"):
                types[ts.text(name)].add(written)
    for node in found.get("short", ()):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.named_child_count != right.named_child_count:
            continue
        for name, value in zip(left.named_children, right.named_children, strict=False):
            written = _value_type(value) if name.type == "identifier" else None
            if written:
                types[ts.text(name)].add(written)
    returns = {}
    for node in found.get("returns", ()):
        result = node.child_by_field_name("result")
        if result is not None and result.type == "parameter_list" and result.named_child_count:
            result = result.named_children[0].child_by_field_name("type") or result
        written = _written(result) if result is not None else None
        if written:
            returns[ts.text(node.child_by_field_name("name"))] = written
    extra: dict[str, Any] = {}
    if types:
        extra["types"] = {k: sorted(v) for k, v in sorted(types.items())}
    if returns:
        extra["returns"] = returns
    untyped = {ts.text(n) for n in found.get("untyped", ())}
    if untyped:
        extra["untyped"] = sorted(untyped)
    return extra
