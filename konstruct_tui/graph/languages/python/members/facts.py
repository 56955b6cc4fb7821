"""What a Python file states about the types of its names, read at extraction time so that
resolution (`members/meaning.py`) can tell whose method `recv.name(...)` calls.

Only what the source writes down counts: annotations (`c: Console`, `self.x: T`, `-> T`), an
assignment from a call (`c = Console()`: a class makes an instance, a function its annotated
return), class bases, and member uses on a call's result (`Console().print`). Nothing is inferred
from flow; a name bound twice to different things is ambiguous and resolution says so.

The facts are one `records.PythonMemberFacts` per file (`FileFacts.extra`):
- types:   every way each name is bound (`c = Console()`: a `CallResult`; `self.size: int`: an
           `Annotation`; `self.c = c`: `SameAs` c; a bare parameter: UNTYPED, the name is not proven)
- returns: what each function returns: its annotation (`Self` as SELF), else what every `return` of
           a non-generator states (`return Console()`, `return self`, `return app`)
- bases:   the base classes each class names
- calls, supers: members used on a call's result (`Console().print`, `super().load` in a class)
- chains:  members used along a chain of calls (`App().runner().invoke`), arguments left out
- untyped: members used on receivers no name can type (`items[0].run()`)
- told_apart, local: names bound differently per function, and their uses (see `scopes.scoped`)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from itertools import compress, repeat
from operator import attrgetter, contains, methodcaller

from .... import treesitter as ts
from ...fields import field, name_of, parent
from ..records import (
    SELF,
    UNTYPED,
    Annotation,
    CallOn,
    CallResult,
    Chain,
    Decorated,
    Entered,
    LocalUse,
    Name,
    OneOf,
    PythonMemberFacts,
    SameAs,
    SuperCall,
    Written,
    written_order,
)
from ..scopes import ScopeTable, scope_table
from ..scopes import enclosing as _enclosing
from ..scopes import kind_around as _kind_around
from ..scopes import scoped as _scoped
from ..stated import DOTTED as _DOTTED
from ..stated import call_chain as _call_chain
from ..stated import caught as _caught
from ..stated import dotted as _dotted
from ..stated import either as _either
from ..stated import may_type as _may_type
from ..stated import stated as _stated

_TEXT = attrgetter("text")
_OPTIONAL = re.compile(r"^(?:typing\.)?Optional\[(.*)\]$", re.DOTALL)


def written_type(text: str) -> Annotation | OneOf | None:
    """The classes an annotation names: `"Console"`,
    `Optional[Console]`, `Console | None` -> `Console`; a generic keeps its origin (`list[int]` ->
    `list`); a callable stands for what it returns (`Callable[[F], Group]` -> `Group`: what a
    decorator factory makes of the function). Resolution keeps the one project class among them."""
    found = _classes(text)
    if not found:
        return None
    if len(found) == 1:
        return Annotation(found[0])
    return OneOf(tuple(map(Annotation, found)))


def _classes(text: str) -> list[str]:
    found: list[str] = []
    for part in _alternatives(text.strip().strip("'\"").strip()):
        optional = _OPTIONAL.match(part)
        if optional:
            found += _classes(optional.group(1))
            continue
        origin, _, arguments = part.partition("[")
        origin = origin.strip().strip("'\"")
        if origin.rsplit(".", 1)[-1] == "Callable" and arguments:
            result = _alternatives(arguments.rstrip().removesuffix("]"), ",")[-1]
            found += _classes(result)
        elif _DOTTED.fullmatch(origin) and origin != "None":
            found.append(origin)
    return list(dict.fromkeys(found))


def _alternatives(text: str, separator: str = "|") -> list[str]:
    """`text` split on `separator` outside brackets."""
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for char in text:
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        if char == separator and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    parts.append("".join(current).strip())
    return [p for p in parts if p]


def _target_name(left: ts.Node, kind_of: Callable[[ts.Node], str | None] = _kind_around) -> str | None:
    """`x` (or `self.x` for a class-body name: what instances see), `self.x`; else None."""
    if left.type == "identifier":
        kind = kind_of(left)
        name = ts.text(left)
        return f"self.{name}" if kind == "class_definition" else name
    if left.type == "attribute":
        obj = left.child_by_field_name("object")
        attr = left.child_by_field_name("attribute")
        if obj is not None and attr is not None and obj.type == "identifier" and ts.text(obj) == "self":
            return f"self.{ts.text(attr)}"
    return None


def _entered(name: ts.Node) -> Entered | None:
    """`with Client() as c` / `async with Client() as c`: `__enter__` (or `__aenter__`) of `Client()`:
    what the context manager's enter method returns; None for any other `as` target."""
    target = name.parent
    pattern = target.parent if target is not None and target.type == "as_pattern_target" else None
    item = pattern.parent if pattern is not None and pattern.type == "as_pattern" else None
    if pattern is None or item is None or item.type != "with_item":
        return None
    value = pattern.named_children[0]
    callee = _dotted(value.child_by_field_name("function")) if value.type == "call" else None
    statement = item.parent.parent if item.parent is not None else None
    if not callee or statement is None or statement.type != "with_statement":
        return None
    return Entered(CallResult(callee), '__aenter__' if statement.children[0].type == 'async' else '__enter__')


