"""The fields of Java syntax nodes that the grammar always gives.

tree-sitter types every field lookup `Node | None`. A method's or a declarator's `name` is never
missing from a node the Java grammar built and the queries matched (source without one parses as
an ERROR node, which no query captures). `field` states that once and fails loudly if it ever is
not so: the extraction error marks the file as not parsed, as reading the missing field did."""

from __future__ import annotations

from ... import treesitter as ts


class MissingField(LookupError):
    """A node the grammar always gives a field came without it (a grammar change)."""


def field(node: ts.Node | None, name: str) -> ts.Node:
    child = node.child_by_field_name(name) if node is not None else None
    if child is None:
        raise MissingField(f"a {node.type if node is not None else 'missing'} node without its {name}")
    return child


def name_of(node: ts.Node | None) -> str:
    """The text of a declaration's or a call's `name` field."""
    return ts.text(field(node, "name"))
