"""TypeScript / JavaScript facts about types, for member uses: what the source writes, nothing inferred.

Kept in `FileFacts.extra` (a `facts.TypeScriptMemberFacts`), read by `members/receivers.py`:
- `types`: local, parameter or field name -> the type names written for it (`x: T`, `x = new T()`);
- `assigned`: local -> receiver chains it is assigned from (`const s = string().min(1)`);
- `member_uses`: a `MemberUse` for each member used on a receiver that is not a bare name
  (`this.x.m`, `f().m`, `new T().m`, `(x as T).m`; chains are read by `members/chains.py`), and for
  the keys of each object literal whose position types it (`f({a, b})`);
- `returns`: `Class.method` / `function` / `Class.field` -> the written return or field type
  (`this` for a method declared to return `this`); `Promise<T>` counts as `T` (awaited);
- `returned`: unannotated function or method -> the one chain all its `return`s (or its arrow body)
  give, e.g. `create() { return new StringSchema() }`;
- `keyed`: callable -> its `M[K]` return (`members/keyed.py`); `strings`: module-level string constants;
- `bases`: class or interface -> the types it extends and implements; `objects`: object type
  aliases, with their `records` (`Record<'get' | 'post', V>` parts); `local_classes`: classes
  declared inside functions;
- `untyped`: members used on receivers no chain can follow (`xs[0].m`): by-name evidence;
- `fields`: `Class.field` -> the chain every `this.field = ...` assigns (no declared type);
- `aliases`: `type A = B` -> `B` (a type alias of a class);
- `callables` / `accessors`: class fields holding a function, and getters;
- `params`, `callsigs`, `props`, `literals`: declared signatures (`members/signatures.py`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from itertools import groupby
from operator import itemgetter
from typing import Any

from .... import treesitter as ts
from ..facts import Chain, Head, Segment, member_step, KeyedReturn, LocalClass, MemberUse, RecordPart, TypeScriptMemberFacts
from .chains import (
    MAX_SEGMENTS,
    chain,
    enclosing_class,
)
from .heads import key_uses
from .keyed import agreed, string_constants
from .keyed import indexed as indexed_access
from .scopes import SCOPES, Scopes, scope_of
from .shapes import (
    field_type,
    inline_shapes,
    intersected,
    literal_type,
    local_members,
    member_name,
    narrowing,
    narrowings,
    pattern_keys,
    record_part,
)
from .signatures import signature_facts
from .written import (
    TYPEOF,
    Wrapped,
    bounded,
    property_key,
    written_or_array,
    written_type,
)

_CALLABLE = frozenset({"function_declaration", "generator_function_declaration", "method_definition",
                       "function_signature", "method_signature", "abstract_method_signature"})


def type_facts(found: dict[str, list[Any]], qualifier: Callable[[Any], list[str] | None]) -> TypeScriptMemberFacts:
    types: dict[str, set[str]] = defaultdict(set)
    assigned: dict[str, list[Chain]] = defaultdict(list)
    returns: dict[str, str] = {}
    returned: dict[str, list[Chain | None]] = defaultdict(list)
    bases: dict[str, list[str]] = defaultdict(list)
    scopes = Scopes()
    memo: dict[Any, Any] = {}
    blocks: dict[int, Any] = {}
    module_level = []
    destructured: list[tuple[Any, tuple[str, ...]]] = []  # `{req} = c`, `({req}) => ...`: a use of the property
    for node in found.get("param", ()):
        scope = scope_of(node, blocks)
        if scope is not None:
            scopes.declare(scope, ts.text(node), node)
    for node in found.get("typed", ()):
        name = node.child_by_field_name("name") or node.child_by_field_name("pattern")
        if name is None:
            continue
        if node.type in ("public_field_definition", "property_signature"):
            written = field_type(node)
            prefix = qualifier(node)
            key = ts.text(name.named_children[0]) if name.type == "string" and name.named_child_count == 1 else ts.text(name)
            if written and prefix:
                returns[".".join([*prefix, key])] = written  # `'~adapter': Adapter` is `~adapter`
            continue
        if node.type == "required_parameter" and any(c.type in ("accessibility_modifier", "readonly")
                                                      for c in node.children):
            owner = enclosing_class(node)  # `constructor(private options: Options)`: a field too
            annotation = node.child_by_field_name("type")
            written = written_or_array(annotation)
            written = (bounded(annotation, written) or written) if annotation is not None else written
            if owner and written and written != "this":
                returns[f"{owner}.{ts.text(name)}"] = written
        scope = scope_of(node, blocks)
        if scope is None:
            continue
        if scope.type == "program":
            module_level.append((name, node))
            if name.type == "object_pattern":  # `const {a: {b}} = create()`: the keys are uses too
                destructured += [(node, keys) for _, keys in pattern_keys(name)]
        elif name.type == "identifier":
            scopes.declare(scope, ts.text(name), node)
        elif name.type == "object_pattern":
            for local, keys in pattern_keys(name):
                if local is not None:
                    scopes.declare(scope, local, (node, *keys))
                destructured.append((node, keys))
    for name, node in module_level:
        if name.type == "object_pattern":
            said = scopes.said(node)
            for local, keys in pattern_keys(name):
                if local is not None and said is not None:
                    assigned[local].append([*said, *(member_step(k) for k in keys)])
            continue
        if name.type != "identifier":
            continue
        implemented = literal_type(node)
        if implemented is not None:  # `const a: Adapter = {listen() {...}}`: its members implement Adapter's
            bases[ts.text(name)].append(implemented)
        said = scopes.said(node)
        head = said[0] if said is not None and len(said) == 1 else None
        if isinstance(head, Head) and head.kind == "cast":
            types[ts.text(name)].add(head.name)
        elif said is not None:
            assigned[ts.text(name)].append(said)
    overloaded: set[str] = set()
    keyed: dict[str, KeyedReturn] = {}
    # Document order: of overloads (`string(): ZodString; string<T>(): $ZodType<T>`), the first one
    # says (a call without arguments picks it), not whichever the query happens to list last.
    for node in ts.in_order(found.get("returns", ())):
        owner = node.parent
        if owner.type == "arrow_function":
            owner = owner.parent
        name = owner.child_by_field_name("name") if owner is not None else None
        prefix = qualifier(owner) if name is not None else None
        if prefix is None:
            continue
        key = ".".join([*prefix, property_key(name)])
        if key in overloaded:
            continue
        overloaded.add(key)
        indexed_by = indexed_access(node.named_children[0]) if node.named_child_count else None
        if indexed_by is not None:  # `(key: K): Plugins[K]`: typed by the key each call gives
            keyed[key] = KeyedReturn(*indexed_by)
            continue
        written = bounded(node, written_or_array(node))
        if written:
            returns[key] = written
    for node in found.get("returned", ()):
        owner = node.parent
        while owner is not None and owner.type not in SCOPES:
            owner = owner.parent
        if owner is not None and owner.type == "arrow_function":
            owner = owner.parent
        if owner is None or owner.type not in (*_CALLABLE, "variable_declarator", "public_field_definition"):
            continue
        name = owner.child_by_field_name("name")
        prefix = qualifier(owner) if name is not None else None
        if prefix is not None:
            returned[".".join([*prefix, property_key(name)])].append(chain(node, scopes.lookup, memo))
    local_classes: list[LocalClass] = []
    for node in found.get("heritage", ()):
        owner = node.parent
        name = owner.child_by_field_name("name") if owner is not None else None
        prefix = qualifier(owner) if name is not None else None
        clauses = node.named_children if node.type == "class_heritage" else [node]
        parents = [w for clause in clauses for w in (written_type(Wrapped(part)) for part in clause.named_children)
                   if w and w != "this"]
        if prefix is not None and name is not None:
            bases[".".join([*prefix, ts.text(name)])] += parents
        elif parents and name is not None and owner.type != "interface_declaration":
            # a class inside a function (a test's `class MockMeter implements Meter {...}`): no symbol,
            # but the members it declares implement (override) the bases' ones
            local_classes.append(LocalClass(tuple(parents), tuple(local_members(owner))))
    # `type Got = {extend(): Got} & Record<...> & Callable`: an object type whose members are its
    # own and those of the types it intersects (as an interface's and its bases')
    objects: list[str] = []
    records: dict[str, list[RecordPart]] = defaultdict(list)
    for node in found.get("callsig", ()):
        owner = node.parent
        name = owner.child_by_field_name("name") if node.type in ("object_type", "intersection_type") else None
        prefix = qualifier(owner) if name is not None else None
        if prefix is None or name is None:
            continue
        key = ".".join([*prefix, ts.text(name)])
        objects.append(key)
        for part in intersected(node):
            written = written_type(Wrapped(part)) if part.type != "object_type" else None
            if written and written != "this" and not written.startswith(TYPEOF):
                bases[key].append(written)
            record = record_part(part)
            if record is not None:  # `& Record<HTTPAlias, GotRequestFunction>`: `.get` is one
                records[key].append(record)
    # `this.client = new Client()` in a constructor or method (JavaScript classes declare no fields)
    assigned_fields: dict[str, list[Chain | None]] = defaultdict(list)
    for node in found.get("field.value", ()):
        owner = enclosing_class(node)
        target = node.parent.child_by_field_name("left")
        prop = target.child_by_field_name("property") if target is not None else None
        if owner and prop is not None and f"{owner}.{ts.text(prop)}" not in returns:
            assigned_fields[f"{owner}.{ts.text(prop)}"].append(chain(node, scopes.lookup))
    for node in found.get("field.init", ()):  # `private client = createClient()` (no written type)
        field = node.parent
        owner = enclosing_class(field)
        name = field.child_by_field_name("name")
        if owner and name is not None and field.child_by_field_name("type") is None \
                and f"{owner}.{ts.text(name)}" not in returns:
            assigned_fields[f"{owner}.{ts.text(name)}"].append(chain(node, scopes.lookup))
    fields = {k: c for k, v in assigned_fields.items() if (c := agreed(v)) is not None}
    # `type Schema = ObjectSchema<...>`: the alias names a class
    aliases = {}
    for node in found.get("alias", ()):
        name = node.parent.child_by_field_name("name")
        written = written_type(Wrapped(node))
        prefix = qualifier(node.parent) if name is not None else None
        if written and written != "this" and prefix is not None:
            aliases[".".join([*prefix, ts.text(name)])] = written
    # Class members whose value is a function (`static create = (): T => ...`) are called like methods;
    # getters (`get url(): URL`) are read like fields.
    callables = {member_name(n.parent, qualifier) for n in found.get("callable", ())}
    inline_shapes(found.get("shape", ()), bases, returns, callables)  # inline object types: `@offset.key`
    accessors = {member_name(n.parent, qualifier) for n in found.get("accessor", ())}
    untyped: set[str] = set()
    chains: set[tuple[tuple[Segment, ...], str, tuple[str, ...]]] = set()  # (receiver, member, keys)
    for node, keys in destructured:
        said = scopes.said(node)
        if said is None:
            untyped.add(keys[-1])
        elif len(said) + len(keys) <= MAX_SEGMENTS:
            chains.add((tuple(said) + tuple(member_step(k) for k in keys[:-1]), keys[-1], ()))
    narrowed = narrowings(found.get("narrow", ()))
    look = scopes.lookup if not narrowed else narrowing(scopes.lookup, narrowed)
    if narrowed:
        memo = {}  # a chain read under a narrowing differs from the same text outside it
    for key in found.get("keyed", ()):  # `x['key']`: a use of `key` on what `x` is
        subscript = key.parent.parent
        receiver = chain(subscript.child_by_field_name("object"), look, memo) if key.parent.named_child_count == 1 else None
        if receiver is not None:
            chains.add((tuple(receiver), ts.text(key), ()))
    for prop in found.get("chained", ()):
        receiver = chain(prop.parent.child_by_field_name("object"), look, memo)
        if receiver is None:
            untyped.add(ts.text(prop))
        else:
            chains.add((tuple(receiver), ts.text(prop), ()))
    # (`found` holds both in document order: see `extract.extract`.)
    # `x.m` with a bare name: a local's declaration says its type, or it is a module-level name
    # (an import, a declaration, a module-level instance) that resolution follows.
    for head, member in zip(found["qualifier"], found["member"], strict=False):
        receiver = chain(head, look, memo)
        if receiver is None:
            untyped.add(ts.text(member))
        else:
            chains.add((tuple(receiver), ts.text(member), ()))
    for node in found.get("lookup", ()):  # `Router<T>['match']`: a use of `Router.match`
        looked = bounded(node, written_type(Wrapped(node.named_children[0])))
        indexed = node.named_children[-1].named_children[0].named_children[0] if node.named_child_count == 2 else None
        if looked and looked != "this" and not looked.startswith(TYPEOF) and indexed is not None:
            chains.add(((Head("cast", looked),), ts.text(indexed), ()))
    chains |= key_uses(found.get("argobject", ()), lambda callee: chain(callee, scopes.lookup, memo), scopes.lookup)
    every = {k: c for k, v in returned.items() if k not in returns and k not in keyed and (c := agreed(v)) is not None}
    # one use a receiver, in the order of their chains (resolution reads each receiver once)
    uses = []
    for receiver, group in groupby(sorted(chains, key=_order), key=itemgetter(0)):
        members: list[str] = []
        literal_keys: set[str] = set()
        for _, member, literal in group:
            if literal:
                literal_keys.update(literal)
            else:
                members.append(member)
        uses.append(MemberUse(list(receiver), tuple(members), tuple(sorted(literal_keys))))
    params, callsigs, props, literals = signature_facts(found, qualifier)
    return TypeScriptMemberFacts(
        types={k: sorted(v) for k, v in sorted(types.items())},
        assigned=dict(sorted(assigned.items())),
        member_uses=tuple(uses),
        returns=dict(sorted(returns.items())),
        returned=dict(sorted(every.items())),
        keyed=dict(sorted(keyed.items())),
        strings=dict(sorted(string_constants(module_level).items())),
        objects=tuple(sorted(objects)),
        records={k: tuple(v) for k, v in sorted(records.items())},
        bases=dict(sorted(bases.items())),
        local_classes=tuple(local_classes),
        untyped=tuple(sorted(untyped)),
        fields=dict(sorted(fields.items())),
        aliases=dict(sorted(aliases.items())),
        callables=tuple(sorted(c for c in callables if c is not None)),
        accessors=tuple(sorted(a for a in accessors if a is not None)),
        params=params, callsigs=callsigs, props=props, literals=literals,
    )



def _order(use: tuple[tuple[Any, ...], str, tuple[str, ...]]) -> tuple[Any, ...]:
    """A use's place among a file's uses: by receiver (a name before a `Head`), member, keys."""
    return tuple([s if type(s) is str else "\uffff" + repr(s) for s in use[0]]), use[1], use[2]
