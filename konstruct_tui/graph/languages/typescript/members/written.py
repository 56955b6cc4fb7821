"""TypeScript types as the source writes them: the one class-like name an annotation names.

Shared by the receiver facts (`members/types.py`) and the signature facts (`members/signatures.py`).
"""

from __future__ import annotations

import re
from typing import Any

from .... import treesitter as ts

# Types of TypeScript's standard library (lib.es*.d.ts): a global name an intersection may use
# that tsc resolves without any package installed.
LIB_TYPES = frozenset({
    "Record", "Partial", "Required", "Readonly", "Pick", "Omit", "Exclude", "Extract", "NonNullable", "ReturnType",
    "Parameters", "InstanceType", "ConstructorParameters", "Awaited", "Promise", "PromiseLike", "Array",
    "ReadonlyArray", "Map", "Set", "WeakMap", "WeakSet", "ReadonlyMap", "ReadonlySet", "Function", "Object", "Error",
    "Iterable", "AsyncIterable", "Iterator", "AsyncIterator", "ThisType", "Date", "RegExp", "ArrayLike", "PropertyKey",
    "Uppercase", "Lowercase", "Capitalize", "Uncapitalize", "NoInfer", "ThisParameterType", "OmitThisParameter",
})
SHAPE = "@"  # a written inline object type, `@` and its byte offset: its members are `@offset.key`
TYPEOF = "typeof "  # a written type `typeof x` (the type of a value) is kept as "typeof x"
TYPE_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
_NOTHING = frozenset({"undefined", "null", "void", "never"})
_ARRAYS = frozenset({"Array", "ReadonlyArray"})
_MAPS = frozenset({"Map", "ReadonlyMap", "WeakMap"})
_SETS = frozenset({"Set", "ReadonlySet"})
MAP = "<>"  # a written `Map<K, V>` is kept as `V<>`
_GENERIC_OWNERS = frozenset({"call_signature", "method_definition", "method_signature", "abstract_method_signature",
                             "function_declaration", "function_signature", "interface_declaration",
                             "class_declaration", "abstract_class_declaration", "type_alias_declaration",
                             "function_type", "arrow_function", "construct_signature"})


def written_type(annotation: Any) -> str | None:
    """The one class-like name a type annotation names (`T`, `ns.T`, `T<X>`, `T | undefined`,
    `Promise<T>` as `T`, `this`), or None (a union of several, an array, a function type...)."""
    node = annotation.named_children[0] if annotation is not None and annotation.named_child_count else None
    if node is not None and node.type in ("asserts", "type_predicate"):  # `x is T` returns a boolean
        return None
    for _ in range(4):
        if node is None:
            return None
        if node.type == "this_type":
            return "this"
        if node.type in ("object_type", "intersection_type"):  # `opts: {ctx: Context}`, `o: Base & {x: X}`:
            return SHAPE + str(node.start_byte)  # the object type at that offset of the file
        if node.type == "type_query":  # `lib: typeof ns`: whatever the value `ns` is
            inner = node.named_children[0] if node.named_child_count else None
            text = ts.text(inner) if inner is not None else ""
            return TYPEOF + text if inner is not None and inner.type in ("identifier", "member_expression") and TYPE_NAME.fullmatch(text) else None
        if node.type == "union_type":
            kept = [c for c in node.named_children
                    if not (c.type in ("literal_type", "predefined_type") and ts.text(c) in _NOTHING)]
            node = kept[0] if len(kept) == 1 else None
            continue
        if node.type == "parenthesized_type":
            node = node.named_children[0] if node.named_child_count else None
            continue
        if node.type == "generic_type":
            name = node.child_by_field_name("name")
            arguments = node.child_by_field_name("type_arguments")
            if name is not None and ts.text(name) == "Promise" and arguments is not None and arguments.named_child_count == 1:
                node = arguments.named_children[0]
                continue
            node = name
            continue
        text = ts.text(node)
        return text if node.type in ("type_identifier", "nested_type_identifier", "identifier") \
            and TYPE_NAME.fullmatch(text) else None
    return None


def written_or_array(annotation: Any) -> str | None:
    """`written_type`, or `T[]` for an array of one class-like type (`T[]`, `Array<T>`,
    `readonly T[]`, `ReadonlyArray<T>`): its elements are typed (`for of`, `xs[0]`, `xs.map(x => ...)`)."""
    if annotation is None or not annotation.named_child_count:
        return None
    node = annotation.named_children[0]
    generic = ts.text(node.child_by_field_name("name") or node) if node.type == "generic_type" else None
    is_generic_array = generic in _ARRAYS
    dictionary = _dictionary_value(node)
    if dictionary is not None:  # `Record<string, T>`, `{[key: string]: T}`: every key is a T
        inner = written_type(Wrapped(dictionary))
        return None if inner is None or inner == "this" or inner.startswith(TYPEOF) else inner + "{}"
    if generic in _MAPS or generic in _SETS:  # `Map<K, V>`: `.get(k)` is a V; `Set<T>`: its elements are T
        return constructed(generic, node.child_by_field_name("type_arguments"))
    written = None if is_generic_array else written_type(annotation)
    if written is not None:
        return written
    if node.type == "readonly_type" and node.named_child_count:
        node = node.named_children[0]
    if node.type == "array_type" and node.named_child_count:
        element = node.named_children[0]
    elif is_generic_array:
        arguments = node.child_by_field_name("type_arguments")
        element = arguments.named_children[0] if arguments is not None and arguments.named_child_count == 1 else None
    else:
        return None
    inner = written_type(Wrapped(element)) if element is not None else None
    return None if inner is None or inner == "this" else inner + "[]"