def _returns_self(function: ts.Node, annotation: str) -> bool:
    """`-> Self`, or `def __enter__(self: T) -> T`: the method returns the instance it is called on."""
    written = annotation.strip().strip("'\"")
    if written.rsplit(".", 1)[-1] == "Self":
        return True
    parameters = function.child_by_field_name("parameters")
    first = parameters.named_children[0] if parameters is not None and parameters.named_child_count else None
    typed = first.child_by_field_name("type") if first is not None and first.type == "typed_parameter" else None
    return typed is not None and ts.text(typed).strip().strip("'\"") == written


def _super_class(call: ts.Node) -> str | None:
    """`super()` (or `super(Cls, self)`) inside class `Cls`: "Outer.Cls", whose members are
    its bases' members. None outside a class or when `super` names another class."""
    parent = call.parent
    while parent is not None and parent.type != "class_definition":
        parent = parent.parent
    if parent is None:
        return None
    _, scopes = _enclosing(parent)
    cls = ".".join([*scopes, name_of(parent)])
    arguments = call.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
    if first is not None and ts.text(first) != cls.rsplit(".", 1)[-1]:
        return None
    return cls


def member_facts(groups: dict[str, list[ts.Node]], has_error: bool = True,
                 chain_texts: list[bytes] | None = None, scopes: ScopeTable | None = None) -> PythonMemberFacts:
    """`chain_texts`: the texts of the "chain" captures, in their order (read here when not given);
    `scopes`: the tree's scope table (built here when not given; not used for a tree with errors).
    A test's parameters are not typed from the fixtures of their names: pytest's injection is a
    convention of a tool, not something the source states, so what is used on them is by-name."""
    if chain_texts is None:
        chain_texts = list(map(_TEXT, groups.get("chain", ())))
    table: ScopeTable | None = None
    enclosing: Callable[[ts.Node], tuple[str | None, list[str]]]
    kind_of: Callable[[ts.Node], str | None]
    if has_error:
        enclosing, kind_of = _enclosing, _kind_around
    else:
        table = scopes if scopes is not None else scope_table(groups)
        enclosing, kind_of = table.enclosing, table.kind_of
    bound: list[tuple[str, Written, ts.Node]] = []  # (name, what it is written as, binding node)
    for node in groups.get("bind", ()):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        name = _target_name(left, kind_of) if left is not None else None
        callee = _dotted(right.child_by_field_name("function")) if right is not None else None
        if name and callee and node.child_by_field_name("type") is None:
            bound.append((name, CallResult(callee), node))
    for node in groups.get("annotated", ()):
        left, annotation = node.child_by_field_name("left"), node.child_by_field_name("type")
        name = _target_name(left, kind_of) if left is not None else None
        written = written_type(ts.text(annotation)) if annotation is not None else None
        if name and written:
            bound.append((name, written, node))
    for node in groups.get("param.type", ()):
        parameter = parent(node)
        parameter_name = parameter.child_by_field_name("name") if parameter.type == "typed_default_parameter" \
            else next((c for c in parameter.named_children if c.type == "identifier"), None)
        written = written_type(ts.text(node))
        if parameter_name is not None and written:
            bound.append((ts.text(parameter_name), written, node))
    for node in groups.get("decorated", ()):
        definition = node.child_by_field_name("definition")
        decorator = next((c for c in node.named_children if c.type == "decorator"), None)
        if definition is None or decorator is None or definition.type != "function_definition":
            continue
        if kind_of(node) == "class_definition":
            continue  # a method's decorator (@property, @classmethod) says nothing about a variable
        expression = decorator.named_children[0] if decorator.named_child_count else None
        if expression is not None and expression.type == "call":
            expression = expression.child_by_field_name("function")
        decorator_path = _dotted(expression)
        if decorator_path and decorator_path.rsplit(".", 1)[-1] not in ("staticmethod", "classmethod", "property", "overload"):
            bound.append((name_of(definition), Decorated(decorator_path), node))
    for node in groups.get("entered", ()):
        bound.append((ts.text(node), _entered(node) or UNTYPED, node))
    untyped_assigned: list[tuple[str, ts.Node]] = []
    for node in groups.get("caught", ()):
        caught = _caught(node)
        if caught:
            bound.append((ts.text(node), caught, node))
        else:  # like any binding that states no type: kept only where the name matters
            untyped_assigned.append((ts.text(node), node))
    for node in groups.get("assign", ()):
        if node.child_by_field_name("type") is not None:
            continue  # annotated: typed above
        right, left = field(node, "right"), field(node, "left")
        while right.type == "assignment" and (inner := right.child_by_field_name("right")) is not None:
            right = inner  # `ib = attr = attrib`: each name holds the value
        called = _dotted(right.child_by_field_name("function")) if right.type == "call" else None
        if called:
            name = ts.text(left) if left.type == "identifier" else _target_name(left, kind_of)
            if name:
                bound.append((name, CallResult(called), node))
            continue
        awaited = right.named_children[0] if right.type == "await" and right.named_child_count else None
        callee = _dotted(awaited.child_by_field_name("function")) if awaited is not None and awaited.type == "call" else None
        if callee and left.type == "identifier":  # `r = await client.get()`: what the coroutine returns
            bound.append((ts.text(left), CallResult(callee), node))
            continue
        name = ts.text(left) if left.type == "identifier" else _target_name(left, kind_of)
        if name:
            # `self.console = console`, `_Segment = Segment`, `si = self.app.session_interface`: the
            # same thing as another name or a dotted path (typed as far as its members are declared)
            same = (_target_name(right, kind_of) or _dotted(right)) if right.type == "attribute" else \
                ts.text(right) if right.type == "identifier" else None
            either = _either(right) if right.type in ("conditional_expression", "parenthesized_expression") else None
            if same:
                bound.append((name, SameAs(same), node))
            elif either:
                bound.append((name, either, node))
            else:
                untyped_assigned.append((name, node))
    returns: dict[str, Written] = {}
    # In document order: `captures` promises no order within a name (it varied from run to run).
    for node in ts.in_order(groups.get("returns", ())):
        annotated = written_type(ts.text(node))
        function = node.parent
        if annotated and function is not None:
            _, outer = enclosing(function)
            # the last of several definitions (`@overload`s, then the real one) is the one that counts
            returns[".".join([*outer, name_of(function)])] = \
                SELF if outer and _returns_self(function, ts.text(node)) else annotated
    # What each `return` states (kind, function, written, node); the names in it are told
    # apart per function like a binding's (`return app`: the `app` of that function, see `_scoped`).
    function_of: Callable[[ts.Node], str | None]
    if table is not None:
        function_of = table.function_of
    else:
        function_of = _function_walked
    generators: set[str] = set()
    stated: list[tuple[str, str, Written, ts.Node]] = []
    for node in groups.get("yielded", ()):  # a generator returns none of its `return` values
        qualified = function_of(node)
        if qualified is not None:
            generators.add(qualified)
    for node in groups.get("returned", ()):
        value = _stated(node.named_child(0)) if node.named_child_count else None
        qualified = function_of(node) if value else None
        if value and qualified is not None and qualified not in returns:  # an annotation wins
            stated.append(("return", qualified, value, node))
    unbound = groups.get("unbound", ())
    # Bindings that state no type matter only for names typed elsewhere in the file (the two must be
    # told apart) or bound by an import (a bare parameter shadows it): most are neither.
    imported = {raw.decode("utf-8", "replace") for raw in set(map(_TEXT, groups.get("imported", ())))}
    relevant = imported.union(name for name, _, _ in bound)
    # and names a function defines as a class (`class Loader` in one test, a `Loader` parameter
    # in another): resolution takes such a class only where nothing else binds the name
    local_classes = {name_of(node) for node in groups.get("definition.class", ())
                     if kind_of(node) == "function_definition"}
    relevant |= local_classes
    wanted = {name.encode() for name in relevant}
    texts = list(map(_TEXT, unbound))  # many; picked out in C, in capture order
    for name, node in compress(zip(texts, unbound), map(wanted.__contains__, texts)):
        bound.append((name.decode("utf-8", "replace"), UNTYPED, node))
    bound += [(name, UNTYPED, node) for name, node in untyped_assigned if name in relevant]
    # `self` and `cls` are the enclosing class, whatever their annotation (`self: T`) says
    bound = [b for b in bound if b[0] != "self" and b[0] != "cls"]
    types: dict[Name, set[Written]] = defaultdict(set)
    for name, way, _ in bound:
        types[name].add(way)
    bases: dict[str, tuple[str, ...]] = {}
    for node in ts.in_order(groups.get("bases", ())):
        # `Base[str]` (a generic base) is the class `Base`; keyword arguments (`metaclass=`) are not bases
        named = tuple(d for d in (_dotted(c.child_by_field_name("value") if c.type == "subscript" else c)
                                  for c in node.named_children) if d)
        cls = node.parent
        if named and cls is not None:
            _, outer = enclosing(cls)
            bases[".".join([*outer, name_of(cls)])] = named
    calls: list[tuple[str, str, ts.Node]] = []
    supers: set[SuperCall] = set()
    chained: list[ts.Node] = []
    untyped_add = chained.append
    chains: list[tuple[Chain, ts.Node]] = []
    # `make_app().config.from_file`: members of an attribute of a call's result (the outermost
    # attribute of each such chain; its text holds a "(")
    with_calls = compress(groups.get("chain", ()), map(contains, chain_texts, repeat(b"(")))
    for node in with_calls:
        if parent(node).type != "attribute":
            receiver = node.child_by_field_name("object")
            if receiver is not None and receiver.type == "attribute":  # its text holds the "("
                chain = _call_chain(node)
                if chain:
                    chains.append((Chain(tuple(chain)), node))
                else:
                    untyped_add(field(node, "attribute"))
    for node in groups.get("oncall", ()):
        attribute = parent(node)
        call = attribute.child_by_field_name("object")
        callee = _dotted(call.child_by_field_name("function")) if call is not None else None
        if callee is None and call is not None:
            # `b.add_eq().add_order()`: a call on a call's result, walked as a chain; a receiver no
            # name can type leaves the member as by-name evidence, never lost
            chain = _call_chain(attribute)
            if chain:
                chains.append((Chain(tuple(chain)), node))
            else:
                untyped_add(node)
            continue
        if callee == "super" and call is not None:  # a callee is read from a call: never None here
            cls = _super_class(call)
            if cls:
                supers.add(SuperCall(cls, ts.text(node)))
        elif callee:
            calls.append((callee, ts.text(node), node))
    oncall = {CallOn(callee, None, name) for callee, name, _ in calls}
    untyped = {ts.text(n) for n in (*groups.get("untyped", ()), *chained)}
    told_apart: tuple[str, ...] = ()
    local: set[LocalUse] = set()
    # A name bound in several ways is told apart per function; so is an imported name that a
    # function rebinds (`import attr` beside `def test(self, attr)`): the parameter shadows the
    # module only inside that function.
    conflicts = {n for n, found in types.items()
                 if isinstance(n, str) and (len(found) > 1 or n in imported) and "." not in n}
    if conflicts:  # only names used as a receiver (`x.m`, `x().m`, a written `x.f()`) need telling apart
        # A chain's receiver is its text up to the first "." or "(": only chains that start with
        # one of the names (picked out in C) can have one of them as receiver.
        heads = {n.encode() for n in conflicts}
        prefixes = tuple(head + end for head in heads for end in (b".", b"("))
        distinct = set(chain_texts)
        used = {raw.partition(b".")[0].partition(b"(")[0] for raw in filter(methodcaller("startswith", prefixes), distinct)}
        used.update(heads.intersection(distinct))
        # and names a function returns (`app = App(); return app`)
        used.update(w.path.partition(".")[0].encode() for _, _, w, _ in stated if isinstance(w, SameAs))
        conflicts = {n for n in conflicts if n.encode() in used}
    if conflicts:
        told_apart = tuple(sorted(conflicts))
        types, oncall, local, chains, stated = _scoped(groups, bound, conflicts, calls, chain_texts, chains, stated, table)
    # A name only ever bound without a type is unknown anyway, unless it shadows an import of the
    # same name (`def f(console): console.print()` beside `from .console import console`) or a
    # class a function defines.
    shadowing = imported | local_classes
    for stale in [n for n, found in types.items() if found == {UNTYPED} and (not isinstance(n, str) or n not in shadowing)]:
        del types[stale]
    agreed: dict[tuple[str, str], set[Written]] = defaultdict(set)
    for kind, qualified, value, _ in stated:
        agreed[(kind, qualified)].add(value)
    for (kind, qualified), values in agreed.items():
        value = next(iter(values))
        if len(values) != 1 or not _may_type(value, types, imported):
            continue  # returns that disagree, or what states nothing resolution could type
        if qualified not in generators:
            returns[qualified] = value
    return PythonMemberFacts(
        untyped=tuple(sorted(untyped)),
        types={name: tuple(found) if len(found) == 1 else tuple(sorted(found, key=written_order))
               for name, found in sorted(types.items(), key=_name_order)},
        returns=returns,
        bases=bases,
        calls=tuple(sorted(oncall, key=_call_order)),
        supers=tuple(sorted(supers, key=attrgetter("cls", "member"))),
        chains=tuple(sorted({chain for chain, _ in chains}, key=_chain_order)),
        told_apart=told_apart,
        local=tuple(sorted(local, key=_use_order)),
    )


def _function_walked(node: ts.Node) -> str | None:
    kind, names = _enclosing(node)
    return ".".join(names) if kind == "function_definition" else None


def _name_order(item: tuple[Name, set[Written]]) -> tuple[str, int]:
    name = item[0]
    return (name, -1) if isinstance(name, str) else (name.name, name.scope)


def _call_order(call: CallOn) -> tuple[str, int, str]:
    return call.callee, -1 if call.scope is None else call.scope, call.member


def _chain_order(chain: Chain) -> tuple[tuple[tuple[str, bool], ...], int]:
    return chain.links, -1 if chain.scope is None else chain.scope


def _use_order(use: LocalUse) -> tuple[str, int]:
    return use.path, -1 if use.scope is None else use.scope
