"""Go member facts from a file's tree (the records of `member_facts.py`; `resolve.py` types them).

Extraction writes every selector `x.M` as a chain the resolver can type: a head (a written type
`T` / `pkg.T`, or a call `F()` / `pkg.F()` whose result types it) and steps (`.f` a field, `m()` a
method's result), ending with the member used. A name's type comes from what its own function
writes for it: the receiver and parameters (`c *T`), `var c T`, `c := T{}` / `&T{}` / `NewT()` /
`pkg.NewT()` / `x.(*T)` / `other.Method()` (a chain itself); package-level `var`s count in every
function of the file. Typing per function matters: `req` is a `*Request` in one test and a
`*Client` in the next. A name given two types in one function, or none, types nothing: its
selector's member is kept as by-name evidence (`untyped`), as is a member used on an expression
no chain expresses (`xs[0].M`).

Besides the chains: the file's package-level variables' chains (`globals`, for other files of
the package), each function's and method's result type (`returns`, "F" / "T.M"), and each
struct's field types and embedded types (`structs`), which the resolver follows through chains
and for promoted methods (a method of an embedded type called on the outer type).
"""

from __future__ import annotations

import re
from collections import defaultdict

from ... import treesitter as ts
from ..fields import name_of
from .member_facts import Chain, GoMemberFacts, Head, HeadKind, Selector, Step, StepKind, Struct

_TYPE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?")
_SCOPES = frozenset({"function_declaration", "method_declaration", "func_literal"})
_AMBIGUOUS = "?"  # a name declared with no type, or given more than one
Key = tuple[int, int] | None  # a scope's byte range; None: the file

# While a file is read, a chain is plain tuples, (head, steps): a head (kind, name, either) and
# steps (kind, name), as `member_facts` names them. Every variable's value and every selector
# makes one, names are bound and compared by them: tuples are cheap to make and compare, and each
# distinct chain becomes a `member_facts.Chain` once, at the end (`_Records`).
HeadToken = tuple[HeadKind, str, tuple["Tokens", ...]]
StepToken = tuple[StepKind, str]
Tokens = tuple[HeadToken, tuple[StepToken, ...]]
Scope = dict[str, Tokens | str]  # name -> its chain, or _AMBIGUOUS
_ELEMENT: StepToken = ("element", "")


def _then(chain: Tokens, step: StepToken) -> Tokens:
    return chain[0], (*chain[1], step)


class _Records:
    """The records of one file's chains, each distinct chain made once."""

    def __init__(self) -> None:
        self.made: dict[Tokens, Chain] = {}

    def chain(self, tokens: Tokens) -> Chain:
        found = self.made.get(tokens)
        if found is None:
            (kind, name, either), steps = tokens
            found = self.made[tokens] = Chain(Head(kind, name, tuple(map(self.chain, either))),
                                              tuple([Step(*step) for step in steps]))
        return found


def _written(node: ts.Node | None) -> str | None:
    """`*T`, `pkg.T`, `T[K]` -> the named type; anything else (maps, slices, funcs) -> None."""
    if node is None:
        return None
    if node.type in ("slice_type", "map_type", "array_type"):
        # `[]*T`, `map[K]*T` -> "T[]": their elements are typed by `range` and `xs[i]`
        element = _written(node.child_by_field_name("value" if node.type == "map_type" else "element"))
        return element + "[]" if element and not element.endswith("[]") else None
    text = ts.text(node).lstrip("*&").split("[", 1)[0].strip()
    return text if _TYPE.fullmatch(text) else None


def _typed(kind: HeadKind, name: str | None) -> Tokens | None:
    return ((kind, name, ()), ()) if name else None


