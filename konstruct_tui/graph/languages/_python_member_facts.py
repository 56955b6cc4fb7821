"""What a Python file states about the types of its names, read at extraction time so that
resolution (`_python_members.py`) can tell whose method `recv.name(...)` calls.

Only what the source writes down counts: annotations (`c: Console`, `self.x: T`, `-> T`), an
assignment from a call (`c = Console()`: a class makes an instance, a function its annotated
return), class bases, and member uses on a call's result (`Console().print`). Nothing is inferred
from flow; a name bound twice to different things is ambiguous and resolution says so.

The facts go into `FileFacts.extra` (compact, JSON-ready):
- "types":   {"c": ["Console()"], "self.size": ["int"], "x": ["pkg.T"]}   (call results end in "()")
- "returns": {"get_console": "Console", "Console.size": "ConsoleDimensions"}
- "bases":   {"Theme": ["Base", "mod.Mixin"]}
- "oncall":  ["Console>print", "get_console>print"]
- "untyped": ["run"]   (members used on receivers no name can type: `items[0].run()`)
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from .. import treesitter as ts

_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_OPTIONAL = re.compile(r"^(?:typing\.)?Optional\[(.*)\]$", re.DOTALL)
_SCOPES = ("class_definition", "function_definition")


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


def _dotted(node: ts.Node | None) -> str | None:
    if node is None or node.type not in ("identifier", "attribute"):
        return None
    text = "".join(ts.text(node).split())
    return text if _DOTTED.fullmatch(text) else None


def _enclosing(node: ts.Node) -> tuple[str | None, list[str]]:
    """(kind of the innermost class/function around `node`, names of the enclosing scopes)."""
    kind, names = None, []
    parent = node.parent
    while parent is not None:
        if parent.type in _SCOPES:
            if kind is None:
                kind = parent.type
            name = parent.child_by_field_name("name")
            if name is not None:
                names.append(ts.text(name))
        parent = parent.parent
    return kind, names[::-1]


class _Scopes:
    """`_enclosing` from the captured class and function definitions' byte ranges: a bisect and a
    step or two up a table, instead of a `node.parent` (a new Python object) per level of the tree.
    Only for a tree without errors, where byte ranges nest exactly as the nodes do."""

    def __init__(self, groups: dict[str, list[ts.Node]]) -> None:
        rows = [(node.start_byte, -node.end_byte, i, kind, node)
                for kind in _SCOPES for i, node in enumerate(groups.get(_CAPTURE[kind], ()))]
        rows.sort(key=lambda row: row[:3])
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.parents: list[int] = []
        self.found: list[tuple[str, list[str]]] = []  # per scope: (its kind, names from the outside in)
        open_scopes: list[int] = []
        for start, negative_end, _, kind, node in rows:
            while open_scopes and self.ends[open_scopes[-1]] <= start:
                open_scopes.pop()
            parent = open_scopes[-1] if open_scopes else -1
            outer = self.found[parent][1] if parent >= 0 else []
            self.starts.append(start)
            self.ends.append(-negative_end)
            self.parents.append(parent)
            self.found.append((kind, [*outer, ts.text(node.child_by_field_name("name"))]))
            open_scopes.append(len(self.starts) - 1)

    def enclosing(self, node: ts.Node) -> tuple[str | None, list[str]]:
        start, end = node.start_byte, node.end_byte
        at = bisect_right(self.starts, start) - 1
        while at >= 0 and (self.ends[at] < end or (self.starts[at] == start and self.ends[at] == end)):
            at = self.parents[at]  # not around the node (or the node itself): its enclosing scope may be
        return (self.found[at][0], list(self.found[at][1])) if at >= 0 else (None, [])


_CAPTURE = {"class_definition": "definition.class", "function_definition": "definition.function"}


def _target_name(left: ts.Node, enclosing: Callable[[ts.Node], tuple[str | None, list[str]]] = _enclosing) -> str | None:
    """`x` (or `self.x` for a class-body name: what instances see), `self.x`; else None."""
    if left.type == "identifier":
        kind, _ = enclosing(left)
        name = ts.text(left)
        return f"self.{name}" if kind == "class_definition" else name
    if left.type == "attribute":
        obj = left.child_by_field_name("object")
        attr = left.child_by_field_name("attribute")
        if obj is not None and attr is not None and obj.type == "identifier" and ts.text(obj) == "self":
            return f"self.{ts.text(attr)}"
    return None


def member_facts(groups: dict[str, list[ts.Node]], has_error: bool = True) -> dict[str, Any]:
    enclosing = _enclosing if has_error else _Scopes(groups).enclosing
    types: dict[str, set[str]] = defaultdict(set)
    for node in groups.get("bind", ()):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        name = _target_name(left, enclosing) if left is not None else None
        callee = _dotted(right.child_by_field_name("function")) if right is not None else None
        if name and callee and node.child_by_field_name("type") is None:
            types[name].add(callee + "()")
    for node in groups.get("annotated", ()):
        left, annotation = node.child_by_field_name("left"), node.child_by_field_name("type")
        name = _target_name(left, enclosing) if left is not None else None
        written = written_type(ts.text(annotation)) if annotation is not None else None
        if name and written:
            types[name].add(written)
    for node in groups.get("param.type", ()):
        parameter = node.parent
        name = parameter.child_by_field_name("name") if parameter.type == "typed_default_parameter" else next(
            (c for c in parameter.named_children if c.type == "identifier"), None)
        written = written_type(ts.text(node))
        if name is not None and written:
            types[ts.text(name)].add(written)
    for node in groups.get("decorated", ()):
        definition = node.child_by_field_name("definition")
        decorator = next((c for c in node.named_children if c.type == "decorator"), None)
        if definition is None or decorator is None or definition.type != "function_definition":
            continue
        if enclosing(node)[0] is not None:
            continue  # a method's decorator (@property, @classmethod) says nothing about a variable
        expression = decorator.named_children[0] if decorator.named_child_count else None
        if expression is not None and expression.type == "call":
            expression = expression.child_by_field_name("function")
        written = _dotted(expression)
        if written and written.rsplit(".", 1)[-1] not in ("staticmethod", "classmethod", "property", "overload"):
            types[ts.text(definition.child_by_field_name("name"))].add("@" + written)
    returns: dict[str, str] = {}
    # In document order: `captures` promises no order within a name (it varied from run to run),
    # and the last of several definitions (`@overload`s, then the real one) is the one that counts.
    for node in ts.in_order(groups.get("returns", ())):
        written = written_type(ts.text(node))
        function = node.parent
        if written and function is not None:
            _, scopes = enclosing(function)
            returns[".".join([*scopes, ts.text(function.child_by_field_name("name"))])] = written
    bases: dict[str, list[str]] = {}
    for node in ts.in_order(groups.get("bases", ())):
        # `Base[str]` (a generic base) is the class `Base`; keyword arguments (`metaclass=`) are not bases
        written = [d for d in (_dotted(c.child_by_field_name("value") if c.type == "subscript" else c)
                               for c in node.named_children) if d]
        cls = node.parent
        if written and cls is not None:
            _, scopes = enclosing(cls)
            bases[".".join([*scopes, ts.text(cls.child_by_field_name("name"))])] = written
    oncall: set[str] = set()
    for node in groups.get("oncall", ()):
        call = node.parent.child_by_field_name("object")
        callee = _dotted(call.child_by_field_name("function")) if call is not None else None
        if callee:
            oncall.add(f"{callee}>{ts.text(node)}")
    untyped = {ts.text(n) for n in groups.get("untyped", ())}
    extra: dict[str, Any] = {}
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
    return extra
