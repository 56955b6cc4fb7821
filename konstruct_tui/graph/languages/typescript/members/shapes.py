"""TypeScript declarations read for their shape, for `members/types.py`: object patterns, `instanceof`
narrowing, the parts of an intersection, the type an object literal is written to have, class
field types. Facts only: what the source writes."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from .... import treesitter as ts
from ..facts import Chain, RecordPart
from .chains import cast
from .written import (
    SHAPE,
    TYPE_NAME,
    TYPEOF,
    Wrapped,
    bounded,
    constructed,
    property_key,
    written_or_array,
    written_type,
)

Lookup = Callable[[Any, str], "tuple[bool, Chain | None]"]


def pattern_keys(pattern: Any, outer: tuple[str, ...] = ()) -> list[tuple[str | None, tuple[str, ...]]]:
    """(bound name or None, property keys down to it) of an object pattern (`{a, b: c, d: {e}}`):
    each key is a use of that property; a name is bound to the last key's value."""
    found: list[tuple[str | None, tuple[str, ...]]] = []
    for part in pattern.named_children:
        if part.type == "shorthand_property_identifier_pattern":
            found.append((ts.text(part), (*outer, ts.text(part))))
        elif part.type == "pair_pattern":
            key, value = part.child_by_field_name("key"), part.child_by_field_name("value")
            if key is None or value is None or key.type != "property_identifier":
                continue
            keys = (*outer, ts.text(key))
            if value.type == "identifier":
                found.append((ts.text(value), keys))
            elif value.type == "object_pattern" and len(keys) < 3:
                found.append((None, keys))
                found += pattern_keys(value, keys)
    return found


def narrowings(nodes: Any) -> dict[str, list[tuple[int, int, str]]]:
    """name -> (start, end, type) of the code where `name instanceof T` holds: an `if`'s
    consequence, the right side of `&&`, a ternary's consequence."""
    found: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for node in nodes:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        text = ts.text(right) if right is not None else ""
        if left is None or not TYPE_NAME.fullmatch(text):
            continue
        inner, parent = node, node.parent
        while parent is not None and parent.type == "parenthesized_expression":
            inner, parent = parent, parent.parent
        if parent is None:
            continue
        if parent.type == "if_statement" and parent.child_by_field_name("condition") == inner or parent.type == "ternary_expression" and parent.child_by_field_name("condition") == inner:
            governed = parent.child_by_field_name("consequence")
        elif parent.type == "binary_expression" and parent.child_by_field_name("left") == inner \
                and ts.text(parent.child_by_field_name("operator")) == "&&":
            governed = parent.child_by_field_name("right")
        else:
            continue
        if governed is not None:
            found[ts.text(left)].append((governed.start_byte, governed.end_byte, text))
    return found


def narrowing(lookup: Lookup, narrowed: dict[str, list[tuple[int, int, str]]]) -> Lookup:
    """`lookup`, but a name inside the code an `instanceof` governs is that class (innermost test)."""
    def look(node: Any, name: str) -> tuple[bool, Chain | None]:
        spans = narrowed.get(name)
        if spans:
            inside = [s for s in spans if s[0] <= node.start_byte and node.end_byte <= s[1]]
            if inside:
                return True, cast(max(inside)[2])
        return lookup(node, name)
    setattr(look, "constant", getattr(lookup, "constant", None))  # noqa: B010 (`members/keyed.call_keys`)
    return look


def intersected(node: Any) -> list[Any]:
    """The parts of an intersection type (`A & (B & {...})`), or the type itself."""
    if node.type == "parenthesized_type" and node.named_child_count:
        return intersected(node.named_children[0])
    if node.type != "intersection_type":
        return [node]
    return [part for child in node.named_children for part in intersected(child)]


def literal_type(declarator: Any) -> str | None:
    """The type an object literal assigned to a module-level constant is written to have
    (`const a: T = {...}`, `const a = {...} satisfies T`): its properties are T's."""
    if declarator.type != "variable_declarator":
        return None
    value = declarator.child_by_field_name("value")
    annotation = declarator.child_by_field_name("type")
    if value is not None and value.type == "satisfies_expression" and value.named_child_count == 2 \
            and value.named_children[0].type == "object":
        written = written_type(Wrapped(value.named_children[1]))
    elif value is not None and value.type == "object" and annotation is not None:
        written = written_type(annotation)
    else:
        return None
    return None if written is None or written == "this" or written.startswith(TYPEOF) else written


