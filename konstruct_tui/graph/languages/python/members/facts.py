"""What a Python file states about the types of its names, read at extraction time so that
resolution (`members/resolver.py`) can tell whose method `recv.name(...)` calls.

Only what the source writes down counts: annotations (`c: Console`, `self.x: T`, `-> T`), an
assignment from a call (`c = Console()`: a class makes an instance, a function its annotated
return), class bases, and member uses on a call's result (`Console().print`). Nothing is inferred
from flow; a name bound twice to different things is ambiguous and resolution says so.

The facts go into `FileFacts.extra` (compact, JSON-ready):
- "types":   {"c": ["Console()"], "self.size": ["int"], "x": ["pkg.T"], "y": ["?", "T()"], "self.c": ["=c"]}
             (call results end in "()"; "?" is a binding that states no type: the name is not proven;
             "=c": bound to what the name `c` (or `self.c`) holds)
- "returns": {"get_console": "Console", "Console.size": "ConsoleDimensions", "Client.__enter__": "Self",
             "make": "Console()"}  (an annotation; else what every `return` of a non-generator states:
             `return Console()`, `return self`, `return app` as "=app")
- "bases":   {"Theme": ["Base", "mod.Mixin"]}
- "oncall":  ["Console>print", "get_console>print", "super(Theme)>load"]  (`super()` in class Theme)
- "chains":  ["App().runner().invoke", "make_app().config.from_file"]  (members used along a chain of
             calls, arguments left out: each walked from the head, the last name included)
- "untyped": ["run"]   (members used on receivers no name can type: `items[0].run()`)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from itertools import compress, repeat
from operator import attrgetter, contains, methodcaller
from typing import Any

from .... import treesitter as ts
from ..scopes import ScopeTable, scope_table
from ..scopes import enclosing as _enclosing
from ..scopes import kind_around as _kind_around
from ..scopes import scoped as _scoped
from ..stated import DOTTED as _DOTTED
from ..stated import SELF, UNTYPED
from ..stated import call_chain as _call_chain
from ..stated import caught as _caught
from ..stated import dotted as _dotted
from ..stated import either as _either
from ..stated import may_type as _may_type
from ..stated import stated as _stated

_TEXT = attrgetter("text")
_OPTIONAL = re.compile(r"^(?:typing\.)?Optional\[(.*)\]$", re.DOTALL)


def written_type(text: str) -> str | None:
    """The classes an annotation names, as alternatives joined by "|": `"Console"`,
    `Optional[Console]`, `Console | None` -> `Console`; a generic keeps its origin (`list[int]` ->
    `list`); a callable stands for what it returns (`Callable[[F], Group]` -> `Group`: what a
    decorator factory makes of the function). Resolution keeps the one project class among them."""
    found: list[str] = []
    for part in _alternatives(text.strip().strip("'\"").strip()):
        optional = _OPTIONAL.match(part)
        if optional:
            found += [t for t in (written_type(optional.group(1)) or "").split("|") if t]
            continue
        origin, _, arguments = part.partition("[")
        origin = origin.strip().strip("'\"")
        if origin.rsplit(".", 1)[-1] == "Callable" and arguments:
            result = _alternatives(arguments.rstrip().removesuffix("]"), ",")[-1]
            found += [t for t in (written_type(result) or "").split("|") if t]
        elif _DOTTED.fullmatch(origin) and origin != "None":
            found.append(origin)
    return "|".join(dict.fromkeys(found)) or None


def _alternatives(text: str, separator: str = "|") -> list[str]:
    """`text` split on `separator` outside brackets."""
    parts, depth, current = [], 0, []
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
        name = left.text.decode("utf-8", "replace")
        return f"self.{name}" if kind == "class_definition" else name
    if left.type == "attribute":
        obj = left.child_by_field_name("object")
        attr = left.child_by_field_name("attribute")
        if obj is not None and attr is not None and obj.type == "identifier" and ts.text(obj) == "self":
            return f"self.{ts.text(attr)}"
    return None


def _entered(name: ts.Node) -> str | None:
    """`with Client() as c` / `async with Client() as c`: "Client()>__enter__" (or `__aenter__`),
    what the context manager's enter method returns; None for any other `as` target."""
    target = name.parent
    pattern = target.parent if target is not None and target.type == "as_pattern_target" else None
    item = pattern.parent if pattern is not None and pattern.type == "as_pattern" else None
    if item is None or item.type != "with_item":
        return None
    value = pattern.named_children[0]
    callee = _dotted(value.child_by_field_name("function")) if value.type == "call" else None
    statement = item.parent.parent if item.parent is not None else None
    if not callee or statement is None or statement.type != "with_statement":
        return None
    return f"{callee}()>{'__aenter__' if statement.children[0].type == 'async' else '__enter__'}"


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
    """`super()` (or `super(Cls, self)`) inside class `Cls`: "super(Outer.Cls)", whose members are
    its bases' members. None outside a class or when `super` names another class."""
    parent = call.parent
    while parent is not None and parent.type != "class_definition":
        parent = parent.parent
    if parent is None:
        return None
    _, scopes = _enclosing(parent)
    cls = ".".join([*scopes, ts.text(parent.child_by_field_name("name"))])
    arguments = call.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
    if first is not None and ts.text(first) != cls.rsplit(".", 1)[-1]:
        return None
    return f"super({cls})"


