"""Declared signatures and contexts, for typing callback parameters as TypeScript does (facts only).

`app.get('/', (c) => c.json(1))`: `c` has no annotation, but the callee's declared parameter says
what it is (`handler: H`, `type H = Handler | MiddlewareHandler`, `type Handler = (c: Context,
next: Next) => R`), so `c` is a `Context`. Extraction (`signature_facts`) keeps, per file:

- `params`: callable (`f`, `Class.method`, `Class.constructor`) -> its signatures (overloads);
- `callsigs`: type alias or interface -> the spec of what it is when called (or used as an object);
- `props`: `Interface.key` / `Alias.key` / `Class.field` -> the spec of the property's written type.

A signature is `[specs, writtens, rest]`: a spec per parameter, the one class-like type name each
parameter's annotation writes (for a callback's own parameters), and the index of the `...rest`
parameter (-1). A spec is `0` (certainly not a function: `string`, an array), None (cannot tell),
`["sig", [signature...]]` (a function type, call signatures), `["ref", name]` (resolved in the
declaring file), `["or", [spec...]]` (a union or intersection), `["tuple", [spec...], rest?]` (a
rest parameter's tuple), `["inline", keys, {key: spec}?]` (an object type literal), `["Omit"|"Pick", spec, keys]`,
`["keyed", M, p]` (`M[K]`, K the type of parameter p: `members/keyed.py`).
A type parameter is replaced by its constraint (`H extends Handler`), or None without one; an
unconstrained one of a type alias is `["tparam", i]`, and a generic use `["ref", name, [spec...]]`
(`members/generics.py`: the alias is instantiated with those arguments where it is resolved).

The expression side records, as a `ctx` chain head (`facts.Context`), an unannotated parameter j of
a callback (`context_head`) and each key of an object literal (`key_uses`, j = -1): its source is
argument i of a call or `new` of a callee chain, or a written type's spec (a variable's annotation,
a written return type, `satisfies T`); keys lead through nested object literals.
`members/contexts.Contexts` resolves them.
"""

from __future__ import annotations

from typing import Any

from .... import treesitter as ts
from ..facts import member_step
from .generics import (
    TPARAM,
    alias_parameter,
    arguments_of,
    array_spec,
    identity_mapped,
    key_set,
)
from .keyed import KEYED, indexed
from .shapes import literal_keys
from .written import bounded, type_parameter, written_or_array

_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
_MAYBE_CALLABLE = frozenset({"function_type", "type_identifier", "generic_type", "union_type", "intersection_type",
                             "parenthesized_type", "object_type", "nested_type_identifier"})
_DEPTH = 6
# Utility types whose keys are (a subset of) their first argument's: an object literal of one of
# them names the first argument's properties (a key outside the subset would not type-check).
_SAME_KEYS = frozenset({"Partial", "Required", "Readonly", "Pick", "Omit", "Except", "NonNullable", "PartialDeep",
                        "ReadonlyDeep", "SetOptional", "SetRequired"})
ITERATING = frozenset(member_step(name) for name in ("forEach", "map", "filter", "find", "findLast", "some", "every",
                                                        "flatMap", "findIndex", "findLastIndex"))
_STANDARD = frozenset({"Partial", "Required", "Readonly", "Pick", "Omit", "NonNullable"})  # in TypeScript's lib
_KEYED = frozenset({"Pick", "Omit", "Except"})  # the second argument says which keys are (not) kept


def _written(annotation: Any) -> str | None:
    written = bounded(annotation, written_or_array(annotation))
    return None if written is None or written == "this" else written


def signature(parameters: Any, depth: int = 0) -> list[Any]:
    """`[specs, writtens, rest]` of a `formal_parameters` node, and the return type's spec when it
    says something."""
    specs: list[Any] = []
    writtens: list[str | None] = []
    rest = -1
    for param in parameters.named_children:
        if param.type not in ("required_parameter", "optional_parameter"):
            continue
        pattern = param.child_by_field_name("pattern")
        if pattern is not None and pattern.type == "this":
            continue  # `this: T` is not a position
        annotation = param.child_by_field_name("type")
        node = annotation.named_children[0] if annotation is not None and annotation.named_child_count else None
        if pattern is not None and pattern.type == "rest_pattern":
            rest = len(specs)
            specs.append(_rest(node, depth))
            writtens.append(None)
            continue
        specs.append(spec(node, depth) if node is not None else None)
        writtens.append(_written(annotation) if annotation is not None else None)
    # the return type, when it may be an object type: a literal a callback returns is typed by it
    annotation = parameters.parent.child_by_field_name("return_type") if parameters.parent is not None else None
    node = annotation  # a function type's return type is the type itself, a declaration's an annotation
    if annotation is not None and annotation.type == "type_annotation":
        node = annotation.named_children[0] if annotation.named_child_count else None
    returned = spec(node, depth) if node is not None and node.type != "type_predicate" else None
    return [specs, writtens, rest, returned] if isinstance(returned, list) else [specs, writtens, rest]