class _Chains:
    """Selector chains of one file, typed through its functions' variables."""

    def __init__(self) -> None:
        # chain -> the members selected on it, both in the order the file uses them
        self.selectors: dict[Tokens, dict[str, None]] = {}
        self.untyped: set[str] = set()

    def tokens(self, node: ts.Node | None, scope: Scope, depth: int = 0) -> Tokens | None:
        """The chain an expression's value has, or None."""
        if node is None or depth > 40:  # builder chains run long: `b.Int(..).MustInt(..)...`
            return None
        kind = node.type
        if kind == "identifier":
            # A name no function or file-level declaration binds: an import, or a package-level
            # name of a sibling file (the resolver knows which).
            name = ts.text(node)
            if name not in scope:
                return ("name", name, ()), ()
            found = scope[name]
            return found if isinstance(found, tuple) else None
        if kind in ("parenthesized_expression", "unary_expression"):
            operand = node.child_by_field_name("operand") if kind == "unary_expression" else None
            operand = operand or (node.named_children[0] if node.named_child_count else None)
            return self.tokens(operand, scope, depth + 1)
        if kind == "composite_literal":
            return _typed("type", _written(node.child_by_field_name("type")))
        if kind == "func_literal":
            result = node.child_by_field_name("result")
            if result is not None and result.type == "parameter_list" and result.named_child_count:
                result = result.named_children[0].child_by_field_name("type")
            return _typed("func", _written(result))
        if kind == "type_assertion_expression":
            return _typed("type", _written(node.child_by_field_name("type")))
        if kind == "index_expression":
            inner = self.tokens(node.child_by_field_name("operand"), scope, depth + 1)
            return None if inner is None else _then(inner, _ELEMENT)
        if kind == "selector_expression":
            operand, field = node.child_by_field_name("operand"), node.child_by_field_name("field")
            inner = self.tokens(operand, scope, depth + 1)
            return None if inner is None or field is None else _then(inner, ("field", ts.text(field)))
        if kind == "call_expression":
            function = node.child_by_field_name("function")
            if function is None:
                return None
            if function.type == "identifier":
                name = ts.text(function)
                if name in ("new", "make"):  # `new(T)`, `make([]*T, n)`
                    arguments = node.child_by_field_name("arguments")
                    return _typed("type", _written(arguments.named_children[0])) \
                        if arguments and arguments.named_child_count else None
                if name not in scope:
                    return ("call", name, ()), ()
                local = scope.get(name)  # a func value: `getCmd := func() *Command {...}` types its calls
                return (("type", local[0][1], ()), ()) if isinstance(local, tuple) and not local[1] and \
                    local[0][0] == "func" else None
            if function.type == "selector_expression":
                operand, field = function.child_by_field_name("operand"), function.child_by_field_name("field")
                inner = self.tokens(operand, scope, depth + 1)
                return None if inner is None or field is None else _then(inner, ("call", ts.text(field)))
            if function.type in ("generic_type", "index_expression"):  # `NewT[int]()`
                base = function.child_by_field_name("type") or function.child_by_field_name("operand")
                return _typed("call", _written(base))
        return None

    def selector(self, node: ts.Node, scope: Scope) -> None:
        operand, field = node.child_by_field_name("operand"), node.child_by_field_name("field")
        if operand is None or field is None:
            return
        head = self.tokens(operand, scope)
        if head is not None:
            self.selectors.setdefault(head, {})[ts.text(field)] = None
        else:
            self.untyped.add(ts.text(field))


def _bind(scope: Scope, name: str, chain: Tokens | None) -> None:
    if name == "_":
        return
    if chain is None:
        scope.setdefault(name, _AMBIGUOUS)  # declared, type unknown: shadows outer names
        return
    known = scope.get(name)
    if known is None or known == chain:
        scope[name] = chain
    elif isinstance(known, tuple):
        # Bound twice in one function (a parameter, then a loop variable of the same name): the
        # resolver accepts the name's type only when every binding gives the same one.
        alternatives = _alternatives(known)
        if chain not in alternatives:
            alternatives.append(chain)
        nested = any(a[0][0] == "either" for a in alternatives)  # kept flat: one level
        scope[name] = (("either", "", tuple(alternatives)), ()) \
            if len(alternatives) <= 4 and not nested else _AMBIGUOUS


def _alternatives(chain: Tokens) -> list[Tokens]:
    if chain[0][0] == "either" and not chain[1]:
        return list(chain[0][2])
    return [chain]


def _declare(node: ts.Node, scope: Scope, chains: _Chains, outer: Scope) -> None:
    """Bind the names `node` declares in `scope`; values are typed with `outer` (the file's
    names) and what the function declared so far."""
    kind = node.type
    reads = {**outer, **scope}
    if kind in ("parameter_declaration", "var_spec"):
        written = _written(node.child_by_field_name("type"))
        names = node.children_by_field_name("name")
        listed = node.child_by_field_name("value")
        values = listed.named_children if listed is not None else []
        for index, name in enumerate(names):
            if written:
                _bind(scope, ts.text(name), (("type", written, ()), ()))
            elif len(values) == len(names):
                _bind(scope, ts.text(name), chains.tokens(values[index], reads))
            else:
                _bind(scope, ts.text(name), None)
    elif kind == "range_clause":  # `for _, x := range xs`: x is an element of xs
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        names = left.named_children if left is not None else []
        if len(names) == 2 and names[1].type == "identifier" and right is not None:
            over = chains.tokens(right, reads)
            _bind(scope, ts.text(names[1]), _then(over, _ELEMENT) if over is not None else None)
        for name in names[:1]:
            if name.type == "identifier":
                _bind(scope, ts.text(name), None)
    elif kind == "short_var_declaration":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return
        same = left.named_child_count == right.named_child_count
        for index, name in enumerate(left.named_children):
            if name.type == "identifier":
                value = right.named_children[index] if same else None
                # `v, ok := x.(*T)`, `c, err := NewClient()`: the first name gets the asserted
                # type, the function's first result.
                if not same and index == 0 and right.named_child_count == 1 and \
                        right.named_children[0].type in ("type_assertion_expression", "call_expression"):
                    value = right.named_children[0]
                _bind(scope, ts.text(name), chains.tokens(value, reads) if value is not None else None)


