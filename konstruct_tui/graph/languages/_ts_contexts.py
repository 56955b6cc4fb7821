"""Contextual typing of callback parameters, as TypeScript does it, from declared signatures only.

`app.get('/', (c) => c.json(1))`: `c` has no annotation, but the callee's declared parameter says
what it is (`handler: H`, `type H = Handler | MiddlewareHandler`, `type Handler = (c: Context,
next: Next) => R`), so `c` is a `Context`. Extraction (`signature_facts`) keeps, per file:

- `params`: callable (`f`, `Class.method`, `Class.constructor`) -> its signatures (overloads);
- `callsigs`: type alias or interface -> the spec of what it is when called or used as a callback.

A signature is `[specs, writtens, rest]`: a spec per parameter, the one class-like type name each
parameter's annotation writes (for a callback's own parameters), and the index of the `...rest`
parameter (-1). A spec is `0` (certainly not a function: `string`, an array, an object type), None
(cannot tell), `["sig", [signature...]]` (a function type, call signatures), `["ref", name]`
(resolved in the declaring file), `["or", [spec...]]` (a union or intersection) or `["tuple",
[spec...]]` (a rest parameter's tuple). A type parameter is replaced by its constraint (`H extends
Handler`), or None without one.

The callback side (`context_head`) records an unannotated parameter of an arrow or function
expression passed as argument i of a call (or `new`) as the chain head `ctx:[callee chain, new, i, j]`.
`Contexts.parameter` resolves it: every overload of the callee whose parameter i is a function type
must give parameter j the same type, else nothing is inferred (by-name evidence, never a guess).
"""

from __future__ import annotations

import json
from typing import Any

from .. import treesitter as ts

CONTEXT = "ctx:"
_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
_MAYBE_CALLABLE = frozenset({"function_type", "type_identifier", "generic_type", "union_type", "intersection_type",
                             "parenthesized_type", "object_type", "nested_type_identifier"})
_GENERIC_OWNERS = frozenset({"call_signature", "method_definition", "method_signature", "abstract_method_signature",
                             "function_declaration", "function_signature", "interface_declaration",
                             "class_declaration", "abstract_class_declaration", "type_alias_declaration",
                             "function_type", "arrow_function", "construct_signature"})
_DEPTH = 6


# --- extraction -------------------------------------------------------------------------------

def _type_parameter(node: Any, name: str) -> Any:
    """The `type_parameter` named `name` in scope at `node` (`<H extends Handler>`), or None."""
    parent = node.parent
    while parent is not None:
        if parent.type in _GENERIC_OWNERS:
            params = parent.child_by_field_name("type_parameters")
            for param in params.named_children if params is not None else ():
                declared = param.child_by_field_name("name")
                if declared is not None and ts.text(declared) == name:
                    return param
        parent = parent.parent
    return None


def _written(annotation: Any) -> str | None:
    from ._ts_types import written_type  # the one class-like name, as receivers read it
    written = written_type(annotation)
    if written is None or written == "this":
        return None
    return None if _type_parameter(annotation, written.partition(".")[0]) is not None else written


def signature(parameters: Any, depth: int = 0) -> list[Any] | None:
    """`[specs, writtens, rest]` of a `formal_parameters` node."""
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
    return [specs, writtens, rest]


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
        signatures = [signature(c.child_by_field_name("parameters"), depth + 1) for c in node.named_children
                      if c.type == "call_signature" and c.child_by_field_name("parameters") is not None]
        return ["sig", signatures] if signatures else 0
    if kind == "generic_type":
        node = node.child_by_field_name("name")
        if node is None:
            return None
    name = ts.text(node)
    if node.type != "type_identifier":
        return None  # `ns.T`: not followed
    param = _type_parameter(node, name)
    if param is not None:
        constraint = param.child_by_field_name("constraint")
        bound = constraint.named_children[0] if constraint is not None and constraint.named_child_count else None
        return spec(bound, depth + 1) if bound is not None else None
    return ["ref", name]


def signature_facts(found: dict[str, list[Any]], qualifier: Any) -> dict[str, Any]:
    params: dict[str, list[Any]] = {}
    for parameters in found.get("signature", ()):
        owner = parameters.parent
        if owner.type == "arrow_function" or owner.type == "function_expression":
            owner = owner.parent  # `const f = (cb: H) => ...`, `handle = function (cb: H) {...}`
        name = owner.child_by_field_name("name") if owner is not None else None
        prefix = qualifier(owner) if name is not None else None
        if prefix is None or name.type not in ("identifier", "property_identifier"):
            continue
        found_signature = signature(parameters)
        if any(s != 0 for s in found_signature[0]):  # a signature without callbacks types nothing
            params.setdefault(".".join([*prefix, ts.text(name)]), []).append(found_signature)
    callsigs: dict[str, Any] = {}
    for node in found.get("callsig", ()):
        owner = node.parent
        name = owner.child_by_field_name("name") if owner is not None else None
        prefix = qualifier(owner) if name is not None else None
        if prefix is None:
            continue
        if owner.type == "type_alias_declaration":
            found_spec = spec(node)
            if found_spec != 0:
                callsigs[".".join([*prefix, ts.text(name)])] = found_spec
            continue
        signatures = [signature(c.child_by_field_name("parameters")) for c in node.named_children
                      if c.type == "call_signature" and c.child_by_field_name("parameters") is not None]
        if signatures:
            callsigs[".".join([*prefix, ts.text(name)])] = ["sig", signatures]
    return {**({"params": params} if params else {}), **({"callsigs": callsigs} if callsigs else {})}


