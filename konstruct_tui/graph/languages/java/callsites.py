"""Java call sites as chains the resolver can type (`calls.py`), grouped by the innermost
named type around them (what `this` means there). A chain is a head and steps
(`member_facts.Chain`): `a.b().c(1, "x")` is the name `a`, the call `b()`, then the call `c`
with the argument hints (PRIMITIVE, "String").
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict

from ... import treesitter as ts
from ..fields import name_of
from .member_facts import PRIMITIVE, Chain, Head, HeadKind, Step, StepKind
from .signatures import enclosing_method, erased

_PRIMITIVE_LITERALS = frozenset(
    {
        "decimal_integer_literal",
        "hex_integer_literal",
        "octal_integer_literal",
        "binary_integer_literal",
        "decimal_floating_point_literal",
        "hex_floating_point_literal",
        "character_literal",
        "true",
        "false",
    }
)


Scoped = dict[tuple[int, int], dict[str, set[str]]]

# While a file is read, a chain is plain tuples, (head, steps) of (kind, name, hints): a call site
# builds one per receiver along it, and a file repeats its calls, so they must be cheap to make
# and to compare; each distinct one becomes a `member_facts.Chain` once (`_chains`).
HeadToken = tuple[HeadKind, str, tuple[str, ...]]
StepToken = tuple[StepKind, str, tuple[str, ...]]
Tokens = tuple[HeadToken, tuple[StepToken, ...]]
Found = dict[str, dict[Tokens, None]]  # innermost type -> its chains, in document order


def _then(chain: Tokens, step: StepToken) -> Tokens:
    return chain[0], (*chain[1], step)


def _chains(found: Found) -> dict[str, tuple[Chain, ...]]:
    heads: dict[HeadToken, Head] = {}
    steps: dict[StepToken, Step] = {}  # a file makes the same calls again and again: one record each

    def chain(tokens: Tokens) -> Chain:
        head = heads.get(tokens[0])
        if head is None:
            head = heads[tokens[0]] = Head(*tokens[0])
        made = []
        for token in tokens[1]:
            step = steps.get(token)
            if step is None:
                step = steps[token] = Step(*token)
            made.append(step)
        return Chain(head, tuple(made))

    return {owner: tuple(map(chain, chains)) for owner, chains in found.items()}


class _Reader:
    def __init__(self, variables: dict[str, tuple[str, ...]], scoped: Scoped | None = None) -> None:
        self.variables = variables
        self.scoped = scoped or {}

    def local(self, node: ts.Node) -> str | None:
        """The type the enclosing method declares for identifier `node`, when it declares one."""
        method = enclosing_method(node) if self.scoped else None
        declared = self.scoped.get(method, {}).get(ts.text(node), ()) if method else ()
        return next(iter(declared)) if len(declared) == 1 and "var" not in declared else None

    def hint(self, node: ts.Node) -> str:
        kind = node.type
        if kind in _PRIMITIVE_LITERALS:
            return PRIMITIVE
        if kind in ("string_literal", "text_block"):
            return "String"
        if kind in ("lambda_expression", "method_reference"):
            return "λ"
        if kind == "class_literal":
            return "Class"
        if kind == "identifier":
            local = self.local(node)
            declared = [local] if local else self.variables.get(ts.text(node), ())
            return declared[0] if len(declared) == 1 else "?"
        if kind in ("object_creation_expression", "cast_expression"):
            return erased(node.child_by_field_name("type")) or "?"
        if kind == "parenthesized_expression" and node.named_child_count == 1:
            return self.hint(node.named_children[0])
        return "?"

    def arguments(self, arguments: ts.Node | None) -> tuple[str, ...]:
        """A rough type per argument (see `member_facts.Step`)."""
        return tuple(self.hint(a) for a in arguments.named_children) if arguments is not None else ()

    def receiver(self, node: ts.Node | None, depth: int = 0) -> Tokens | None:
        """The receiver expression as steps, or None when it is not something we can type."""
        if node is None or depth > 40:  # builder chains run long
            return None
        kind = node.type
        if kind == "identifier":
            local = self.local(node)
            return (("cast", local, ()), ()) if local and local != PRIMITIVE else (("name", ts.text(node), ()), ())
        if kind == "this":
            return ("this", "", ()), ()
        if kind == "super":
            return ("super", "", ()), ()
        if kind == "field_access":
            inner = self.receiver(node.child_by_field_name("object"), depth + 1)
            field = node.child_by_field_name("field")
            return None if inner is None or field is None else _then(inner, ("field", ts.text(field), ()))
        if kind == "method_invocation":
            return self.call(node, depth + 1)
        if kind == "object_creation_expression":
            created = erased(node.child_by_field_name("type"))
            return (("new", created, self.arguments(node.child_by_field_name("arguments"))), ()) if created else None
        if kind == "parenthesized_expression" and node.named_child_count == 1:
            return self.receiver(node.named_children[0], depth + 1)
        if kind == "cast_expression":
            cast = erased(node.child_by_field_name("type"))
            return (("cast", cast, ()), ()) if cast and cast != PRIMITIVE else None
        if kind in ("type_identifier", "scoped_type_identifier", "generic_type"):
            written = erased(node)
            return (("name", written, ()), ()) if written else None
        return None

    def call(self, node: ts.Node, depth: int = 0) -> Tokens | None:
        name = name_of(node)
        receiver = node.child_by_field_name("object")
        head: Tokens | None = (("unqualified", "", ()), ()) if receiver is None else self.receiver(receiver, depth)
        if head is None:
            return None
        return _then(head, ("call", name, self.arguments(node.child_by_field_name("arguments"))))

    def reference(self, node: ts.Node) -> Tokens | None:
        parts = node.named_children
        if len(parts) < 2 or parts[-1].type != "identifier":
            return None  # `Foo::new` is a constructor reference: its type is already a use
        head = self.receiver(parts[0])
        return None if head is None else _then(head, ("reference", ts.text(parts[-1]), ()))


def calls(
    groups: dict[str, list[ts.Node]], types: list[tuple[int, int, str, ts.Node]],
    variables: dict[str, tuple[str, ...]], untyped: set[str] | None = None, scoped: Scoped | None = None,
) -> dict[str, tuple[Chain, ...]]:
    """Chains per innermost type. `untyped` collects the names of methods called on receivers no
    chain can express (`items[0].run()`): by-name evidence, nothing can prove whose method they are."""
    reader = _Reader(variables, scoped)
    starts = [t[0] for t in types]
    found: Found = defaultdict(dict)
    sites = [(n, reader.call(n)) for n in groups.get("call", ())]
    sites += [(n, reader.reference(n)) for n in groups.get("reference", ())]
    sites += [(n, reader.receiver(n)) for n in groups.get("new", ())]
    for node, chain in sites:
        _place(node, chain, found, starts, types, untyped)
    return _chains(found)


def field_uses(groups: dict[str, list[ts.Node]], types: list[tuple[int, int, str, ts.Node]],
               variables: dict[str, tuple[str, ...]], scoped: Scoped | None = None) -> dict[str, tuple[Chain, ...]]:
    """Chains of the fields read or written outside call chains (`builder.excluder`,
    `Strictness.LEGACY_STRICT`), and of enum constants in `case` labels (`case NAME:` names
    `JsonToken.NAME` when the switch is on a JsonToken): member uses, never descriptor types."""
    reader = _Reader(variables, scoped)
    starts = [t[0] for t in types]
    found: Found = defaultdict(dict)
    for node in groups.get("chain", ()):
        parent = node.parent
        if node.type != "field_access" or parent is None or (
                parent.type in ("field_access", "method_invocation") and _is_object(parent, node)):
            continue  # the receiver of a longer chain: that chain carries it
        _place(node, reader.receiver(node), found, starts, types, None)
    for node in groups.get("name", ()):
        # A bare name read as a value that the file does not declare: a field of the class or
        # of a supertype (`typeArgument != VOID` in a subclass of TypeName).
        parent = node.parent
        if parent is None or parent.type not in _VALUE_PARENTS or ts.text(node) in variables:
            continue
        other = _VALUE_PARENTS[parent.type]  # the child that names something else
        named = parent.child_by_field_name(other) if other else None
        if named is not None and named.start_byte == node.start_byte:
            continue  # the declared name, the assigned-to name, the element name
        _place(node, (("name", ts.text(node), ()), ()), found, starts, types, None)
    for label in groups.get("case", ()):
        switch = label.parent.parent.parent if label.parent and label.parent.parent else None
        condition = switch.child_by_field_name("condition") if switch is not None else None
        constants = [c for c in label.named_children if c.type == "identifier"]
        if condition is None or not constants:
            continue
        head = reader.receiver(condition)
        if head is None:
            continue
        for constant in constants:
            _place(label, _then(head, ("field", ts.text(constant), ())), found, starts, types, None)
    return _chains(found)


# Where a bare identifier is a value, with the child field naming something else (None: none).
_VALUE_PARENTS = {
    "binary_expression": None, "return_statement": None, "argument_list": None, "parenthesized_expression": None,
    "unary_expression": None, "ternary_expression": None, "array_access": None, "array_initializer": None,
    "cast_expression": None, "instanceof_expression": None, "update_expression": None,
    "expression_statement": None, "element_value_array_initializer": None, "throw_statement": None,
    "assignment_expression": "left", "variable_declarator": "name", "element_value_pair": "key",
}


def _is_object(parent: ts.Node, node: ts.Node) -> bool:
    receiver = parent.child_by_field_name("object")
    return receiver is not None and receiver.start_byte == node.start_byte and receiver.end_byte == node.end_byte


def _place(node: ts.Node, chain: Tokens | None, found: Found, starts: list[int],
           types: list[tuple[int, int, str, ts.Node]], untyped: set[str] | None) -> None:
    """File `chain` under the innermost named type around `node` (what `this` means there)."""
    if chain is None:
        if untyped is not None and node.type == "method_invocation":
            untyped.add(name_of(node))
        return
    position = node.start_byte
    index = bisect_right(starts, position) - 1
    while index >= 0 and types[index][1] <= position:
        index -= 1  # a type ending before the call is a sibling; its enclosing type comes earlier
    if index >= 0:
        found[types[index][2]][chain] = None


def inferred(groups: dict[str, list[ts.Node]], variables: dict[str, tuple[str, ...]],
             scoped: Scoped | None = None) -> dict[str, tuple[Chain, ...]]:
    """`var x = <chain>` (Java 10): name -> the chains of its initializers (`new T()`, `T.of()`,
    `a.b().c()`), which type it when the chains are evaluated."""
    reader = _Reader(variables, scoped)
    found: Found = defaultdict(dict)
    for node in groups.get("variable", ()):
        kind = node.child_by_field_name("type")
        if node.type != "local_variable_declaration" or kind is None or ts.text(kind) != "var":
            continue
        for declarator in node.children_by_field_name("declarator"):
            value, name = declarator.child_by_field_name("value"), declarator.child_by_field_name("name")
            if value is None or name is None:
                continue
            chain = reader.receiver(value)
            if chain is not None:
                found[ts.text(name)][chain] = None
    return _chains(dict(sorted(found.items())))

