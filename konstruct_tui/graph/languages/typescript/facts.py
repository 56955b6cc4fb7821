"""What a TypeScript file states beyond its symbols and imports, as one typed record
(`FileFacts.extra`): the names its imports bind and its exports give (resolution follows uses
through barrels with them), and the member facts (`members/types.py`): written types, receiver
chains of member uses, declared signatures.

A record per fact kind, gathered in `TypeScriptMemberFacts`. JSON is met only at the index store's
edge (`to_json` / `from_json`); a file states nothing of most kinds, so only the kinds it states are
written. A receiver chain (`Chain`, `members/chains.py`) is a list of segments: a name or a `Head`,
then steps. A declared type's spec (`Spec`, `members/signatures.py`) keeps its own documented form.
Changing a field here changes the index format: bump `SUPPORT.version`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...facts import FileFacts

# A declared type's spec: `0`, None, or a list headed by its kind (see `members/signatures.py`).
Spec = Any
# One signature of a callable: [parameter specs, written parameter types, rest index(, return spec)].
Signature = list[Any]


@dataclass(frozen=True, slots=True)
class Binding:
    """`import {imported as local} from ...` (`imported` is a name, `default` or `*`): the local
    name bound by import `source` (an index into `FileFacts.imports`)."""

    local: str
    source: int
    imported: str

    # The store rebuilds one per import binding and member use of every file: the generated frozen
    # `__init__` (an `object.__setattr__` a field) is about twice the cost of setting the slots
    # through their descriptors, as `graph.facts.Symbol` does.
    def __init__(self, local: str, source: int, imported: str) -> None:
        _BINDING[0](self, local)
        _BINDING[1](self, source)
        _BINDING[2](self, imported)


@dataclass(frozen=True, slots=True)
class Export:
    """The module exports `name` as `exported`: re-exported from import `source`, or (`source` -1)
    a name of its own (`export {name as exported}`, `export default name`)."""

    exported: str
    source: int
    name: str

    def __init__(self, exported: str, source: int, name: str) -> None:  # as Binding's
        _EXPORT[0](self, exported)
        _EXPORT[1](self, source)
        _EXPORT[2](self, name)


@dataclass(frozen=True, slots=True)
class MemberUse:
    """The members used on one receiver that is not a bare module name: `members` of what
    `receiver` gives (`this.x.m`, `f().m`); or, for an object literal whose type its position gives
    (`f({a, b})`, the receiver a `ctx:` head), the `keys` it writes, each a use of the property that
    type declares."""

    receiver: Chain
    members: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()

    def __init__(self, receiver: Chain, members: tuple[str, ...] = (), keys: tuple[str, ...] = ()) -> None:  # as Binding's
        _USE[0](self, receiver)
        _USE[1](self, members)
        _USE[2](self, keys)


@dataclass(frozen=True, slots=True)
class KeyedReturn:
    """A callable whose return type is `mapped[K]`, K the type of its parameter `parameter`
    (`get<K extends keyof Services>(k: K): Services[K]`: `members/keyed.py`)."""

    mapped: str
    parameter: int


@dataclass(frozen=True, slots=True)
class RecordPart:
    """An intersection part `Record<'get' | 'post', V>`: `.get` of the whole is a `value`. Its keys
    are written out (`keys`) or a union alias's (`keys_of`, resolved where it is read)."""

    value: str
    keys: tuple[str, ...] = ()
    keys_of: str | None = None


@dataclass(frozen=True, slots=True)
class LocalClass:
    """A class declared inside a function (no symbol): the members it declares implement those of
    the types it extends and implements."""

    bases: tuple[str, ...]
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DocLink:
    """A member a JSDoc `{@link Server.fetchSockets()}` names: `head` then `members`."""

    head: str
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CallKey:
    """A key an argument of a call gives (`members/keyed.call_keys`): a string `literal` (`get('a')`,
    or a local `const` of one) or, not literal, a name of the module scope read where it is resolved
    (an import followed to its definer, or a module-level string constant)."""

    text: str
    literal: bool


def _keys_to_json(keys: tuple[CallKey | None, ...]) -> list[Any]:
    """A literal as `[text]`, a name as itself, an unknown argument as null."""
    return [None if k is None else [k.text] if k.literal else k.text for k in keys]