def _rest(node: Any, depth: int) -> Any:
    """The spec of each element of a `...rest: T[]` / `Array<T>` / `[A, B]` parameter."""
    if node is None:
        return None
    if node.type == "array_type" and node.named_child_count:
        return spec(node.named_children[0], depth)
    if node.type == "tuple_type":  # `[A, B]`, `[A, ...B[]]`, `[a: A, b?: B]`
        elements, tail = [], []
        for element in node.named_children:
            if element.type in ("required_parameter", "optional_parameter"):
                annotation = element.child_by_field_name("type")
                element = annotation.named_children[0] if annotation is not None and annotation.named_child_count else None
            if element is not None and element.type == "rest_type":
                tail = [_rest(element.named_children[0] if element.named_child_count else None, depth)]
                break
            elements.append(spec(element, depth))
        return ["tuple", elements, *tail]
    if node.type == "readonly_type" and node.named_child_count:
        return _rest(node.named_children[0], depth)
    if node.type == "generic_type":
        name, arguments = node.child_by_field_name("name"), node.child_by_field_name("type_arguments")
        if name is not None and ts.text(name) in ("Array", "ReadonlyArray") and arguments is not None \
                and arguments.named_child_count == 1:
            return spec(arguments.named_children[0], depth)
    return None


def spec(node: Any, depth: int = 0) -> Any:
    if node is None or depth > _DEPTH:
        return None
    kind = node.type
    if kind in ("array_type", "readonly_type"):  # `InitHook[]`: no call signature, but its elements'
        return array_spec(node, spec, depth)
    if kind == "lookup_type":  # `Plugins[K]`, K a parameter's type: typed by the key a call gives
        keyed = indexed(node)
        return [KEYED, *keyed] if keyed is not None else None
    if kind not in _MAYBE_CALLABLE:
        # literals, `string`, arrays, tuples, `keyof`, template literals: no call signature;
        # conditional, mapped, lookup and `typeof` types: cannot tell.
        return 0 if kind in ("predefined_type", "literal_type", "array_type", "tuple_type", "template_literal_type",
                             "index_type_query", "readonly_type", "string", "number") else None
    if kind == "parenthesized_type":
        return spec(node.named_children[0], depth) if node.named_child_count else None
    if kind == "function_type":
        parameters = node.child_by_field_name("parameters")
        return ["sig", [signature(parameters, depth + 1)]] if parameters is not None else None
    if kind in ("union_type", "intersection_type"):
        return ["or", [spec(c, depth + 1) for c in node.named_children]]
    if kind == "object_type":
        mapped = identity_mapped(node)  # `{[K in keyof T]: T[K]}`: T's own properties
        if mapped is not None:
            return spec(mapped, depth + 1)
        signatures = [signature(c.child_by_field_name("parameters"), depth + 1) for c in node.named_children
                      if c.type == "call_signature" and c.child_by_field_name("parameters") is not None]
        if signatures:
            return ["sig", signatures]
        # `A & {retry?: R}`: the keys an inline object type declares, and the types of its
        # properties (`{pagination?: PaginationOptions}`: a nested literal's keys are named there)
        keys, members = set(), {}
        for member in node.named_children:
            name = member.child_by_field_name("name") if member.type in ("property_signature", "method_signature") \
                else None
            if name is None:
                continue
            keys.add(ts.text(name))
            annotation = member.child_by_field_name("type") if member.type == "property_signature" else None
            found = spec(annotation.named_children[0], depth + 1) if annotation is not None \
                and annotation.named_child_count and depth < 3 else None
            if isinstance(found, list):
                members[ts.text(name)] = found
        return (["inline", sorted(keys), members] if members else ["inline", sorted(keys)]) if keys else 0
    if kind == "generic_type":
        arguments = node.child_by_field_name("type_arguments")
        node = node.child_by_field_name("name")
        if node is None:
            return None
        utility = ts.text(node)
        keyed = indexed(node.parent) if utility == "Exclude" else None  # `Exclude<Plugins[K], undefined>`
        if keyed is not None:
            return [KEYED, *keyed]
        if utility in _SAME_KEYS and arguments is not None and arguments.named_child_count:
            inner = spec(arguments.named_children[0], depth + 1)  # `Partial<Options>`: Options' keys
            if utility in _KEYED:
                kept: Any = literal_keys(arguments.named_children[1]) if arguments.named_child_count == 2 else None
                named = arguments.named_children[1] if arguments.named_child_count == 2 else None
                if kept is None and named is not None and named.type == "type_identifier" \
                        and type_parameter(named, ts.text(named)) is None:
                    kept = {"ref": ts.text(named)}  # `Except<Options, OptionsToSkip>`: a union alias's keys
                elif kept is None and named is not None:  # `Except<F, Extract<keyof F, keyof S>>`
                    kept = key_set(named, arguments.named_children[0], spec, depth)
                inner = None if kept is None else [utility if utility == "Pick" else "Omit", inner, kept]
            # `Except` (type-fest) is no standard type: it means that only if it resolves (`via`)
            return inner if utility in _STANDARD or inner is None else ["via", utility, inner]
    else:
        arguments = None
    name = ts.text(node)
    if node.type != "type_identifier":
        return None  # `ns.T`: not followed
    param = type_parameter(node, name)
    if param is not None:
        constraint = param.child_by_field_name("constraint")
        bound = constraint.named_children[0] if constraint is not None and constraint.named_child_count else None
        return spec(bound, depth + 1) if bound is not None else alias_parameter(param)
    # `Merge<A, {...}>`: instantiated where it is resolved (the outer levels of a type only: deep
    # inside hono's handler types, arguments cost more to read than they ever give)
    given = arguments_of(arguments, spec, depth) if depth < 3 else None
    return ["ref", name, given] if given else ["ref", name]


