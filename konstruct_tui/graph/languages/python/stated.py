"""What a Python statement states about a value, read from its syntax tree at extraction time
(`members/facts.py` files the results): what a `return`, `except ... as` target or
conditional value is written as, and a chain of calls spelled without its arguments. The written forms are those of the member facts:
"Console()" (what a call gives), "=name" (what another name holds), SELF, UNTYPED."""

from __future__ import annotations

import builtins
import re

from ... import treesitter as ts

DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
SELF = "Self"  # a method's return: the instance it was called on
UNTYPED = "?"  # a binding of the name that states no type (a bare parameter, `x = a or b`, a loop target)
# The one key of the member facts of a file extracted without them (`konstruct index` alone): its
# member uses are the member tier's to resolve, and nothing is told of them before.
DEFERRED = "deferred"
BUILTINS = frozenset(dir(builtins))  # `except ValueError as e`: no project class, nothing to type


def dotted(node: ts.Node | None) -> str | None:
    if node is None or node.type not in ("identifier", "attribute"):
        return None
    text = "".join(node.text.decode("utf-8", "replace").split())  # parsed from bytes: never None
    return text if DOTTED.fullmatch(text) else None


def caught(name: ts.Node) -> str | None:
    """`except T as e` (`e` the captured name): "T", the class `e` holds an instance of (or of a
    subclass, as an annotation would say); None for a builtin exception or a tuple of classes."""
    target = name.parent
    pattern = target.parent if target is not None else None
    value = pattern.named_children[0] if pattern is not None and pattern.type == "as_pattern" else None
    if value is not None and value.type == "parenthesized_expression" and value.named_child_count == 1:
        value = value.named_children[0]  # `except (Invalid) as err`
    written = dotted(value)
    return None if not written or written.partition(".")[0] in BUILTINS else written


def stated(node: ts.Node | None, in_function: bool = True) -> str | None:
    """What a `return` or `yield` value states, written as a binding's type is: "Console()",
    "=name", "=self.x", SELF (`return self`, `return cls(...)` in a classmethod); None for no value
    or `None`; UNTYPED for anything else. `in_function`: `cls(...)` may be read as a classmethod's
    class (the enclosing function is looked up only then)."""
    if node is None or node.type == "none":
        return None
    kind = node.type
    if kind == "identifier":
        text = ts.text(node)
        return SELF if text == "self" else f"={text}"
    if kind == "attribute":
        path = dotted(node)
        return f"={path}" if path else UNTYPED
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
        return callee + "()" if callee else UNTYPED
    return UNTYPED


def either(node: ts.Node) -> str | None:
    """`URL(url) if params is None else URL(url, params=params)`: "URL()"; with two different
    calls or names, both joined by "^" (`Text.from_markup(t) if ... else t.copy()`: what each
    gives; resolution needs both typed). A `None` branch is left aside, as `Optional[T]` is `T`."""
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type != "conditional_expression" or node.named_child_count != 3:
        return None
    found = []
    for branch in (node.named_children[0], node.named_children[2]):
        if branch.type == "none":
            continue
        if branch.type == "call":
            callee = dotted(branch.child_by_field_name("function"))
            written = callee + "()" if callee else None
        else:
            path = dotted(branch)
            written = "=" + path if path else None
        if written is None:
            return None
        found.append(written)
    return "^".join(dict.fromkeys(found)) or None


def call_chain(node: ts.Node, depth: int = 0) -> str | None:
    """`App(x).runner().invoke` -> "App().runner().invoke": names and calls only; None for any
    other receiver (a subscript, a literal)."""
    kind = node.type
    if kind == "identifier":
        return ts.text(node)
    if depth > 16:
        return None
    if kind == "attribute":
        head = call_chain(node.child_by_field_name("object"), depth + 1)
        return f"{head}.{ts.text(node.child_by_field_name('attribute'))}" if head else None
    if kind == "call":
        head = call_chain(node.child_by_field_name("function"), depth + 1)
        return f"{head}()" if head else None
    return None


def may_type(written: str, types: dict[str, set[str]], imported: set[str]) -> bool:
    """Whether a returned value can name a class at all: not UNTYPED, not a builtin's result
    (`len(x)`), not a name the file states no type for (stored facts stay small)."""
    if written == UNTYPED:
        return False
    if written == SELF:
        return True
    body = written.removeprefix("=")
    head, _, rest = body.partition(".")
    head = head.partition("(")[0]
    if head in types or head in imported:
        return True
    if head == "self" or head == "cls":
        return f"self.{rest.partition('.')[0].partition('(')[0]}" in types or written.endswith("()")
    return written.endswith("()") and head not in BUILTINS


def function_of(node: ts.Node) -> ts.Node | None:
    parent = node.parent
    while parent is not None and parent.type != "function_definition":
        parent = parent.parent
    return parent