def member_name(node: Any, qualifier: Callable[[Any], list[str] | None]) -> str | None:
    name = node.child_by_field_name("name")
    prefix = qualifier(node) if name is not None else None
    return ".".join([*prefix, property_key(name)]) if prefix else None


def field_type(node: Any) -> str | None:
    annotation = node.child_by_field_name("type")
    # `T`, `T[]`, `Map<K, T>`...; a class's type parameter by its bound (`backend: B` under
    # `class Queue<B extends Backend>`). An unbounded one stays as written: the field is declared
    # (a use of it is resolved), its type names nothing.
    written = written_or_array(annotation)
    written = (bounded(annotation, written) or written) if annotation is not None else written
    value = node.child_by_field_name("value")
    if written is None and value is not None and value.type == "new_expression":
        constructor = value.child_by_field_name("constructor")
        text = ts.text(constructor) if constructor is not None else ""
        # `new Map<string, Socket>()` holds Sockets; `new Client()` is a Client
        written = constructed(text, value.child_by_field_name("type_arguments")) \
            or (text if TYPE_NAME.fullmatch(text) else None)
    return None if written == "this" else written


def record_part(part: Any) -> RecordPart | None:
    """An intersection part `Record<'get' | 'post', V>` (keys a union of string literals, or an
    alias of one) with V one written type: `.get` of the whole is a V."""
    if part.type != "generic_type" or ts.text(part.child_by_field_name("name") or part) != "Record":
        return None
    arguments = part.child_by_field_name("type_arguments")
    found = arguments.named_children if arguments is not None else []
    if len(found) != 2:
        return None
    keys = literal_keys(found[0])
    alias = ts.text(found[0]) if keys is None and found[0].type == "type_identifier" else None
    value = written_type(Wrapped(found[1]))
    if (keys is None and alias is None) or value is None or value == "this" or value.startswith((TYPEOF, SHAPE)):
        return None
    return RecordPart(value, tuple(keys or ()), alias)


def literal_keys(node: Any) -> list[str] | None:
    """`'a' | 'b'` -> ["a", "b"]; None for anything else (`keyof T`, a type parameter)."""
    if node.type == "union_type":
        keys: list[str] = []
        for part in node.named_children:
            found = literal_keys(part)
            if found is None:
                return None
            keys += found
        return keys
    if node.type == "literal_type" and node.named_child_count and node.named_children[0].type == "string":
        return ["".join(ts.text(c) for c in node.named_children[0].named_children if c.type == "string_fragment")]
    return None


def local_members(declaration: Any) -> list[str]:
    """The names of the methods, accessors and fields a class declaration's body declares."""
    body = declaration.child_by_field_name("body")
    found: list[str] = []
    for member in body.named_children if body is not None else ():
        if member.type in ("method_definition", "public_field_definition", "method_signature",
                           "abstract_method_signature"):
            name = member.child_by_field_name("name")
            if name is not None and name.type == "property_identifier" and ts.text(name) not in found:
                found.append(ts.text(name))
    return found


def inline_shapes(shapes: Any, bases: dict[str, list[str]], returns: dict[str, str], callables: set[Any]) -> None:
    """The facts of inline object types (`opts: {ctx: Context}`): `@offset.key` -> its written type
    in `returns`, the named parts of an intersection in `bases`, method signatures in `callables`."""
    for shape in shapes:
        parts = intersected(shape)  # an intersection: the members of its object types, and its named parts
        for part in parts if shape.type == "intersection_type" else ():
            written = written_type(Wrapped(part)) if part.type != "object_type" else None
            if written and written != "this" and not written.startswith(TYPEOF):
                bases[f"{SHAPE}{shape.start_byte}"].append(written)
        members = [m for part in parts if part.type == "object_type" for m in part.named_children]
        for member in members:
            name = member.child_by_field_name("name")
            if name is None or name.type != "property_identifier" \
                    or member.type not in ("property_signature", "method_signature"):
                continue
            key = f"{SHAPE}{shape.start_byte}.{ts.text(name)}"
            annotation = member.child_by_field_name("type" if member.type == "property_signature" else "return_type")
            written = bounded(annotation, written_or_array(annotation)) if annotation is not None else None
            if written and written != "this":
                returns.setdefault(key, written)
            if member.type == "method_signature":
                callables.add(key)