def constructed(name: str, arguments: Any) -> str | None:
    """The written type of `new Map<K, V>()` (`V<>`) or `new Set<T>()` (`T[]`), as `written_or_array`
    keeps the annotation `Map<K, V>`; None for any other constructor or without type arguments."""
    if arguments is None or (name not in _MAPS and name not in _SETS):
        return None
    found = arguments.named_children
    inner = written_type(Wrapped(found[-1])) if len(found) == (2 if name in _MAPS else 1) else None
    if inner is None or inner == "this" or inner.startswith((TYPEOF, SHAPE)):
        return None
    return inner + (MAP if name in _MAPS else "[]")


def _dictionary_value(node: Any) -> Any:
    """The value type of `Record<string, V>` or of an object type made of one string index
    signature, else None."""
    if node.type == "generic_type" and ts.text(node.child_by_field_name("name") or node) == "Record":
        arguments = node.child_by_field_name("type_arguments")
        found = arguments.named_children if arguments is not None else []
        return found[1] if len(found) == 2 and ts.text(found[0]) == "string" else None
    if node.type == "object_type" and node.named_child_count == 1 and node.named_children[0].type == "index_signature":
        signature = node.named_children[0]
        index, annotation = signature.child_by_field_name("index_type"), signature.child_by_field_name("type")
        if index is not None and ts.text(index) == "string" and annotation is not None and annotation.named_child_count:
            return annotation.named_children[0]
    return None


def bounded(annotation: Any, written: str | None) -> str | None:
    """A written type that names a type parameter in scope (`x: T` under `<T extends Schema>`) is
    its bound (`Schema`), or nothing without one: never a class that happens to be called `T`."""
    if written is None or written == "this":
        return written
    name = written.removesuffix("[]").removesuffix("{}").removesuffix(MAP)
    param = type_parameter(annotation, name.partition(".")[0])
    if param is None:
        return written
    constraint = param.child_by_field_name("constraint")
    bound = written_or_array(constraint) if constraint is not None else None
    if bound is None or bound == "this" or written.endswith(("{}", MAP)) or bound.endswith(("{}", MAP)) \
            or type_parameter(param, bound.removesuffix("[]")) is not None:
        return None
    if written.endswith("[]"):  # `T[]` under `<T extends Schema>`: an array of Schema
        return None if bound.endswith("[]") else bound + "[]"
    return bound


def type_parameter(node: Any, name: str) -> Any:
    """The `type_parameter` named `name` in scope at `node` (`<H extends Handler>`), or None."""
    parent = node.parent
    while parent is not None:
        if parent.type in _GENERIC_OWNERS:
            params = parent.child_by_field_name("type_parameters")
            found = _named_parameter(params, name) if params is not None else None
            if found is not None:
                return found
        parent = parent.parent
    return None


def _named_parameter(params: Any, name: str) -> Any:
    modified = False
    for child in params.named_children:
        if child.type == "type_parameter":
            declared = child.child_by_field_name("name")
            text = ts.text(declared) if declared is not None else ""
            if text == name and text not in _MODIFIERS:
                return child
            modified = modified or text in _MODIFIERS
    if not modified:  # the common case: no `<in out T>` to read again
        return None
    return next((param for declared, param in type_parameters(params) if declared == name), None)


_MODIFIERS = frozenset({"in", "out", "const"})


def type_parameters(params: Any) -> list[tuple[str, Any]]:
    """(name, `type_parameter` node) of a `type_parameters` list, in order. tree-sitter-typescript
    0.23 reads a variance or `const` modifier (`<in out T>`) as the parameter's name and the rest as
    an ERROR beside it or inside it: the real name is the ERROR's last identifier."""
    found: list[tuple[str, Any]] = []
    for child in params.named_children:
        if child.type == "type_parameter":
            name = child.child_by_field_name("name")
            text = ts.text(name) if name is not None else ""
            if text in _MODIFIERS:
                inner = next((c for c in child.named_children if c.type == "ERROR"), None)
                text = (_last_identifier(inner) if inner is not None else None) or text
            found.append((text, child))
        elif child.type == "ERROR" and found and found[-1][0] in _MODIFIERS:
            found[-1] = (_last_identifier(child) or found[-1][0], found[-1][1])
    return found


def _last_identifier(node: Any) -> str | None:
    names = [ts.text(c) for c in node.named_children if c.type == "identifier"]
    return names[-1] if names else None


def property_key(name: Any) -> str:
    """A member's name as a use spells it: `'~standard'() {}` and `get ['~standard']() {}` declare
    `~standard` (`schema['~standard']`); any other computed name stays as written."""
    literal = name.named_children[0] if name.type == "computed_property_name" and name.named_child_count == 1 \
        else name
    if literal.type == "string":
        fragments = [ts.text(child) for child in literal.named_children if child.type == "string_fragment"]
        if fragments:
            return "".join(fragments)
    return ts.text(name)


def alias_of(object_type: Any) -> Any:
    """The type alias an object type is the body of, or a part of the intersection that is
    (`type A = {...}`, `type A = B & {...}`), else None."""
    parent = object_type.parent
    while parent is not None and parent.type in ("intersection_type", "parenthesized_type"):
        parent = parent.parent
    return parent if parent is not None and parent.type == "type_alias_declaration" else None


class Wrapped:
    """A type node seen as an annotation (`written_type` reads an annotation's first child)."""

    def __init__(self, node: Any) -> None:
        self.named_children = [node]
        self.named_child_count = 1
