"""Every tree-sitter version shim lives here (py-tree-sitter 0.25/0.26 with the official grammar
wheels). Nothing else in Konstruct imports `tree_sitter` directly.

Why not `tree-sitter-languages`: it only works with py-tree-sitter 0.21, which conflicts with
`textual[syntax]`; the per-language wheels install together with it.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from operator import attrgetter
from typing import Any

import tree_sitter

from .languages import languages

Node = tree_sitter.Node
Tree = tree_sitter.Tree
Query = tree_sitter.Query


@cache
def language(grammar: str) -> tree_sitter.Language:
    """The grammar of that name, loaded the way the language plugin that parses with it declares
    (`SUPPORT.grammars`: the wheel's module and its function), so a new language needs no line here."""
    where = next((loader for support in languages().values() for name, loader in support.grammars if name == grammar), None)
    if where is None:
        raise LookupError(f"no language plugin declares the tree-sitter grammar {grammar!r}")
    module_name, _, function = where.partition(":")
    return tree_sitter.Language(getattr(import_module(module_name), function)())


@cache
def parser(grammar: str) -> tree_sitter.Parser:
    return tree_sitter.Parser(language(grammar))


def parse(grammar: str, source: bytes) -> tree_sitter.Tree:
    return parser(grammar).parse(source)


@cache
def compiled(grammar: str, text: str) -> tree_sitter.Query:
    """`text` compiled for `grammar`: for a language plugin that keeps its query beside its code."""
    return tree_sitter.Query(language(grammar), text)


def matches(compiled: tree_sitter.Query, node: tree_sitter.Node) -> list[tuple[int, dict[str, list[Any]]]]:
    """(pattern index, {capture name: [nodes]}) for every match under `node`."""
    return tree_sitter.QueryCursor(compiled).matches(node)


_START, _END = attrgetter("start_byte"), attrgetter("end_byte")


def captures(compiled: tree_sitter.Query, node: tree_sitter.Node) -> dict[str, list[Any]]:
    return tree_sitter.QueryCursor(compiled).captures(node)


def in_order(nodes: Any) -> list[Any]:
    """Captured nodes in document order (start, the outer of two nodes starting together first):
    `captures` does not promise that order per capture name. Two stable sorts keyed in C."""
    return sorted(sorted(nodes, key=_END, reverse=True), key=_START)


def captures_in_order(compiled: tree_sitter.Query, node: tree_sitter.Node,
                      unordered: frozenset[str] = frozenset()) -> dict[str, list[Any]]:
    """`captures` with every list in document order, so the facts read from them are the same bytes
    in every process: tree-sitter's order within a capture name follows memory layout (the same
    file gave Go and Java facts in different orders from one process to the next). `unordered`:
    names only ever read into a set, left as they come."""
    return {name: nodes if name in unordered else in_order(nodes) for name, nodes in captures(compiled, node).items()}


def text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")