def member_facts(found: dict[str, list[ts.Node]]) -> GoMemberFacts:
    chains = _Chains()
    # A closure is a scope of its own (`r` is a *Mux in the function and an *http.Request in the
    # handler it registers): names resolve from the innermost function or closure outwards.
    declarations: dict[Key, list[ts.Node]] = defaultdict(list)
    nodes: dict[Key, ts.Node | None] = {}
    for key in ("typed", "short", "range"):
        for node in found.get(key, ()):
            scope = _scope_of(node)
            declarations[_key(scope)].append(node)
            nodes[_key(scope)] = scope
    file_scope: Scope = {}
    # Outside functions only `var`s name values (a parameter there is a func type's or an
    # interface method's).
    for node in sorted((n for n in declarations.pop(None, ()) if n.type == "var_spec"), key=lambda n: n.start_byte):
        _declare(node, file_scope, chains, file_scope)
    selectors: dict[Key, list[ts.Node]] = defaultdict(list)
    for node in found.get("selector", ()):
        scope = _scope_of(node)
        selectors[_key(scope)].append(node)
        nodes[_key(scope)] = scope
    bound: dict[Key, Scope] = {None: file_scope}

    def names_in(scope: ts.Node | None) -> Scope:
        """Every name visible in `scope`: its own over its enclosing scopes' (outer first)."""
        key = _key(scope)
        if scope is not None and key not in bound:  # (None, the file, always is)
            outer = names_in(_scope_of(scope))
            local: Scope = {}
            for node in sorted(declarations.get(key, ()), key=lambda n: n.start_byte):
                _declare(node, local, chains, outer)
            bound[key] = {**outer, **local}
        return bound[key]

    for span in sorted(k for k in set(selectors) | set(declarations) if k is not None):
        visible = names_in(nodes[span])
        for node in selectors.get(span, ()):
            chains.selector(node, visible)
    records = _Records()
    return GoMemberFacts(
        selectors=tuple([Selector(records.chain(chain), tuple(members))
                         for chain, members in chains.selectors.items()]),
        untyped=tuple(sorted(chains.untyped)),
        globals={k: records.chain(v) for k, v in sorted(file_scope.items()) if isinstance(v, tuple)},
        returns=_returns(found),
        # `type FloatFlag = FlagBase[float64, ...]`: FlagBase's methods
        aliases={name_of(n): w for n in found.get("alias", ())
                 if (w := _written(n.child_by_field_name("type")))},
        structs=_structs(found),
    )


def _key(scope: ts.Node | None) -> tuple[int, int] | None:
    return None if scope is None else (scope.start_byte, scope.end_byte)


def _scope_of(node: ts.Node) -> ts.Node | None:
    """The innermost function, method or closure around `node` (None: the file)."""
    parent = node.parent
    while parent is not None and parent.type not in _SCOPES:
        parent = parent.parent
    return parent


def receiver_type(method: ts.Node) -> str | None:
    receiver = method.child_by_field_name("receiver")
    stack = [receiver] if receiver is not None else []
    while stack:  # first type name in `(r *T)`, `(T)`, `(r T[K])`
        node = stack.pop(0)
        if node.type == "type_identifier":
            return ts.text(node)
        stack.extend(node.named_children)
    return None


def _returns(found: dict[str, list[ts.Node]]) -> dict[str, str]:
    returns = {}
    for node in found.get("returns", ()):
        result = node.child_by_field_name("result")
        if result is not None and result.type == "parameter_list" and result.named_child_count:
            result = result.named_children[0].child_by_field_name("type") or result
        written = _written(result)
        name = name_of(node)
        if node.type == "method_declaration":
            owner = receiver_type(node)
            name = f"{owner}.{name}" if owner else ""
        if written and name:
            returns[name] = written
    for spec in found.get("interface", ()):  # `Redirect() *Redirect` in `type Ctx interface {...}`
        owner = name_of(spec)
        body = spec.child_by_field_name("type")
        for element in body.named_children if body is not None else ():
            result = element.child_by_field_name("result") if element.type in ("method_elem", "method_spec") else None
            written = _written(result) if result is not None and result.type != "parameter_list" else None
            if written:
                returns[f"{owner}.{name_of(element)}"] = written
    return returns


def _structs(found: dict[str, list[ts.Node]]) -> dict[str, Struct]:
    structs: dict[str, Struct] = {}
    for spec in found.get("struct", ()):
        body = spec.child_by_field_name("type")
        fields: dict[str, str] = {}
        embedded: list[str] = []
        listing = next((c for c in body.named_children if c.type == "field_declaration_list"), None) if body else None
        for declaration in listing.named_children if listing is not None else ():
            if declaration.type != "field_declaration":
                continue
            written = _written(declaration.child_by_field_name("type"))
            names = declaration.children_by_field_name("name")
            if not written:
                continue
            if names:
                for name in names:
                    fields[ts.text(name)] = written
            else:
                embedded.append(written)
        if fields or embedded:
            structs[name_of(spec)] = Struct(fields, tuple(embedded))
    return structs
