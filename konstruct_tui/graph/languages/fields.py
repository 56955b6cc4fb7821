"""The fields of syntax nodes that a grammar always gives, for every language plugin.

tree-sitter types every field lookup `Node | None`. A declaration's or a call's `name` is never
missing from a node the grammar built and a query matched (source without one parses as an ERROR
node, which no query captures). `field` states that once and fails loudly if it ever is not so:
extraction then marks the file as not parsed, as reading the missing field did before."""

from __future__ import annotations

from .. import treesitter as ts


class MissingField(LookupError):
    """A node the grammar always gives a field came without it (a grammar change)."""


def field(node: ts.Node | None, name: str) -> ts.Node:
    child = node.child_by_field_name(name) if node is not None else None
    if child is None:
        raise MissingField(f"a {node.type if node is not None else 'missing'} node without its {name}")
    return child


def parent(node: ts.Node) -> ts.Node:
    """The node a captured child sits in (a name in its declaration, a member in its attribute)."""
    above = node.parent
    if above is None:
        raise MissingField(f"a {node.type} node without the node it sits in")
    return above


def name_of(node: ts.Node) -> str:
    """The text of a node's `name` field (`field`'s check, inlined: it runs for every declaration)."""
    child = node.child_by_field_name("name")
    if child is None:
        raise MissingField(f"a {node.type} node without its name")
    return ts.text(child)