def member_facts(groups: dict[str, list[ts.Node]], has_error: bool = True,
                 chain_texts: list[bytes] | None = None, scopes: ScopeTable | None = None) -> dict[str, Any]:
    """`chain_texts`: the texts of the "chain" captures, in their order (read here when not given);
    `scopes`: the tree's scope table (built here when not given; not used for a tree with errors).
    A test's parameters are not typed from the fixtures of their names: pytest's injection is a
    convention of a tool, not something the source states, so what is used on them is by-name."""
    if chain_texts is None:
        chain_texts = list(map(_TEXT, groups.get("chain", ())))
    table = None
    if has_error:
        enclosing, kind_of = _enclosing, _kind_around
    else:
        table = scopes if scopes is not None else scope_table(groups)
        enclosing, kind_of = table.enclosing, table.kind_of
    bound: list[tuple[str, str, ts.Node]] = []  # (name, written type, binding node)
    for node in groups.get("bind", ()):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        name = _target_name(left, kind_of) if left is not None else None
        callee = _dotted(right.child_by_field_name("function")) if right is not None else None
        if name and callee and node.child_by_field_name("type") is None:
            bound.append((name, callee + "()", node))
    for node in groups.get("annotated", ()):
        left, annotation = node.child_by_field_name("left"), node.child_by_field_name("type")
        name = _target_name(left, kind_of) if left is not None else None
        written = written_type(ts.text(annotation)) if annotation is not None else None
        if name and written:
            bound.append((name, written, node))
    for node in groups.get("param.type", ()):
        parameter = node.parent
        name = parameter.child_by_field_name("name") if parameter.type == "typed_default_parameter" else next(
            (c for c in parameter.named_children if c.type == "identifier"), None)
        written = written_type(ts.text(node))
        if name is not None and written:
            bound.append((ts.text(name), written, node))
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
        written = _dotted(expression)
        if written and written.rsplit(".", 1)[-1] not in ("staticmethod", "classmethod", "property", "overload"):
            bound.append((ts.text(definition.child_by_field_name("name")), "@" + written, node))
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
        right = node.child_by_field_name("right")
        if node.child_by_field_name("type") is not None:
            continue  # annotated: typed above
        left = node.child_by_field_name("left")
        while right.type == "assignment" and right.child_by_field_name("right") is not None:
            right = right.child_by_field_name("right")  # `ib = attr = attrib`: each name holds the value
        called = _dotted(right.child_by_field_name("function")) if right.type == "call" else None
        if called:
            name = ts.text(left) if left.type == "identifier" else _target_name(left, kind_of)
            if name:
                bound.append((name, called + "()", node))
            continue
        awaited = right.named_children[0] if right.type == "await" and right.named_child_count else None
        callee = _dotted(awaited.child_by_field_name("function")) if awaited is not None and awaited.type == "call" else None
        if callee and left.type == "identifier":  # `r = await client.get()`: what the coroutine returns
            bound.append((ts.text(left), callee + "()", node))
            continue
        name = ts.text(left) if left.type == "identifier" else _target_name(left, kind_of)
        if name:
            # `self.console = console`, `_Segment = Segment`, `si = self.app.session_interface`: the
            # same thing as another name or a dotted path (typed as far as its members are declared)
            same = (_target_name(right, kind_of) or _dotted(right)) if right.type == "attribute" else \
                ts.text(right) if right.type == "identifier" else None
            either = _either(right) if right.type in ("conditional_expression", "parenthesized_expression") else None
            if same:
                bound.append((name, f"={same}", node))
            elif either:
                bound.append((name, either, node))
            else:
                untyped_assigned.append((name, node))
    returns: dict[str, str] = {}
    # In document order: `captures` promises no order within a name (it varied from run to run).
    for node in ts.in_order(groups.get("returns", ())):
        written = written_type(ts.text(node))
        function = node.parent
        if written and function is not None:
            _, outer = enclosing(function)
            if outer and _returns_self(function, ts.text(node)):
                written = SELF
            # the last of several definitions (`@overload`s, then the real one) is the one that counts
            returns[".".join([*outer, ts.text(function.child_by_field_name("name"))])] = written
    # What each `return` states (kind, function, written, node); the names in it are told
    # apart per function like a binding's (`return app` -> "=app@<f>", see `_scoped`).
    if table is not None:
        function_of = table.function_of
    else:
        def function_of(node: ts.Node) -> str | None:
            kind, names = _enclosing(node)
            return ".".join(names) if kind == "function_definition" else None
    generators: set[str] = set()
    stated: list[tuple[str, str, str, ts.Node]] = []
    for node in groups.get("yielded", ()):  # a generator returns none of its `return` values
        qualified = function_of(node)
        if qualified is not None:
            generators.add(qualified)
    for node in groups.get("returned", ()):
        written = _stated(node.named_child(0)) if node.named_child_count else None
        qualified = function_of(node) if written else None
        if qualified is not None and qualified not in returns:  # an annotation wins
            stated.append(("return", qualified, written, node))
    unbound = groups.get("unbound", ())
    # Bindings that state no type matter only for names typed elsewhere in the file (the two must be
    # told apart) or bound by an import (a bare parameter shadows it): most are neither.
    imported = {raw.decode("utf-8", "replace") for raw in set(map(_TEXT, groups.get("imported", ())))}
    relevant = imported.union(name for name, _, _ in bound)
    # and names a function defines as a class (`class Loader` in one test, a `Loader` parameter
    # in another): resolution takes such a class only where nothing else binds the name
    local_classes = {ts.text(node.child_by_field_name("name")) for node in groups.get("definition.class", ())
                     if kind_of(node) == "function_definition"}
    relevant |= local_classes
    wanted = {name.encode() for name in relevant}
    texts = list(map(_TEXT, unbound))  # many; picked out in C, in capture order
    for name, node in compress(zip(texts, unbound), map(wanted.__contains__, texts)):
        bound.append((name.decode("utf-8", "replace"), UNTYPED, node))
    bound += [(name, UNTYPED, node) for name, node in untyped_assigned if name in relevant]
    # `self` and `cls` are the enclosing class, whatever their annotation (`self: T`) says
    bound = [b for b in bound if b[0] != "self" and b[0] != "cls"]
    types: dict[str, set[str]] = defaultdict(set)
    for name, written, _ in bound:
        types[name].add(written)
    bases: dict[str, list[str]] = {}
    for node in ts.in_order(groups.get("bases", ())):
        # `Base[str]` (a generic base) is the class `Base`; keyword arguments (`metaclass=`) are not bases
        written = [d for d in (_dotted(c.child_by_field_name("value") if c.type == "subscript" else c)
                               for c in node.named_children) if d]
        cls = node.parent
        if written and cls is not None:
            _, outer = enclosing(cls)
            bases[".".join([*outer, ts.text(cls.child_by_field_name("name"))])] = written
    calls: list[tuple[str, str, ts.Node]] = []
    chained: list[ts.Node] = []
    untyped_add = chained.append
    chains: list[tuple[str, ts.Node]] = []
    # `make_app().config.from_file`: members of an attribute of a call's result (the outermost
    # attribute of each such chain; its text holds a "(")
    with_calls = compress(groups.get("chain", ()), map(contains, chain_texts, repeat(b"(")))
    for node in with_calls:
        if node.parent.type != "attribute":
            receiver = node.child_by_field_name("object")
            if receiver is not None and receiver.type == "attribute":  # its text holds the "("
                chain = _call_chain(node)
                if chain:
                    chains.append((chain, node))
                else:
                    untyped_add(node.child_by_field_name("attribute"))
    for node in groups.get("oncall", ()):
        call = node.parent.child_by_field_name("object")
        callee = _dotted(call.child_by_field_name("function")) if call is not None else None
        if callee is None and call is not None:
            # `b.add_eq().add_order()`: a call on a call's result, walked as a chain; a receiver no
            # name can type leaves the member as by-name evidence, never lost
            chain = _call_chain(node.parent)
            if chain:
                chains.append((chain, node))
            else:
                untyped_add(node)
            continue
        if callee == "super":
            callee = _super_class(call)
        if callee:
            calls.append((callee, ts.text(node), node))
    oncall = {f"{callee}>{name}" for callee, name, _ in calls}
    untyped = {ts.text(n) for n in (*groups.get("untyped", ()), *chained)}
    extra: dict[str, Any] = {}
    # A name bound in several ways is told apart per function; so is an imported name that a
    # function rebinds (`import attr` beside `def test(self, attr)`): the parameter shadows the
    # module only inside that function.
    conflicts = {n for n, found in types.items() if (len(found) > 1 or n in imported) and "." not in n}
    if conflicts:  # only names used as a receiver (`x.m`, `x().m`, a written `x.f()`) need telling apart
        # A chain's receiver is its text up to the first "." or "(": only chains that start with
        # one of the names (picked out in C) can have one of them as receiver.
        heads = {n.encode() for n in conflicts}
        prefixes = tuple(head + end for head in heads for end in (b".", b"("))
        distinct = set(chain_texts)
        used = {raw.partition(b".")[0].partition(b"(")[0] for raw in filter(methodcaller("startswith", prefixes), distinct)}
        used.update(heads.intersection(distinct))
        # and names a function returns (`app = App(); return app`)
        used.update(w[1:].partition(".")[0].encode() for _, _, w, _ in stated if w[0] == "=")
        conflicts = {n for n in conflicts if n.encode() in used}
    if conflicts:
        types, oncall, extra["local"], chains, stated = _scoped(
            groups, bound, conflicts, calls, chain_texts, chains, stated, table)
    # A name only ever bound without a type is unknown anyway, unless it shadows an import of the
    # same name (`def f(console): console.print()` beside `from .console import console`) or a
    # class a function defines.
    shadowing = imported | local_classes
    for name in [n for n, found in types.items() if found == {UNTYPED} and ("@" in n or n not in shadowing)]:
        del types[name]
    agreed: dict[tuple[str, str], set[str]] = defaultdict(set)
    for kind, qualified, written, _ in stated:
        agreed[(kind, qualified)].add(written)
    for (kind, qualified), found in agreed.items():
        written = next(iter(found))
        if len(found) != 1 or not _may_type(written, types, imported):
            continue  # returns that disagree, or what states nothing resolution could type
        if qualified not in generators:
            returns[qualified] = written
    if untyped:
        extra["untyped"] = sorted(untyped)
    if types:
        extra["types"] = {name: sorted(found) for name, found in sorted(types.items())}
    if returns:
        extra["returns"] = returns
    if bases:
        extra["bases"] = bases
    if oncall:
        extra["oncall"] = sorted(oncall)
    if chains:
        extra["chains"] = sorted({chain for chain, _ in chains})
    return extra