def _keys_from_json(data: list[Any]) -> tuple[CallKey | None, ...]:
    return tuple([None if k is None else CallKey(k, False) if type(k) is str else CallKey(k[0], True) for k in data])


@dataclass(frozen=True, slots=True)
class Context:
    """Where the type of a callback's parameter or of an object literal's keys comes from (a `ctx`
    head, `members/heads.py`, resolved by `members/contexts.py`): argument `argument` of a call of
    `callee` (`new`: of a `new` expression; `given`: the keys the call's arguments give,
    `members/keyed.py`), or, `callee` None, the written type `typed` (a frozen spec); then `keys`
    down the nested literals, and `parameter` of the callback (-1: the literal's own keys)."""

    parameter: int
    keys: tuple[str, ...]
    callee: tuple[Segment, ...] | None = None
    new: bool = False
    argument: int = 0
    given: tuple[CallKey | None, ...] = ()
    typed: Any = None


@dataclass(frozen=True, slots=True)
class Head:
    """What a receiver chain starts from, other than a name: `this` / `super` of class `name`,
    `new name()`, a value cast to (`cast`) or a local function returning (`returns`) the written
    type `name`; `either` side of `a ?? b` (`parts`), an `array` literal's elements (`parts`), an
    `object` literal's keys and their chains (`keys`, by key), or a `ctx` context (`context`)."""

    kind: str
    name: str = ""
    parts: tuple[tuple[Segment, ...], ...] = ()
    keys: tuple[tuple[str, tuple[Segment, ...]], ...] = ()
    context: Context | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """A step of a receiver chain after its head: `member` `name` (`.x`, `x['key']`), a `call`
    (`()`; of its arguments only the keys they give, `members/keyed.call_keys`), an `element`
    (`xs[0]`), or `new` applied to the class the chain so far gives (`new lib.App()`)."""

    kind: str
    name: str = ""
    keys: tuple[CallKey | None, ...] = ()


def member_step(name: str) -> Step:
    """The step `.name` (one record a name: chains share them)."""
    step = _MEMBERS.get(name)
    if step is None:
        step = _MEMBERS[name] = Step("member", name)
    return step


_MEMBERS: dict[str, Step] = {}
CALL = Step("call")  # a call whose arguments give no keys
ELEMENT = Step("element")
NEW = Step("new")

# A receiver chain (`members/chains.py`): a head (a name, or a `Head`), then its `Step`s.
Segment = str | Head | Step
Chain = list[Segment]


def frozen_spec(spec: Any) -> Any:
    """A declared type's spec made hashable (a `ctx` head is a key): lists as tuples, mappings as
    `SpecMap`s; `thawed_spec` gives it back."""
    if isinstance(spec, list):
        return tuple([frozen_spec(s) for s in spec])
    if isinstance(spec, dict):
        return SpecMap((k, frozen_spec(v)) for k, v in spec.items())
    return spec


class SpecMap(tuple):  # a spec's mapping, frozen: (key, value) pairs in order
    __slots__ = ()


def thawed_spec(spec: Any) -> Any:
    if isinstance(spec, SpecMap):
        return {k: thawed_spec(v) for k, v in spec}
    if isinstance(spec, tuple):
        return [thawed_spec(s) for s in spec]
    return spec


def chain_to_json(chain: Any) -> list[Any]:
    """A chain's JSON: a name, or a `Head` as a compact list headed by its kind; then each step as
    `.name`, `()`, `[]`, `new`, or a call giving keys as `["()", key...]`."""
    head = chain[0]
    return [head if type(head) is str else _head_to_json(head), *[_step_to_json(s) for s in chain[1:]]]


def _step_to_json(step: Step) -> Any:
    kind = step.kind
    if kind == "member":
        return "." + step.name
    if kind == "call":
        return ["()", *_keys_to_json(step.keys)] if step.keys else "()"
    return "[]" if kind == "element" else "new"


def _head_to_json(head: Head) -> list[Any]:
    kind = head.kind
    if kind in ("either", "array"):
        return [kind, [chain_to_json(part) for part in head.parts]]
    if kind == "object":
        return [kind, [[key, chain_to_json(part)] for key, part in head.keys]]
    if kind == "ctx":
        c = head.context
        assert c is not None
        if c.callee is None:
            return [kind, c.parameter, list(c.keys), thawed_spec(c.typed)]
        return [kind, c.parameter, list(c.keys), chain_to_json(c.callee), c.new, c.argument, _keys_to_json(c.given)]
    return [kind, head.name]