def context_head(declaration: Any, chain: Any, lookup: Any) -> list[str] | None:
    """`[ctx:...]` for an unannotated parameter of a callback passed to a call, else None."""
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
    if function is None or function.type not in _FUNCTIONS or function.parent is None:
        return None
    written = _written_context(function)
    if written is not None:  # `const h: Handler = (c) => ...`, `(): Handler => (c) => ...`
        return [CONTEXT + json.dumps([written, j])]
    if function.parent.type != "arguments":
        return None
    call = function.parent.parent
    arguments = [a for a in function.parent.named_children if a.type != "comment"]
    i = next((k for k, a in enumerate(arguments) if a == function), -1)
    if i < 0 or any(a.type == "spread_element" for a in arguments[:i]):
        return None
    if call.type == "call_expression":
        callee, new = call.child_by_field_name("function"), False
    elif call.type == "new_expression":
        callee, new = call.child_by_field_name("constructor"), True
    else:
        return None
    if callee is None or callee.type in ("super", "import"):
        return None
    segments = chain(callee, lookup)
    return None if segments is None else [CONTEXT + json.dumps([segments, new, i, j])]


def _written_context(function: Any) -> Any:
    """The spec of the type a function expression is written to have: the annotation of the
    variable it initialises, or the declared return type of the function that returns it."""
    parent = function.parent
    if parent.type == "variable_declarator" and parent.child_by_field_name("value") == function:
        annotation = parent.child_by_field_name("type")
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


# --- resolution -------------------------------------------------------------------------------

class Contexts:
    """Resolves `ctx:` heads with a `Receivers` (its names, definers and type views)."""

    def __init__(self, receivers: Any) -> None:
        self._r = receivers

    def parameter(self, path: str, head: str, depth: int) -> Any:
        said = json.loads(head[len(CONTEXT):])
        if len(said) == 2:  # the function's own written type
            arguments, j = [(path, said[0])], said[1]
        else:
            segments, new, i, j = said
            callee = self._r.evaluate(path, segments, depth + 1)
            overloads = self._callee_signatures(callee, new) if callee is not None else None
            arguments = [(where, _at(found, i)) for where, found in overloads or ()]
        if not arguments:
            return None
        typed: set[Any] = set()
        for where, argument in arguments:
            if argument is _MISSING:
                continue
            shapes = self._shapes(where, argument, 0)
            if shapes is None:
                return None
            for shape_path, shape in shapes:
                writtens = shape[1]
                written = writtens[j] if j < len(writtens) and j != shape[2] else None
                typed.add(self._r.written(shape_path, written) if written else None)
        return typed.pop() if len(typed) == 1 else None

    def _callee_signatures(self, callee: Any, new: bool) -> list[tuple[str, Any]] | None:
        kind, path, name = callee[:3]
        if new:
            if kind != "static":
                return None
            return [(path, s) for s in self._extra(path).get("params", {}).get(f"{name}.constructor", ())] or None
        if kind == "instance":  # a field typed by a callable interface (`get!: HandlerInterface`)
            return self._named(path, name, 0) or None
        if kind not in ("function", "member"):
            return None
        extra = self._extra(path)
        if kind == "member" and self._r.kinds(path).get(name) == "method" and name not in extra.get("params", {}):
            return None  # a method without callback parameters (`returns` holds its return type)
        if name in extra.get("params", {}):
            return [(path, s) for s in extra["params"][name]]
        written = extra.get("returns", {}).get(name) if kind == "member" else None
        if not written or "." in written:  # a field typed by a callable interface or alias
            return None
        shapes = self._shapes(path, ["ref", written], 0)
        return shapes or None

    def _shapes(self, path: str, found: Any, depth: int) -> list[tuple[str, Any]] | None:
        """The call signatures a spec stands for ([] for none), or None when it cannot be told."""
        if found == 0:
            return []
        if found is None or depth > _DEPTH:
            return None
        kind, value = found
        if kind == "sig":
            return [(path, s) for s in value]
        if kind == "or":
            shapes: list[tuple[str, Any]] = []
            for part in value:
                more = self._shapes(path, part, depth + 1)
                if more is None:
                    return None
                shapes += more
            return shapes
        if kind == "ref":
            return self._named(path, value, depth)
        return None

    def _named(self, path: str, name: str, depth: int) -> list[tuple[str, Any]] | None:
        bound = self._r.bound(path).get(name)
        if bound is not None:
            target, imported = bound
            where = self._r.definer(target, imported) if target and imported != "*" else None
            if where is None:
                return None
            path, name = where
        kinds = self._r.kinds(path)
        extra = self._extra(path)
        if name in extra.get("callsigs", {}):
            return self._shapes(path, extra["callsigs"][name], depth + 1)
        kind = kinds.get(name)
        if kind == "class" or kind == "enum" or (kind == "interface" and name not in extra.get("bases", {})):
            return []  # an instance type: no call signature (an interface's bases might add one)
        if kind == "type":
            return []  # an alias of something with no call signature (`callsigs` keeps the rest)
        return None

    def _extra(self, path: str) -> dict[str, Any]:
        return self._r._extra(path)


_MISSING = object()


def _at(found: list[Any], i: int) -> Any:
    """The spec argument i meets in a signature, or _MISSING when the signature has no parameter i."""
    specs, _, rest = found
    if rest < 0 or i < rest:
        return specs[i] if i < len(specs) else _MISSING
    element = specs[rest]
    if isinstance(element, list) and element and element[0] == "tuple":
        if i - rest < len(element[1]):
            return element[1][i - rest]
        return element[2] if len(element) > 2 else _MISSING  # `[A, ...B[]]`
    return element
