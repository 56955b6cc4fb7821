"""Contexts of TypeScript expressions whose type only their position gives (facts only): an
unannotated callback parameter (`context_head`) and the keys of an object literal (`key_uses`),
as `ctx` chain heads (a `facts.Context`) that `members/contexts.Contexts` resolves against the callee's
declared signatures (`members/signatures.py`). `keys` lead through nested object literals (a key),
array literals (`[]`: an element) and returned literals (`()`: what a callback typed by its
context returns, `paginate({response}) { return {url} }`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .... import treesitter as ts
from ..facts import Chain, Context, Head, frozen_spec
from .generics import ELEMENT, RETURNED
from .keyed import call_keys
from .signatures import spec

_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})


def context_head(declaration: Any, follow: Any, lookup: Any = None) -> Chain | None:
    """A `ctx` head for an unannotated parameter of a callback whose type the context gives, else
    None. `follow` gives the receiver chain of an expression (the callee), `lookup` what a local
    name is (the keys a call's arguments give)."""
    if declaration.type == "identifier":  # `c => ...`
        function, j = declaration.parent, 0
    else:
        parameters = declaration.parent
        function = parameters.parent if parameters is not None else None
        positions = [p for p in parameters.named_children if p.type in ("required_parameter", "optional_parameter")
                     and (p.child_by_field_name("pattern") is None or p.child_by_field_name("pattern").type != "this")]
        j = next((k for k, p in enumerate(positions) if p == declaration), -1)
        if j < 0 or declaration.child_by_field_name("value") is not None:
            return None
    if function is None or function.parent is None:
        return None
    if function.type == "method_definition" and function.parent.type == "object":  # `{verify(u, c) {...}}`
        name = function.child_by_field_name("name")
        if name is None or name.type != "property_identifier":
            return None
        found = _context(function.parent, follow, lookup=lookup)
        keys = [ts.text(name)]
    elif function.type in _FUNCTIONS:
        found, keys = _context(function, follow, lookup=lookup), []
    else:
        return None
    if found is None:
        return None
    source, outer = found
    return [_head(source, j, outer + keys)]


def key_uses(objects: Any, follow: Any, lookup: Any = None) -> set[tuple[tuple[Head], str, tuple[str, ...]]]:
    """`f({prefixUrl: x})`, `const o: Options = {prefixUrl}`: each key is a use of the property the
    parameter's (or annotation's) type declares. One use per object literal: a `ctx` head of parameter
    -1, no member, and its keys: the context is resolved once for all of its keys."""
    found: set[tuple[tuple[Head], str, tuple[str, ...]]] = set()
    for node in objects:
        names = []
        for part in node.named_children:
            if part.type == "pair":
                key = part.child_by_field_name("key")
                name = ts.text(key) if key is not None and key.type == "property_identifier" else None
            elif part.type == "shorthand_property_identifier":
                name = ts.text(part)
            elif part.type == "method_definition":
                key = part.child_by_field_name("name")
                name = ts.text(key) if key is not None and key.type == "property_identifier" else None
            else:
                continue
            if name is not None:
                names.append(name)
        context = _context(node, follow, lookup=lookup) if names else None
        if context is not None:
            source, outer = context
            found.add(((_head(source, -1, outer),), "", tuple(sorted(set(names)))))
    return found


def _head(source: Context, j: int, keys: list[str]) -> Head:
    """The `ctx` head of parameter `j` (-1: the literal's keys) for a `_context` source and keys."""
    return Head("ctx", context=replace(source, parameter=j, keys=tuple(keys)))


def _context(node: Any, follow: Any, depth: int = 0, lookup: Any = None) -> tuple[Context, list[str]] | None:
    """(source, keys) of a function expression or object literal whose type the context gives:
    the source a `Context` (its parameter and keys not yet set) of argument i of a call of a callee
    chain (and the keys the call's arguments give, `members/keyed.py`) or of a written type's spec,
    and the keys of the object literals it is nested in (`f({a: {b: node}})` gives `["a", "b"]`)."""
    keys: list[str] = []
    while node.parent is not None:
        if node.parent.type == "array":  # `hooks: {init: [(options) => ...]}`: an element of the array type
            if len(keys) >= 3:
                return None
            keys.insert(0, ELEMENT)
            node = node.parent
            continue
        if node.parent.type != "pair" or node.parent.parent is None or node.parent.parent.type != "object" \
                or node.parent.child_by_field_name("value") != node:
            break
        key = node.parent.child_by_field_name("key")
        if key is None or key.type != "property_identifier" or len(keys) >= 3:
            return None
        keys.insert(0, ts.text(key))
        node = node.parent.parent
    parent = node.parent
    if parent is not None and parent.type == "parenthesized_expression" and parent.parent is not None \
            and parent.parent.type == "arrow_function":  # `(o) => ({url})`: the arrow's body
        node, parent = parent, parent.parent
    if parent is None:
        return None
    written = _written_context(node)
    if written is not None:  # `const h: Handler = (c) => ...`, `(): Handler => (c) => ...`
        return Context(0, (), typed=frozen_spec(written)), keys
    function = _returned_from(node)
    if function is not None and depth < 2:  # `paginate({response}) { return {url} }`: what its context returns
        outer = _function_context(function, follow, depth + 1, lookup)
        return None if outer is None or len(outer[1]) + len(keys) > 5 else (outer[0], [*outer[1], RETURNED, *keys])
    if parent.type != "arguments":
        return None
    call = parent.parent
    i, start = 0, node.start_byte
    for argument in parent.named_children:  # by position: cheaper than comparing nodes
        if argument.start_byte >= start:
            break
        if argument.type == "spread_element":
            return None
        if argument.type != "comment":
            i += 1
    if call.type == "call_expression":
        callee, new = call.child_by_field_name("function"), False
    elif call.type == "new_expression":
        callee, new = call.child_by_field_name("constructor"), True
    else:
        return None
    if callee is None or callee.type in ("super", "import"):
        return None
    segments = follow(callee)
    if segments is None:
        return None
    given = call_keys(parent, lookup) if lookup is not None else []
    return Context(0, (), tuple(segments), new, i, tuple(given)), keys


def _returned_from(node: Any) -> Any:
    """The function without a written return type that returns `node` (a `return` of it, or its
    arrow body), else None."""
    parent = node.parent
    if parent.type == "arrow_function" and parent.child_by_field_name("body") == node:
        owner = parent
    elif parent.type == "return_statement":
        owner = parent
        while owner is not None and owner.type not in _RETURNING:
            owner = owner.parent
    else:
        return None
    if owner is None or owner.child_by_field_name("return_type") is not None:
        return None
    return owner if owner.type in _FUNCTIONS or owner.type == "method_definition" else None


def _function_context(function: Any, follow: Any, depth: int, lookup: Any) -> tuple[Context, list[str]] | None:
    """The context of a function expression, or of a method of an object literal (its key)."""
    if function.type == "method_definition":
        name = function.child_by_field_name("name")
        if function.parent is None or function.parent.type != "object" or name is None \
                or name.type != "property_identifier":
            return None
        found = _context(function.parent, follow, depth, lookup)
        return None if found is None else (found[0], [*found[1], ts.text(name)])
    return _context(function, follow, depth, lookup)


def _written_context(function: Any) -> Any:
    """The spec of the type an expression is written to have: the annotation of the variable it
    initialises, or the declared return type of the function that returns it."""
    parent = function.parent
    if parent.type in ("variable_declarator", "public_field_definition") and parent.child_by_field_name("value") == function:
        annotation = parent.child_by_field_name("type")  # `const h: H = ...`, `handler: H = ...`
    elif parent.type == "satisfies_expression" and parent.named_child_count == 2 and parent.named_children[0] == function:
        found = spec(parent.named_children[1])  # `{fetch(req) {...}} satisfies ExportedHandler`
        return found if isinstance(found, list) else None
    elif parent.type == "return_statement" or (parent.type == "arrow_function"
                                                 and parent.child_by_field_name("body") == function):
        owner = parent
        while owner is not None and owner.type not in _RETURNING:
            owner = owner.parent
        annotation = owner.child_by_field_name("return_type") if owner is not None else None
        if annotation is not None and owner.children and owner.children[0].type == "async":
            return None  # `async (): Promise<H> => ...`: the returned function is awaited first
    else:
        return None
    node = annotation.named_children[0] if annotation is not None and annotation.named_child_count else None
    found = spec(node) if node is not None else None
    return found if isinstance(found, list) else None


_RETURNING = frozenset({*_FUNCTIONS, "function_declaration", "method_definition", "generator_function_declaration"})