def signature_facts(found: dict[str, list[Any]], qualifier: Any
                    ) -> tuple[dict[str, list[Any]], dict[str, Any], dict[str, Any], dict[str, list[str]]]:
    """(`params`, `callsigs`, `props`, `literals`) of a file (see the module doc)."""
    params: dict[str, list[Any]] = {}
    candidates: dict[str, list[Any]] = {}
    for parameters in ts.in_order(found.get("signature", ())):
        owner = parameters.parent
        if owner.type == "arrow_function" or owner.type == "function_expression":
            owner = owner.parent  # `const f = (cb: H) => ...`, `handle = function (cb: H) {...}`
        name = owner.child_by_field_name("name") if owner is not None else None
        prefix = qualifier(owner) if name is not None else None
        if prefix is None or name is None or name.type not in ("identifier", "property_identifier"):
            continue
        if not any(p.child_by_field_name("type") is not None for p in parameters.named_children):
            candidates.setdefault(".".join([*prefix, ts.text(name)]), []).append(None)
            continue  # nothing written: nothing to type a callback with (JavaScript, mostly)
        candidates.setdefault(".".join([*prefix, ts.text(name)]), []).append(signature(parameters))
    for qualified, signatures in candidates.items():
        # a callable none of whose signatures has a function-like parameter types no callback
        if any(isinstance(spec_, list) and spec_[0] != TPARAM for found_ in signatures if found_ for spec_ in found_[0]):
            params[qualified] = [found_ if found_ else [[None], [None], 0] for found_ in signatures]  # untyped: unknown
    callsigs: dict[str, Any] = {}
    literals: dict[str, list[str]] = {}
    for node in found.get("callsig", ()):
        owner = node.parent
        name = owner.child_by_field_name("name") if owner is not None else None
        prefix = qualifier(owner) if name is not None else None
        if prefix is None or name is None:
            continue
        if owner.type == "type_alias_declaration":
            keys = literal_keys(node)
            if keys is not None:  # `type Skip = 'a' | 'b'`: keys an `Omit` may name
                literals[".".join([*prefix, ts.text(name)])] = keys
                continue
            found_spec = spec(node)
            if found_spec != 0:
                callsigs[".".join([*prefix, ts.text(name)])] = found_spec
            continue
        signatures = [signature(c.child_by_field_name("parameters")) for c in node.named_children
                      if c.type == "call_signature" and c.child_by_field_name("parameters") is not None]
        if signatures:
            callsigs[".".join([*prefix, ts.text(name)])] = ["sig", signatures]
    props: dict[str, Any] = {}
    # Document order, first one kept: of overloads (`header(): T; header(name: string): U`) the
    # first one says, as for `returns`; the query's capture order varies from one run to the next.
    for node in ts.in_order(found.get("prop", ())):
        # `interface I {...}`, `class C {...}`, `type A = {...} & B`; a member of an inline object
        # type (`{a: {deep: T}}`) has no qualifier: not followed
        parent = node.parent
        prefix = qualifier(node) if parent is not None and parent.type in ("interface_body", "class_body", "object_type") \
            else None
        key = node.child_by_field_name("name")
        if prefix is None or key is None or key.type != "property_identifier":
            continue
        if node.type == "method_signature":
            parameters = node.child_by_field_name("parameters")
            found_spec = ["sig", [signature(parameters)]] if parameters is not None else None
        else:
            annotation = node.child_by_field_name("type")
            found_spec = spec(annotation.named_children[0]) if annotation is not None and annotation.named_child_count else None
        props.setdefault(".".join([*prefix, ts.text(key)]), found_spec)
    return params, callsigs, props, literals
