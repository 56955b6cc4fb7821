"""TypeScript receiver chains: what an expression a member is used on stands for, as the source
writes it (`this.x.m`, `f().m`, `new T().m`, `(x as T).m`, `a ?? b`, `{k: v}`), for `members/types.py`
and `members/receivers.py`. A chain is a list of segments: a head (a name, or a `facts.Head`: `this`
or `super` of a class, `new T`, a cast to `T`, a local function returning `T`, `either` side of
`a ?? b`, an `array` or `object` literal), then its `facts.Step`s: a member `.name`, a call (of its
arguments only the string keys they give are kept, `members/keyed.py`), an element, `new`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .... import treesitter as ts
from ..facts import CALL, ELEMENT, NEW, Chain, Head, Step, member_step
from .keyed import call_keys
from .written import TYPE_NAME, Wrapped, constructed, written_type

_CLASSES = frozenset({"class_declaration", "abstract_class_declaration", "class"})
MAX_SEGMENTS = 8
_MAX_KEYS = 16
_MAX_ELEMENTS = 8


def enclosing_class(node: Any) -> str | None:
    """The class whose `this` a node sees: the nearest class, unless a `function` rebinds `this` first."""
    parent = node.parent
    while parent is not None:
        if parent.type in ("function_expression", "function", "function_declaration", "generator_function",
                           "generator_function_declaration"):
            return None
        if parent.type in _CLASSES:
            name = parent.child_by_field_name("name")
            return ts.text(name) if name is not None else None
        parent = parent.parent
    return None


Lookup = Callable[[Any, str], "tuple[bool, Chain | None]"]


def _no_locals(node: Any, name: str) -> tuple[bool, Chain | None]:
    return False, None


def cast(written: str) -> Chain:
    """The chain of a value written to be a `written` (`x as T`, `x: T`)."""
    return [Head("cast", written)]


def chain(node: Any, lookup: Lookup = _no_locals, memo: dict[Any, Any] | None = None) -> Chain | None:
    """The receiver chain of an expression (see the module doc), or None when it cannot be followed.
    A name declared in a function or block (`lookup`) is replaced by what its declaration says.
    `memo` shares the chains of sub-expressions: `a.b().c().d()` is read once, not once a member."""
    if node is None:
        return None
    kind = node.type
    if memo is not None and kind != "identifier":  # a name is read in no time: not worth a key
        key = (node.start_byte, node.end_byte, kind)
        if key not in memo:
            memo[key] = _chain(node, lookup, memo)
        return memo[key]
    return _chain(node, lookup, memo)


def _chain(node: Any, lookup: Lookup, memo: dict[Any, Any] | None) -> Chain | None:
    kind = node.type
    if kind == "identifier":
        name = ts.text(node)
        local, declared = lookup(node, name)
        return [name] if not local else declared
    if kind in ("this", "super"):
        owner = enclosing_class(node)
        return None if owner is None else [Head(kind, owner)]
    if kind == "new_expression":
        constructor = node.child_by_field_name("constructor")
        text = ts.text(constructor) if constructor is not None else ""
        if constructor is not None and constructor.type == "this":  # `static create() { return new this() }`
            owner = enclosing_class(node)
            return None if owner is None else [Head("new", owner)]
        if not TYPE_NAME.fullmatch(text) or (constructor.type == "identifier" and lookup(constructor, text)[0]):
            return None
        collection = constructed(text, node.child_by_field_name("type_arguments"))
        if collection is not None:  # `new Map<string, Socket>()`: a map of Sockets
            return cast(collection)
        if constructor.type == "member_expression" and lookup(constructor, text.partition(".")[0])[0]:
            found = chain(constructor, lookup, memo)  # `new lib.App()`, `lib` a parameter: `lib.App`, then `new`
            return None if found is None else [*found, NEW]
        return [Head("new", text)]
    if kind == "object":  # `{app, client: new Client()}`: each key's chain (a literal's shape)
        return _shape(node, lookup, memo)
    if kind == "array":  # `[sio, nio]`: typed when every element is (a spread or a hole is not)
        items = [chain(item, lookup, memo) for item in node.named_children if item.type != "comment"]
        if not items or len(items) > _MAX_ELEMENTS or None in items:
            return None
        return _joined("array", items)
    operator = node.child_by_field_name("operator") if kind == "binary_expression" else None
    if operator is not None and ts.text(operator) in ("??", "||"):
        # `a ?? new T()`: typed when both sides are (and agree, which resolution checks)
        sides = [chain(node.child_by_field_name(f), lookup, memo) for f in ("left", "right")]
        return _joined("either", sides)
    if kind == "ternary_expression":  # `(c ? this.resolve(o) : this).clone()`: typed when both branches agree
        sides = [chain(node.child_by_field_name(f), lookup, memo) for f in ("consequence", "alternative")]
        return _joined("either", sides)
    if kind in ("as_expression", "satisfies_expression"):
        written = written_type(Wrapped(node.named_children[-1])) if node.named_child_count == 2 else None
        return None if written is None or written == "this" else cast(written)
    if kind == "member_expression":
        prop = node.child_by_field_name("property")
        if prop is None or prop.type not in ("property_identifier", "private_property_identifier"):
            return None
        inner, step = node.child_by_field_name("object"), member_step(ts.text(prop))
    elif kind == "call_expression":  # a call, with the keys its arguments give (`get('a')`)
        keys = call_keys(node.child_by_field_name("arguments"), lookup)
        inner, step = node.child_by_field_name("function"), Step("call", keys=tuple(keys)) if keys else CALL
    elif kind == "subscript_expression":  # `xs[0]`: an element
        index = node.child_by_field_name("index")
        if index is not None and index.type == "string" and index.named_child_count == 1:
            inner, step = node.child_by_field_name("object"), member_step(ts.text(index.named_children[0]))  # `x['key']`
        elif index is None or index.type != "number":
            return None
        else:
            inner, step = node.child_by_field_name("object"), ELEMENT
    elif kind in ("parenthesized_expression", "non_null_expression", "await_expression"):
        return chain(node.named_children[0], lookup, memo) if node.named_child_count else None
    else:
        return None
    found = chain(inner, lookup, memo)
    return None if found is None or len(found) > MAX_SEGMENTS else [*found, step]


def _joined(kind: str, parts: list[Chain | None]) -> Chain | None:
    """A head of several chains (`either` side, `array` elements): None unless each is followed."""
    found = tuple([tuple(part) for part in parts if part is not None])
    return [Head(kind, parts=found)] if len(found) == len(parts) else None


def _shape(node: Any, lookup: Lookup, memo: dict[Any, Any] | None) -> Chain | None:
    keys: dict[str, Chain] = {}
    found: Chain | None
    if node.named_child_count > _MAX_KEYS:
        return None
    for part in node.named_children:
        if part.type == "shorthand_property_identifier":
            name, value = ts.text(part), part
            local, declared = lookup(part, name)
            found = declared if local else [name]
        elif part.type == "pair":
            key, value = part.child_by_field_name("key"), part.child_by_field_name("value")
            if key is None or key.type != "property_identifier" or value is None:
                continue
            name, found = ts.text(key), chain(value, lookup, memo)
        else:
            continue
        if found is not None and len(found) <= MAX_SEGMENTS:
            keys[name] = found
    return [Head("object", keys=tuple([(key, tuple(keys[key])) for key in sorted(keys)]))]
