"""Names declared inside TypeScript functions and blocks, and what each declaration says of its
type (for `members/types.py`): a written type, the receiver chain it is assigned from, or the context
(a callback's parameter typed by its callee's signature).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from functools import partial
from typing import Any

from ..facts import ELEMENT, Chain, Head, member_step
from .chains import MAX_SEGMENTS, Lookup, cast, chain
from .heads import context_head
from .keyed import literal
from .written import TYPEOF, bounded, written_or_array

SCOPES = frozenset({"function_declaration", "generator_function_declaration", "function_expression", "function",
                     "generator_function", "arrow_function", "method_definition", "class_static_block"})


_BLOCKS = frozenset({*SCOPES, "statement_block", "program", "for_statement", "for_in_statement", "catch_clause"})


def scope_of(node: Any, memo: dict[int, Any]) -> Any:
    """The innermost block around a node, remembered per parent (a function's parameters share it)."""
    parent = node.parent
    if parent is None:
        return None
    if parent.id not in memo:
        block = parent
        while block is not None and block.type not in _BLOCKS:
            block = block.parent
        memo[parent.id] = block
    return memo[parent.id]


def _key(node: Any) -> tuple[int, int]:
    return node.start_byte, node.end_byte


class Scopes:
    """Names declared inside functions and blocks, and what each declaration says of its type:
    a cast to T for a written type, the chain it is assigned from, or None (nothing written)."""

    def __init__(self) -> None:
        self.table: dict[tuple[int, int], dict[str, Any]] = defaultdict(dict)
        self.names: set[str] = set()
        self.blocks: dict[str, list[tuple[int, int]]] = defaultdict(list)  # name -> spans declaring it
        self._said: dict[tuple[int, int], Chain | None] = {}
        self._sorted: dict[str, list[tuple[int, int]]] = {}  # name -> `blocks` in start order
        # `lookup` as passed around, answering `constant` too (the keys a call's arguments give,
        # `members/keyed.call_keys`), without reading what every other local is
        self.lookup: Lookup = partial(Scopes._lookup, self)
        setattr(self.lookup, "constant", self.constant)  # noqa: B010 (a partial's attribute)

    def declare(self, scope: Any, name: str, declaration: Any) -> None:
        key = _key(scope)
        if name not in self.table[key]:
            self.blocks[name].append(key)
            if self._sorted:  # (declarations come first: nothing is sorted yet, as a rule)
                self._sorted.pop(name, None)
        self.table[key][name] = declaration
        self.names.add(name)

    def _lookup(self, node: Any, name: str) -> tuple[bool, Chain | None]:
        if name not in self.names:  # most receivers are imports and module-level names
            return False, None
        start, end = node.start_byte, node.end_byte
        if start < end:  # (`_inner`, inline: this is called for every name of a chain)
            spans = self._sorted.get(name)
            if spans is None:
                spans = self._sorted[name] = sorted([(key[0], -key[1]) for key in self.blocks[name]])
            at = bisect_right(spans, (start, 0)) - 1
            while at >= 0:
                if end <= -spans[at][1]:
                    return True, self.said(self.table[spans[at][0], -spans[at][1]][name])
                at -= 1
            return False, None
        parent = node.parent
        while parent is not None:
            if parent.type in _BLOCKS:
                declaration = self.table.get(_key(parent), {}).get(name)
                if declaration is not None:
                    return True, self.said(declaration)
            parent = parent.parent
        return False, None

    def _inner(self, name: str, start: int, end: int) -> tuple[int, int] | None:
        """The innermost block declaring `name` around a leaf with text: it lies inside a block
        exactly when the block is one of its ancestors, so no parent is walked. Blocks nest or
        are apart, so of those starting before it, the last one (in start order, inner ones after
        outer ones of the same start) that ends after it is the innermost (a test file declares
        `c` in hundreds of callbacks: not all of them are looked at)."""
        spans = self._sorted.get(name)  # (start, -end): an inner block sorts after an outer one
        if spans is None:
            spans = self._sorted[name] = sorted([(key[0], -key[1]) for key in self.blocks[name]])
        at = bisect_right(spans, (start, 0)) - 1
        while at >= 0:
            if end <= -spans[at][1]:
                return spans[at][0], -spans[at][1]
            at -= 1
        return None

    def constant(self, node: Any, name: str) -> tuple[bool, str | None]:
        """(whether `name` at identifier `node` is a local, the string its declaration `const name
        = "..."` gives when it is one: unannotated, or `as const`)."""
        inner = self._inner(name, node.start_byte, node.end_byte) if name in self.names else None
        if inner is None:
            return False, None
        declaration = self.table[inner][name]
        if isinstance(declaration, tuple) or declaration.type != "variable_declarator" \
                or declaration.child_by_field_name("type") is not None:
            return True, None
        statement, value = declaration.parent, declaration.child_by_field_name("value")
        const = statement is not None and statement.type == "lexical_declaration" and statement.children[0].type == "const"
        return True, literal(value) if const and value is not None else None

    def said(self, declaration: Any) -> Chain | None:
        if isinstance(declaration, tuple):  # (object pattern declarator, property names down to the name)
            base = self.said(declaration[0])
            return None if base is None else [*base, *(member_step(key) for key in declaration[1:])]
        key = _key(declaration)
        if key in self._said:
            return self._said[key]
        self._said[key] = None  # `let x = x.next()` resolves to nothing, not to a loop
        self._said[key] = found = _declared(declaration, self.lookup)
        return found


def _declared(node: Any, lookup: Lookup) -> Chain | None:
    if node.type == "arrow_function":
        return None
    parent = node.parent
    if node.type == "identifier" and parent is not None and parent.type == "for_in_statement":
        # `for (const x of xs)`: an element of what `xs` is
        right = parent.child_by_field_name("right")
        of = any(not c.is_named and c.type == "of" for c in parent.children)
        found = chain(right, lookup) if of and right is not None and parent.child_by_field_name("left") == node else None
        return None if found is None or len(found) > MAX_SEGMENTS else [*found, ELEMENT]
    if node.type in ("required_parameter", "optional_parameter") and node.child_by_field_name("type") is None \
            and node.child_by_field_name("value") is not None:  # `(options = new Options())`: what the default is
        found = chain(node.child_by_field_name("value"), lookup)
        head = found[0] if found is not None else None
        return found if not isinstance(head, Head) or head.kind != "object" else None
    if node.type == "identifier" or (node.type in ("required_parameter", "optional_parameter")
                                     and node.child_by_field_name("type") is None):
        return context_head(node, lambda callee: chain(callee, lookup), lookup)  # `(c) => c.json()`: typed by the callee's signature
    annotation = node.child_by_field_name("type")
    written = bounded(annotation, written_or_array(annotation)) if annotation is not None else None
    if written is not None and written.startswith(TYPEOF):  # `b: typeof a`: what `a` is, in this scope
        head, *rest = written[len(TYPEOF):].split(".")
        local, declared = lookup(annotation, head)
        found = declared if local else [head]
        return None if found is None else [*found, *(member_step(r) for r in rest)]
    if written is not None:
        return None if written == "this" else cast(written)
    value = node.child_by_field_name("value")
    if value is not None and value.type in ("arrow_function", "function_expression") \
            and node.type == "variable_declarator":
        # `const make = (): Backend => create(...)` in a test: `make()` is a Backend
        returned = value.child_by_field_name("return_type")
        written = bounded(returned, written_or_array(returned)) if returned is not None else None
        return [Head("returns", written)] if written and written != "this" and not written.startswith(TYPEOF) else None
    return chain(value, lookup) if value is not None and node.type == "variable_declarator" else None
