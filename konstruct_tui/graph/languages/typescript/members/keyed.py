"""Indexed access typed by a key the call gives, as tsc infers it (facts and resolution).

`function getPlugin<K extends keyof Plugins>(key: K): Exclude<Plugins[K], undefined>`, called as
`getPlugin(PluginPatches)` with `const PluginPatches = "Patches"`: `K` is inferred from the
argument's literal type, so the call is a `Plugins["Patches"]`, and a member used on it is that
property type's member. The same shape types DI containers (`get<K extends keyof Services>(k: K):
Services[K]`), event maps and registries; a parameter typed `M[K]` (`loadPlugin(key,
implementation: Plugins[K])`) types an object literal or callback given for it the same way.

Facts: `keyed` (callable -> a `KeyedReturn`: its return type is `M[K]`, K the type of its
parameter p); a parameter spec `["keyed", M written, p]` (`members/signatures.spec`); the keys a call
gives, as the `keys` of a call `Step` or the `given` of a `ctx` head's `Context`, each a `CallKey`:
a string literal (or a local `const` of one), a name of the module scope (read
where resolved: an import, followed to its definer, or a module-level constant), None for anything
else; `strings` (module-level `const X = "..."` -> its text). A key that is not a literal, or not
a key of M, types nothing: the member stays by-name evidence, never a guess.
"""

from __future__ import annotations

from typing import Any

from .... import treesitter as ts
from ..facts import CALL, CallKey, Chain, KeyedReturn, Step
from .written import SHAPE, TYPEOF, Wrapped, type_parameter, written_type

KEYED = "keyed"
# M[K]'s members, still (a `Promise<T>` return is read as T, awaited, as every written return is)
_KEEP = frozenset({"NonNullable", "Partial", "Required", "Readonly", "Promise"})
_NULLISH = frozenset({"undefined", "null"})
_MAX_ARGUMENTS = 8
_MAX_KEY = 100  # characters of a literal kept as a key


# --- facts ---------------------------------------------------------------------------------------

def indexed(node: Any) -> list[Any] | None:
    """`[M written, p]` when type `node` is `M[K]` (also inside `Exclude<..., undefined>`,
    `NonNullable<...>`, `Partial`/`Required`/`Readonly`, `Promise`, `| undefined`), K a type parameter of
    the enclosing callable constrained to `keyof M` and the type of exactly one parameter p."""
    for _ in range(4):
        if node is None:
            return None
        if node.type == "parenthesized_type":
            node = node.named_children[0] if node.named_child_count else None
        elif node.type == "union_type":
            kept = [c for c in node.named_children if not (c.type == "literal_type" and ts.text(c) in _NULLISH)]
            node = kept[0] if len(kept) == 1 else None
        elif node.type == "generic_type":
            name, arguments = node.child_by_field_name("name"), node.child_by_field_name("type_arguments")
            parts = arguments.named_children if arguments is not None else []
            utility = ts.text(name) if name is not None else ""
            if utility in _KEEP and len(parts) == 1 or utility == "Exclude" and len(parts) == 2 and _nullish(parts[1]):
                node = parts[0]
            else:
                return None
        else:
            break
    if node is None or node.type != "lookup_type" or node.named_child_count != 2:
        return None
    mapped, index = node.named_children
    if index.type != "type_identifier":
        return None
    param = type_parameter(index, ts.text(index))
    constraint = param.child_by_field_name("constraint") if param is not None else None
    keys = _keys_of(constraint.named_children[0]) if constraint is not None and constraint.named_child_count else None
    if keys is None or _bare(ts.text(keys)) != _bare(ts.text(mapped)):
        return None
    written = written_type(Wrapped(mapped))
    if not written or written == "this" or written.startswith(SHAPE) \
            or (not written.startswith(TYPEOF) and type_parameter(mapped, written.partition(".")[0]) is not None):
        return None  # `Events[K]` under `class Emitter<Events>`: instantiated per receiver, not here
    owner = param.parent.parent if param.parent is not None else None
    parameters = owner.child_by_field_name("parameters") if owner is not None else None
    if parameters is None:
        return None
    positions = [p for p in parameters.named_children if p.type in ("required_parameter", "optional_parameter")
                 and (p.child_by_field_name("pattern") is None or p.child_by_field_name("pattern").type != "this")]
    name = ts.text(index)
    typed = [at for at, p in enumerate(positions) if _annotation(p) == name
             and p.child_by_field_name("pattern") is not None and p.child_by_field_name("pattern").type == "identifier"]
    return [written, typed[0]] if len(typed) == 1 else None


def _keys_of(node: Any) -> Any:
    """M of a constraint `keyof M`, `keyof M & string`, `Extract<keyof M, string>`, else None."""
    if node.type == "index_type_query" and node.named_child_count == 1:
        return node.named_children[0]
    if node.type == "intersection_type":
        found = [c for c in node.named_children if not (c.type == "predefined_type" and ts.text(c) == "string")]
        return _keys_of(found[0]) if len(found) == 1 else None
    if node.type == "generic_type":
        name, arguments = node.child_by_field_name("name"), node.child_by_field_name("type_arguments")
        parts = arguments.named_children if arguments is not None else []
        if name is not None and ts.text(name) == "Extract" and len(parts) == 2 and ts.text(parts[1]) == "string":
            return _keys_of(parts[0])
    return None


def _bare(text: str) -> str:
    return text.replace(" ", "").removeprefix("(").removesuffix(")")


def _nullish(node: Any) -> bool:
    if node.type == "union_type":
        return all(_nullish(c) for c in node.named_children)
    return node.type in ("literal_type", "predefined_type") and ts.text(node) in _NULLISH