def chain_from_json(data: list[Any]) -> Chain:
    head = data[0]
    steps = _STEPS
    return [head if type(head) is str else _head_from_json(head),
            *[steps.get(s) or _step_from_json(s) if type(s) is str else Step("call", keys=_keys_from_json(s[1:])) for s in data[1:]]]


def _step_from_json(text: str) -> Step:
    step = _STEPS[text] = member_step(text[1:])  # `.name` (`()`, `[]`, `new` are in `_STEPS` from the start)
    return step


def _part(data: list[Any]) -> tuple[Segment, ...]:
    return tuple(chain_from_json(data))


def _head_from_json(data: list[Any]) -> Head:
    kind = data[0]
    if kind in ("either", "array"):
        return Head(kind, parts=tuple([_part(p) for p in data[1]]))
    if kind == "object":
        return Head(kind, keys=tuple([(key, _part(p)) for key, p in data[1]]))
    if kind == "ctx":
        if len(data) == 4:
            return Head(kind, context=Context(data[1], tuple(data[2]), typed=frozen_spec(data[3])))
        return Head(kind, context=Context(data[1], tuple(data[2]), _part(data[3]), data[4], data[5], _keys_from_json(data[6])))
    return Head(kind, data[1])


_STEPS: dict[str, Step] = {"()": CALL, "[]": ELEMENT, "new": NEW}
_BINDING = tuple(Binding.__dict__[f].__set__ for f in ("local", "source", "imported"))
_EXPORT = tuple(Export.__dict__[f].__set__ for f in ("exported", "source", "name"))
_USE = tuple(MemberUse.__dict__[f].__set__ for f in ("receiver", "members", "keys"))


