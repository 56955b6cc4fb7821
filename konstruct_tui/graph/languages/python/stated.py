"""What a Python statement states about a value, read from its syntax tree at extraction time
(`members/facts.py` files the results): what a `return`, `except ... as` target or
conditional value is written as (a `records.Written`: `CallResult`, `SameAs`, `SELF`, `UNTYPED`...), and a
chain of calls spelled without its arguments."""

from __future__ import annotations

import builtins
import re

from ... import treesitter as ts
from ..fields import field
from .records import SELF, UNTYPED, Annotation, CallResult, Either, Name, SameAs, Written, head_of

DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
BUILTINS = frozenset(dir(builtins))  # `except ValueError as e`: no project class, nothing to type


def dotted(node: ts.Node | None) -> str | None:
    if node is None or node.type not in ("identifier", "attribute"):
        return None
    text = "".join(ts.text(node).split())
    return text if DOTTED.fullmatch(text) else None


def caught(name: ts.Node) -> Annotation | None:
    """`except T as e` (`e` the captured name): the class `e` holds an instance of (or of a
    subclass, as an annotation would say); None for a builtin exception or a tuple of classes."""
    target = name.parent
    pattern = target.parent if target is not None else None
    value = pattern.named_children[0] if pattern is not None and pattern.type == "as_pattern" else None
    if value is not None and value.type == "parenthesized_expression" and value.named_child_count == 1:
        value = value.named_children[0]  # `except (Invalid) as err`
    written = dotted(value)
    return None if not written or written.partition(".")[0] in BUILTINS else Annotation(written)


def stated(node: ts.Node | None, in_function: bool = True) -> Written | None:
    """What a `return` or `yield` value states, written as a binding's type is: `Console()`,
    `= name`, `= self.x`, SELF (`return self`, `return cls(...)` in a classmethod); None for no value
    or `None`; UNTYPED for anything else. `in_function`: `cls(...)` may be read as a classmethod's
    class (the enclosing function is looked up only then)."""
    if node is None or node.type == "none":
        return None
    kind = node.type
    if kind == "identifier":
        text = ts.text(node)
        return SELF if text == "self" else SameAs(text)
    if kind == "attribute":
        path = dotted(node)
        return SameAs(path) if path else UNTYPED
    if kind == "await" and node.named_child_count:
        node = node.named_children[0]
        kind = node.type
    if kind == "call":
        callee = dotted(node.child_by_field_name("function"))
        if callee == "cls":
            defined = function_of(node) if in_function else None
            decorated = defined.parent if defined is not None else None
            if decorated is not None and decorated.type == "decorated_definition" and any(
                    ts.text(d).strip() == "@classmethod" for d in decorated.named_children if d.type == "decorator"):
                return SELF
            return UNTYPED
        return CallResult(callee) if callee else UNTYPED
    return UNTYPED


def either(node: ts.Node) -> Written | None:
    """`URL(url) if params is None else URL(url, params=params)`: `URL()`; with two different
    calls or names, an `Either` of both (`Text.from_markup(t) if ... else t.copy()`: what each
    gives; resolution needs both typed). A `None` branch is left aside, as `Optional[T]` is `T`."""
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type != "conditional_expression" or node.named_child_count != 3:
        return None
    found: list[CallResult | SameAs] = []
    for branch in (node.named_children[0], node.named_children[2]):
        if branch.type == "none":
            continue
        written: CallResult | SameAs | None
        if branch.type == "call":
            callee = dotted(branch.child_by_field_name("function"))
            written = CallResult(callee) if callee else None
        else:
            path = dotted(branch)
            written = SameAs(path) if path else None
        if written is None:
            return None
        found.append(written)
    distinct = tuple(dict.fromkeys(found))
    if not distinct:
        return None
    return distinct[0] if len(distinct) == 1 else Either(distinct)


def call_chain(node: ts.Node, depth: int = 0) -> list[tuple[str, bool]] | None:
    """`App(x).runner().invoke` -> the links App (called), runner (called), invoke: names and calls
    only; None for any other receiver (a subscript, a literal, a call of a call's result)."""
    kind = node.type
    if kind == "identifier":
        return [(ts.text(node), False)]
    if depth > 16:
        return None
    if kind == "attribute":
        head = call_chain(field(node, "object"), depth + 1)
        if head is not None:
            head.append((ts.text(field(node, "attribute")), False))
        return head
    if kind == "call":
        head = call_chain(field(node, "function"), depth + 1)
        if head is None or head[-1][1]:
            return None  # `f()()`: what a call's result returns is not followed
        head[-1] = (head[-1][0], True)
        return head
    return None


def may_type(written: Written, types: dict[Name, set[Written]], imported: set[str]) -> bool:
    """Whether a returned value can name a class at all: not UNTYPED, not a builtin's result
    (`len(x)`), not a name the file states no type for (stored facts stay small)."""
    if written == UNTYPED:
        return False
    if written == SELF:
        return True
    head = head_of(written)
    if head in types or head in imported:
        return True
    called = isinstance(written, CallResult)
    path = written.callee if isinstance(written, CallResult) else written.path if isinstance(written, SameAs) else ""
    if head == "self" or head == "cls":
        return ("." in path and f"self.{path.split('.')[1]}" in types) or called
    return called and head not in BUILTINS


def function_of(node: ts.Node) -> ts.Node | None:
    parent = node.parent
    while parent is not None and parent.type != "function_definition":
        parent = parent.parent
    return parent
