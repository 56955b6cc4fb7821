"""What a Java file says about types beyond their names: member signatures, supertypes and
variable types (the records of `member_facts.py`; `callsites.py` writes the call chains).

Why: a compiled class depends on every type in the descriptor of each method it calls
(`a.builder().get()` depends on the builder's class even though no source line names it), which
is what jdeps and the JVM see. A name-only graph misses those edges; this is the little type
information needed to find most of them, without a compiler. Everything is erased (generics,
arrays, annotations dropped) because descriptors are erased.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable

from ... import treesitter as ts
from ..fields import name_of
from .member_facts import PRIMITIVE, JavaMemberFacts, Signature

_GENERICS = re.compile(r"<[^<>]*>")
_ANNOTATION = re.compile(r"@[\w.]+(?:\([^()]*\))?")
_PRIMITIVES = frozenset({"int", "long", "short", "byte", "char", "boolean", "float", "double"})
_PARAMETER_TYPES = ("formal_parameter", "spread_parameter")


def erased(node: ts.Node | None) -> str:
    """The erased type a type node names (`Map<K, V>[]` -> `Map`), PRIMITIVE, or "" (void, `var`)."""
    if node is None:
        return ""
    text = ts.text(node)
    if node.type == "type_identifier" or node.type == "scoped_type_identifier" and " " not in text:
        return text  # the common case needs no rewriting
    text = _ANNOTATION.sub("", text)
    previous = None
    while previous != text:
        previous, text = text, _GENERICS.sub("", text)
    text = "".join(text.split()).replace("[]", "").replace("...", "")
    if text in _PRIMITIVES:
        return PRIMITIVE
    return "" if text in ("void", "var") else text


def _parameter_type(node: ts.Node) -> str:
    if node.type == "spread_parameter":
        return erased(
            next((c for c in node.named_children if c.type not in ("modifiers", "variable_declarator")), None)
        )
    return erased(node.child_by_field_name("type"))


def _type_parameters(node: ts.Node, outer: dict[str, str]) -> dict[str, str]:
    """Type variables in scope -> their erasure (the first bound, or "" for Object): a descriptor
    names `BaseNCodec` where the source wrote `C extends BaseNCodec`."""
    declared = node.child_by_field_name("type_parameters")
    if declared is None:
        return outer
    scope = dict(outer)
    for parameter in declared.named_children:
        if parameter.type != "type_parameter":
            continue
        name = next((ts.text(c) for c in parameter.named_children if c.type in ("type_identifier", "identifier")), "")
        bound = next((c for c in parameter.named_children if c.type == "type_bound"), None)
        first = bound.named_children[0] if bound is not None and bound.named_child_count else None
        scope[name] = scope.get(erased(first), erased(first)) if first is not None else ""
    return scope


def _signature(node: ts.Node, variables: dict[str, str]) -> tuple[str, Signature]:
    variables = _type_parameters(node, variables)

    def kind(type_node: ts.Node | None) -> str:
        written = erased(type_node)
        return variables.get(written, written)

    parameters = node.child_by_field_name("parameters")
    params = [c for c in parameters.named_children if c.type in _PARAMETER_TYPES] if parameters is not None else []
    varargs = bool(params) and params[-1].type == "spread_parameter"
    param_types = tuple(variables.get(t, t) for t in (_parameter_type(p) for p in params))
    if node.type in ("constructor_declaration", "compact_constructor_declaration"):
        return "<init>", Signature(len(params), varargs, "", param_types)
    name = name_of(node)
    return name, Signature(len(params), varargs, kind(node.child_by_field_name("type")), param_types)


def _supertypes(node: ts.Node) -> list[str]:
    found = []
    for child in node.named_children:
        if child.type == "superclass":
            found += [erased(c) for c in child.named_children]
        elif child.type in ("super_interfaces", "extends_interfaces"):
            for type_list in child.named_children:
                found += [erased(c) for c in type_list.named_children]
    return [f for f in found if f]


def _record_members(node: ts.Node, members: dict[str, list[Signature]]) -> None:
    parameters = node.child_by_field_name("parameters")
    components = [c for c in parameters.named_children if c.type == "formal_parameter"] if parameters else []
    types = tuple(erased(c.child_by_field_name("type")) for c in components)
    members["<init>"].append(Signature(len(types), False, "", types))
    for component, kind in zip(components, types):
        name = name_of(component)
        members[name].append(Signature(0, False, kind))
        members[name].append(Signature(-1, False, kind))


def type_info(types: list[tuple[int, int, str, ts.Node]], members_of: list[tuple[str, ts.Node]]) -> JavaMemberFacts:
    """Members and supertypes per type. `types`: (start, end, qualified name, node) of declared
    types; `members_of`: (qualified name of the owning type, member node) pairs."""
    members: dict[str, dict[str, list[Signature]]] = defaultdict(lambda: defaultdict(list))
    supertypes: dict[str, list[str]] = {}
    type_variables: dict[str, dict[str, str]] = {}
    public_types: list[str] = []
    hidden_classes: set[str] = set()
    bridged: dict[str, list[str]] = defaultdict(list)
    for _, _, name, node in types:  # outer types come first: document order
        type_variables[name] = _type_parameters(node, type_variables.get(name.rpartition(".")[0], {}))
        supertypes[name] = _supertypes(node)
        if "public" in _modifiers(node):
            public_types.append(name)
        elif node.type == "class_declaration":
            hidden_classes.add(name)
        if node.type == "record_declaration":
            _record_members(node, members[name])
        if node.type == "enum_declaration":
            members[name]["valueOf"].append(Signature(1, False, name.rsplit(".", 1)[-1], ("String",)))
            members[name]["values"].append(Signature(0, False, name.rsplit(".", 1)[-1]))
    for owner, node in members_of:
        variables = type_variables.get(owner, {})
        if node.type in ("field_declaration", "constant_declaration"):
            written = erased(node.child_by_field_name("type"))
            for declarator in node.children_by_field_name("declarator"):
                members[owner][name_of(declarator)].append(
                    Signature(-1, False, variables.get(written, written))
                )
        elif node.type == "enum_constant":
            members[owner][name_of(node)].append(Signature(-1, False, owner.rsplit(".", 1)[-1]))
        else:
            name, signature = _signature(node, variables)
            members[owner][name].append(signature)
            if owner in hidden_classes and node.type == "method_declaration" and _is_public_instance(node):
                bridged[owner].append(name)
    return JavaMemberFacts(
        members={t: {name: tuple(signatures) for name, signatures in m.items()} for t, m in members.items()},
        supertypes={t: tuple(s) for t, s in supertypes.items() if s},
        public_types=tuple(public_types),
        bridged={t: tuple(sorted(set(names))) for t, names in bridged.items()},
    )


def _modifiers(node: ts.Node) -> set[str]:
    modifiers = next((c for c in node.children if c.type == "modifiers"), None)
    return {c.type for c in modifiers.children} if modifiers is not None else set()


def _is_public_instance(node: ts.Node) -> bool:
    words = _modifiers(node)
    return "public" in words and "static" not in words


_METHODS = frozenset({"method_declaration", "constructor_declaration", "compact_constructor_declaration"})
_TYPE_BODIES = frozenset({"class_body", "interface_body", "enum_body", "enum_body_declarations",
                          "annotation_type_body", "record_declaration", "program"})


def enclosing_method(node: ts.Node) -> tuple[int, int] | None:
    """The byte range of the method or constructor whose body declares `node` (None: a field)."""
    parent = node.parent
    while parent is not None and parent.type not in _TYPE_BODIES:
        if parent.type in _METHODS:
            return parent.start_byte, parent.end_byte
        parent = parent.parent
    return None


def variables(groups: dict[str, list[ts.Node]],
              scoped: dict[tuple[int, int], dict[str, set[str]]] | None = None) -> dict[str, tuple[str, ...]]:
    """Declared types by name across the file; with `scoped`, also per method (a local `req` of one
    method is not the `req` of the next)."""
    found: dict[str, set[str]] = defaultdict(set)

    def add(name_node: ts.Node | None, kind: str) -> None:
        if name_node is not None and kind:
            found[ts.text(name_node)].add(kind)
            method = enclosing_method(name_node) if scoped is not None else None
            if method is not None and scoped is not None:
                scoped.setdefault(method, defaultdict(set))[ts.text(name_node)].add(kind)

    for node in groups.get("variable", ()):
        if node.type in ("local_variable_declaration", "field_declaration", "constant_declaration"):
            kind = erased(node.child_by_field_name("type"))
            for declarator in node.children_by_field_name("declarator"):
                value = declarator.child_by_field_name("value")
                if not kind and value is not None and value.type == "object_creation_expression":
                    add(
                        declarator.child_by_field_name("name"), erased(value.child_by_field_name("type"))
                    )  # `var x = new T()`
                else:
                    add(declarator.child_by_field_name("name"), kind)
        elif node.type == "spread_parameter":
            spread = next((c for c in node.named_children if c.type == "variable_declarator"), None)
            add(spread.child_by_field_name("name") if spread else None, _parameter_type(node))
        elif node.type == "catch_formal_parameter":
            catch_type = next((c for c in node.named_children if c.type == "catch_type"), None)
            for alternative in catch_type.named_children if catch_type else ():
                add(node.child_by_field_name("name"), erased(alternative))
        elif node.type == "instanceof_expression":
            add(node.child_by_field_name("name"), erased(node.child_by_field_name("right")))
        else:  # formal_parameter, enhanced_for_statement, resource
            add(node.child_by_field_name("name"), erased(node.child_by_field_name("type")))
    _lambda_parameters(groups, add)
    return {name: tuple(sorted(kinds)) for name, kinds in found.items()}


# A lambda's parameters are typed by its target: the type arguments of a functional interface the
# declaration writes (which argument each parameter takes), or a collection's element type for
# `xs.forEach(x -> ...)` / `xs.removeIf(x -> ...)` and a map's key and value for `m.forEach((k, v) -> ...)`.
_FUNCTIONAL = {
    "Function": (0,), "BiFunction": (0, 1), "Consumer": (0,), "BiConsumer": (0, 1), "Predicate": (0,),
    "BiPredicate": (0, 1), "UnaryOperator": (0,), "BinaryOperator": (0, 0), "Comparator": (0, 0),
    "ToIntFunction": (0,), "ToLongFunction": (0,), "ToDoubleFunction": (0,),
}
_COLLECTIONS = frozenset({"List", "ArrayList", "LinkedList", "Collection", "Set", "HashSet", "LinkedHashSet",
                          "TreeSet", "SortedSet", "NavigableSet", "Iterable", "Queue", "Deque", "ArrayDeque"})
_MAPS = frozenset({"Map", "HashMap", "LinkedHashMap", "TreeMap", "SortedMap", "NavigableMap", "ConcurrentMap",
                   "ConcurrentHashMap"})


def _type_arguments(node: ts.Node | None) -> tuple[str, list[str]]:
    """`Map<String, ? extends Option>` -> ("Map", ["String", "Option"])."""
    if node is None or node.type != "generic_type":
        return "", []
    base = next((c for c in node.named_children if c.type in ("type_identifier", "scoped_type_identifier")), None)
    listing = next((c for c in node.named_children if c.type == "type_arguments"), None)
    arguments = []
    for written in listing.named_children if listing is not None else ():
        argument = next((c for c in written.named_children if c.type not in ("super",)), None) \
            if written.type == "wildcard" else written
        arguments.append(erased(argument) if argument is not None else "")
    return (ts.text(base).rsplit(".", 1)[-1] if base is not None else ""), arguments


def _lambda_parameters(groups: dict[str, list[ts.Node]], add: Callable[[ts.Node | None, str], None]) -> None:
    generic: dict[str, ts.Node | None] = {}
    for node in groups.get("variable", ()):
        kind = node.child_by_field_name("type")
        names = [d.child_by_field_name("name") for d in node.children_by_field_name("declarator")] \
            if node.type.endswith("declaration") else [node.child_by_field_name("name")]
        for name in names:
            if name is not None and kind is not None:
                text = ts.text(name)
                generic[text] = kind if text not in generic else None  # declared twice: unknown
    for node in groups.get("lambda", ()):
        parameters = node.child_by_field_name("parameters")
        if parameters is None:
            continue
        names = [parameters] if parameters.type == "identifier" else \
            [c for c in parameters.named_children if c.type == "identifier"] if parameters.type == "inferred_parameters" \
            else []
        if not names:
            continue  # typed parameters are formal parameters, declared already
        written: list[str] = []
        parent = node.parent
        if parent is not None and parent.type == "variable_declarator":
            base, arguments = _type_arguments(parent.parent.child_by_field_name("type") if parent.parent else None)
            picks = _FUNCTIONAL.get(base, ())
            written = [arguments[i] if i < len(arguments) else "" for i in picks]
        elif parent is not None and parent.type == "argument_list" and parent.named_child_count == 1:
            call = parent.parent
            method = name_of(call) if call is not None and call.type == "method_invocation" else ""
            receiver = call.child_by_field_name("object") \
                if call is not None and method in ("forEach", "removeIf") else None
            if receiver is not None and receiver.type == "identifier":
                base, arguments = _type_arguments(generic.get(ts.text(receiver)))
                collection = base in _COLLECTIONS and len(arguments) == 1
                if collection or (base in _MAPS and len(arguments) == 2 and method == "forEach"):
                    written = arguments
        if len(written) == len(names):
            for parameter, parameter_type in zip(names, written):
                if parameter_type and parameter_type != PRIMITIVE:
                    add(parameter, parameter_type)