# Fields never changed after extraction: the mappings are plain dicts for lookup speed, read-only
# by contract (their equality is the record's; the record is never hashed).
@dataclass(frozen=True, slots=True)
class TypeScriptMemberFacts:
    """Everything of a TypeScript file's `extra`, by kind (qualified names are `Class.member`)."""

    bindings: tuple[Binding, ...] = ()
    exports: tuple[Export, ...] = ()
    # `export default <declaration or expression>` defined right here; the declaration's name
    # (`export default class Options`); what `export default new Logger()` gives.
    default_export: bool = False
    default_name: str | None = None
    default_value: Chain | None = None
    doclinks: tuple[DocLink, ...] = ()
    # local, parameter or module-level name -> the types written for it; -> the chains assigned to it
    types: Mapping[str, list[str]] = field(default_factory=dict)
    assigned: Mapping[str, list[Chain]] = field(default_factory=dict)
    member_uses: tuple[MemberUse, ...] = ()
    # names of member uses on receivers no chain follows (`xs[0].m`): by-name evidence
    untyped: tuple[str, ...] = ()
    # callable / field -> its written return or field type (`this` for a method returning `this`)
    returns: Mapping[str, str] = field(default_factory=dict)
    # unannotated callable -> the one chain all its `return`s give
    returned: Mapping[str, Chain] = field(default_factory=dict)
    keyed: Mapping[str, KeyedReturn] = field(default_factory=dict)
    # module-level `const X = "..."` -> its text
    strings: Mapping[str, str] = field(default_factory=dict)
    # object and intersection type aliases (`type A = {...} & B`)
    objects: tuple[str, ...] = ()
    records: Mapping[str, tuple[RecordPart, ...]] = field(default_factory=dict)
    # class, interface or object type -> the types it extends, implements or intersects
    bases: Mapping[str, list[str]] = field(default_factory=dict)
    local_classes: tuple[LocalClass, ...] = ()
    # `Class.field` -> the chain every `this.field = ...` assigns (no declared type)
    fields: Mapping[str, Chain] = field(default_factory=dict)
    # `type A = B` -> B
    aliases: Mapping[str, str] = field(default_factory=dict)
    # class members holding a function (called like methods); getters (read like fields)
    callables: tuple[str, ...] = ()
    accessors: tuple[str, ...] = ()
    # callable -> its signatures (overloads); type -> the spec of what it is called or used as
    # an object; `Type.key` -> the spec of the property's written type; string literal unions
    params: Mapping[str, list[Signature]] = field(default_factory=dict)
    callsigs: Mapping[str, Spec] = field(default_factory=dict)
    props: Mapping[str, Spec] = field(default_factory=dict)
    literals: Mapping[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The kinds this file states, by name (bindings and exports always)."""
        out: dict[str, Any] = {
            "bindings": [[b.local, b.source, b.imported] for b in self.bindings],
            "exports": [[e.exported, e.source, e.name] for e in self.exports],
            "default_export": self.default_export,
        }
        if self.default_name:
            out["default_name"] = self.default_name
        if self.default_value:
            out["default_value"] = chain_to_json(self.default_value)
        if self.doclinks:
            out["doclinks"] = [[link.head, *link.members] for link in self.doclinks]
        for name in _PLAIN:
            value = getattr(self, name)
            if value:
                out[name] = list(value) if isinstance(value, tuple) else value  # the mappings are dicts
        if self.member_uses:
            out["member_uses"] = [[chain_to_json(use.receiver), use.members, use.keys] if use.keys
                                  else [chain_to_json(use.receiver), use.members] for use in self.member_uses]
        if self.assigned:
            out["assigned"] = {k: [chain_to_json(c) for c in v] for k, v in self.assigned.items()}
        for name in ("returned", "fields"):
            value = getattr(self, name)
            if value:
                out[name] = {k: chain_to_json(c) for k, c in value.items()}
        if self.keyed:
            out["keyed"] = {k: [v.mapped, v.parameter] for k, v in self.keyed.items()}
        if self.records:
            out["records"] = {k: [[p.value, list(p.keys), p.keys_of] for p in parts] for k, parts in self.records.items()}
        if self.local_classes:
            out["local_classes"] = [[list(c.bases), list(c.members)] for c in self.local_classes]
        return out

    @classmethod
    def from_json(cls, data: Any) -> TypeScriptMemberFacts:
        given = dict(data)
        given["bindings"] = tuple([Binding(*b) for b in given.get("bindings", ())])
        given["exports"] = tuple([Export(*e) for e in given.get("exports", ())])
        if "doclinks" in given:
            given["doclinks"] = tuple(DocLink(head, tuple(members)) for head, *members in given["doclinks"])
        for name in _TUPLES:
            if name in given:
                given[name] = tuple(given[name])
        if "default_value" in given:
            given["default_value"] = chain_from_json(given["default_value"])
        if "assigned" in given:
            given["assigned"] = {k: [chain_from_json(c) for c in v] for k, v in given["assigned"].items()}
        for name in ("returned", "fields"):
            if name in given:
                given[name] = {k: chain_from_json(c) for k, c in given[name].items()}
        if "member_uses" in given:
            given["member_uses"] = tuple([MemberUse(chain_from_json(use[0]), tuple(use[1])) if len(use) == 2
                                          else MemberUse(chain_from_json(use[0]), tuple(use[1]), tuple(use[2]))
                                          for use in given["member_uses"]])
        if "keyed" in given:
            given["keyed"] = {k: KeyedReturn(*v) for k, v in given["keyed"].items()}
        if "records" in given:
            given["records"] = {k: tuple(RecordPart(value, tuple(keys), of) for value, keys, of in parts)
                                for k, parts in given["records"].items()}
        if "local_classes" in given:
            given["local_classes"] = tuple(LocalClass(tuple(b), tuple(m)) for b, m in given["local_classes"])
        return cls(**given)


# Kinds whose JSON is their value as it is (lists of names, mappings of names and specs).
_PLAIN = ("types", "untyped", "returns", "strings", "objects", "bases", "aliases",
          "callables", "accessors", "params", "callsigs", "props", "literals")
_TUPLES = ("untyped", "objects", "callables", "accessors")
EMPTY = TypeScriptMemberFacts()


def members_of(facts: FileFacts | None) -> TypeScriptMemberFacts:
    """The record of a file's facts (EMPTY for no file, or a file of another language)."""
    extra = facts.extra if facts is not None else EMPTY
    return extra if isinstance(extra, TypeScriptMemberFacts) else EMPTY
