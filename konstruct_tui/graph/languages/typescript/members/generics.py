"""Generic type aliases, instantiated with the arguments a use writes (`Merge<StrictOptions,
{responseType?: 'text'}>`), for the declared-signature specs of `members/signatures.py`.

Extraction writes an unconstrained type parameter of a type alias as `["tparam", i]` (its
position), a use of a generic type as `["ref", name, [argument spec...]]`, and a key set written
as `keyof S` (or `Extract<keyof T, keyof S>` inside an `Omit<T, ...>`) as `{"keyof": spec}`.
Resolution (`members/contexts.py`) replaces each `["tparam", i]` of the alias's spec by `["at", path,
argument i]`: the argument is read in the file that wrote it. A parameter without an argument
stays unknown, never a guess (its default is not followed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .... import treesitter as ts
from .written import type_parameter, type_parameters

TPARAM = "tparam"
AT = "at"
ARRAY = "array"  # `["array", element spec]`: `T[]`, whose elements a literal's items are typed by
ELEMENT = "[]"  # a context key: an item of an array literal
RETURNED = "()"  # a context key: what a function typed by its context returns


def alias_parameter(param: Any) -> list[Any] | None:
    """`["tparam", i]` for type parameter `param` of a type alias (`type Merge<F, S> = ...`),
    None for one of a function, class or interface (those are not instantiated here)."""
    params = param.parent
    owner = params.parent if params is not None else None
    if owner is None or owner.type != "type_alias_declaration":
        return None
    index = next((i for i, (_, p) in enumerate(type_parameters(params)) if p == param), -1)
    return [TPARAM, index] if index >= 0 else None


def identity_mapped(node: Any) -> Any:
    """The type node T of an object type that maps every key of T to itself (`{[K in keyof T]:
    T[K]}`, with or without `readonly`/`?` modifiers): its properties are T's own declarations,
    as tsc links them (`type Prettify<T> = {[K in keyof T]: T[K]} & {}`). None for anything else."""
    if node.named_child_count != 1 or node.named_children[0].type != "index_signature":
        return None
    signature = node.named_children[0]
    clause = next((c for c in signature.named_children if c.type == "mapped_type_clause"), None)
    annotation = signature.named_children[-1] if signature.named_child_count else None
    if clause is None or clause.named_child_count != 2 or annotation is None or not annotation.named_child_count:
        return None
    key, keys = clause.named_children
    looked = annotation.named_children[0]
    if keys.type != "index_type_query" or keys.named_child_count != 1 or looked.type != "lookup_type" \
            or looked.named_child_count != 2:
        return None
    mapped = keys.named_children[0]
    source, index = looked.named_children
    if mapped.type != "type_identifier" or ts.text(source) != ts.text(mapped) or ts.text(index) != ts.text(key):
        return None
    return mapped


def arguments_of(arguments: Any, spec: Callable[[Any, int], Any], depth: int) -> list[Any] | None:
    """The specs of a generic use's type arguments, or None when none could say anything (the
    ref then stays `["ref", name]`, as compact as before)."""
    if arguments is None or not arguments.named_child_count:
        return None
    found = [_named(a) if a.type == "type_identifier" else spec(a, depth + 1) for a in arguments.named_children]
    return found if any(isinstance(f, list) for f in found) else None


def _named(node: Any) -> Any:
    """The spec of a type argument written as a name, its type parameter looked up once. One with
    a bound (`MiddlewareHandler<E, P>` under `<E extends Env>`) is inferred at each call: its bound
    proves nothing about a property, and reading it is what costs (hono's handler types)."""
    name = ts.text(node)
    param = type_parameter(node, name)
    if param is None:
        return ["ref", name]
    return None if param.child_by_field_name("constraint") is not None else alias_parameter(param)


def key_set(node: Any, first: Any, spec: Callable[[Any, int], Any], depth: int) -> dict[str, Any] | None:
    """`{"keyof": spec}` for the keys argument of an `Omit`/`Pick` written `keyof S`, or
    `Extract<keyof T, K>` where T is the utility's own first argument (the keys of T that are in
    K: the same keys as K for what `Omit<T, ...>`/`Pick<T, ...>` keep of T)."""
    if node.type == "index_type_query" and node.named_child_count == 1:
        return {"keyof": spec(node.named_children[0], depth + 1)}
    if node.type == "generic_type":
        name, arguments = node.child_by_field_name("name"), node.child_by_field_name("type_arguments")
        parts = arguments.named_children if arguments is not None else []
        if name is not None and ts.text(name) == "Extract" and len(parts) == 2 and first is not None \
                and parts[0].type == "index_type_query" and parts[0].named_child_count == 1 \
                and ts.text(parts[0].named_children[0]) == ts.text(first):
            return key_set(parts[1], None, spec, depth)
    return None


def instantiate(spec: Any, arguments: list[Any], path: str) -> Any:
    """`spec` (an alias's) with each `["tparam", i]` replaced by argument i, read in `path`."""
    if isinstance(spec, list):
        if len(spec) == 2 and spec[0] == TPARAM and isinstance(spec[1], int):  # not a key list
            i = spec[1]
            return [AT, path, arguments[i]] if i < len(arguments) and arguments[i] is not None else None
        return [instantiate(part, arguments, path) for part in spec]
    if isinstance(spec, dict):
        return {key: instantiate(value, arguments, path) for key, value in spec.items()}
    return spec


def keys_of(path: str, found: Any, depth: int = 0) -> tuple[str, ...] | None:
    """The keys `keyof found` names when they are written out (an inline object type), else None."""
    if not isinstance(found, list) or depth > 8:
        return None
    if found[0] == AT:
        return keys_of(found[1], found[2], depth + 1)
    if found[0] == "inline":
        return tuple(found[1])
    return None


def array_spec(node: Any, spec: Callable[[Any, int], Any], depth: int) -> Any:
    """`["array", element]` for `T[]` / `readonly T[]` whose element says something, else 0 (an
    array has no call signature and no property of the project)."""
    if node.type == "readonly_type":
        node = node.named_children[0] if node.named_child_count else None
    if node is None or node.type != "array_type" or not node.named_child_count:
        return 0
    element = spec(node.named_children[0], depth + 1)
    return [ARRAY, element] if isinstance(element, list) else 0


MISSING = object()  # no such parameter, property or key (as against None: cannot be told)


def argument_at(found: list[Any], i: int) -> Any:
    """The spec argument i meets in a signature `[specs, writtens, rest]`, or MISSING when the
    signature has no parameter i."""
    specs, rest = found[0], found[2]
    if rest < 0 or i < rest:
        return specs[i] if i < len(specs) else MISSING
    element = specs[rest]
    if isinstance(element, list) and element and element[0] == "tuple":
        if i - rest < len(element[1]):
            return element[1][i - rest]
        return element[2] if len(element) > 2 else MISSING  # `[A, ...B[]]`
    return element


class Inline(tuple):
    """The keys of an inline object type, and where it is written with its properties' specs."""

    path: str
    members: dict[str, Any]

    def __new__(cls, keys: Any, path: str, members: dict[str, Any]) -> Inline:
        found = super().__new__(cls, keys)
        found.path, found.members = path, members
        return found