def _annotation(param: Any) -> str | None:
    annotation = param.child_by_field_name("type")
    node = annotation.named_children[0] if annotation is not None and annotation.named_child_count else None
    return ts.text(node) if node is not None and node.type == "type_identifier" else None


def literal(node: Any) -> str | None:
    """The text of a string literal (`"a"`, `'a'`, `` `a` ``, `"a" as const`), else None."""
    kind = node.type
    if kind == "as_expression" and node.named_child_count == 1:  # `"a" as const`
        node = node.named_children[0]
        kind = node.type
    if kind != "string" and kind != "template_string":
        return None
    parts = node.named_children
    if len(parts) > 1 or (parts and parts[0].type != "string_fragment"):
        return None  # `${x}`, an escape sequence: not read as a key
    text = ts.text(parts[0]) if parts else ""
    return text if len(text) <= _MAX_KEY else None


def call_keys(arguments: Any, lookup: Any) -> list[CallKey | None]:
    """The keys a call's arguments give (see the module doc), trailing nulls dropped."""
    found: list[CallKey | None] = []
    if arguments is None:
        return found
    constant, at = None, -1
    for argument in arguments.named_children:
        kind = argument.type
        if kind == "comment":
            continue
        at += 1
        if kind == "identifier":
            name = ts.text(argument)
            if constant is None:  # `members/scopes.Scopes.constant`: a local's literal
                constant = getattr(lookup, "constant", None) or (lambda node, name: (lookup(node, name)[0], None))
            local, text = constant(argument, name)
            key = CallKey(text, True) if text is not None else None if local else CallKey(name, False)
        elif kind == "string" or kind == "template_string" or kind == "as_expression":
            text = literal(argument)
            key = None if text is None else CallKey(text, True)
        elif kind == "spread_element" or at >= _MAX_ARGUMENTS:
            break  # the positions after a spread are unknown
        else:
            continue
        if key is not None:
            found += [None] * (at - len(found))
            found.append(key)
    return found


def string_constants(declarations: Any) -> dict[str, str]:
    """`strings`: module-level `const X = "..."` (unannotated, or `as const`) of a file."""
    found: dict[str, str] = {}
    for name, node in declarations:
        statement = node.parent
        value = node.child_by_field_name("value")
        if name.type != "identifier" or value is None or node.child_by_field_name("type") is not None \
                or statement is None or statement.type != "lexical_declaration" or statement.children[0].type != "const":
            continue
        text = literal(value)
        if text is not None:
            found[ts.text(name)] = text
    return found


def plain(segments: Chain | None) -> Chain | None:
    """A chain with its calls' keys dropped (two returns `get('a')` and `get('b')` agree on `get()`
    when `get` is no keyed callable)."""
    return None if segments is None else [CALL if type(s) is Step and s.kind == "call" else s for s in segments]


def agreed(chains: list[Chain | None]) -> Chain | None:
    """The one chain all of `chains` give; when they differ only in their calls' keys, that chain
    without keys (what it was before keys were read); else None."""
    first = chains[0]
    if first is None or any(c is None for c in chains):
        return None
    if all(c == first for c in chains):
        return first
    stripped = plain(first)
    return stripped if all(plain(c) == stripped for c in chains) else None


# --- resolution ----------------------------------------------------------------------------------

def key_of(receivers: Any, path: str, given: CallKey | None) -> str | None:
    """The literal an argument written in `path` gives (see `call_keys`), or None."""
    if given is None:
        return None
    if given.literal:
        return given.text
    bound = receivers.bound(path).get(given.text)
    if bound is None:
        where, name = path, given.text
    elif not bound[0] or bound[1] == "*":
        return None
    else:
        found = receivers.definer(*bound)
        if found is None:
            return None
        where, name = found
    return receivers.members(where).strings.get(name)


def keyed_value(receivers: Any, path: str, keyed: KeyedReturn, keys: list[str | None], depth: int) -> Any:
    """What a call of a callable whose return type is `M[K]` gives: property `keys[p]` of M."""
    p = keyed.parameter
    key = keys[p] if p < len(keys) else None
    return property_value(receivers, path, keyed.mapped, key, depth) if key is not None else None


def property_value(receivers: Any, path: str, written: str, key: str, depth: int) -> Any:
    """What property `key` of type `written` (in `path`) is, as a receiver: `M["key"]`."""
    mapped = receivers.written(path, written)
    if mapped is None or mapped[0] != "instance":
        return None
    return receivers.member(mapped, key, depth)


def resolved_spec(receivers: Any, where: str, spec: Any, call_path: str, given: list[CallKey | None], depth: int) -> Any:
    """A parameter spec with each `["keyed", M, p]` replaced by the spec of M's property that
    argument p names (read where it is declared), or None when that cannot be told."""
    if not isinstance(spec, list) or not spec:
        return spec
    if spec[0] == "or":
        return ["or", [resolved_spec(receivers, where, part, call_path, given, depth) for part in spec[1]]]
    if spec[0] != KEYED:
        return spec
    written, p = spec[1], spec[2]
    key = key_of(receivers, call_path, given[p]) if p < len(given) else None
    if key is None:
        return None
    value = property_value(receivers, where, written, key, depth)
    if value is not None and value[0] == "instance" and not value[2].startswith(SHAPE):
        return ["at", value[1], ["ref", value[2]]]
    if "." in written or written.startswith(TYPEOF):
        return None
    # a property whose type is no class-like name (`data: (payload: P) => void`): its declared spec
    declarations = receivers.contexts.property_specs(where, written, key)
    if not declarations:
        return None
    return declarations[0] if len(declarations) == 1 else ["or", declarations]


def has_keyed(spec: Any) -> bool:
    return isinstance(spec, list) and bool(spec) and (
        spec[0] == KEYED or (spec[0] == "or" and any(has_keyed(part) for part in spec[1])))
