"""The member facts of one Java file, as records (`FileFacts.extra`): `signatures.py` and
`callsites.py` write them, `type_world.py` and `calls.py` read them. They meet JSON only at the
index store's edge (`to_json`, `JavaMemberFacts.from_json`): compact lists, written and read here
alone.

Types are erased, as a class file's descriptors are (generics, arrays, annotations dropped), and
kept as written (`Price`, `com.acme.Price`, `Outer.Inner`); a primitive type is `PRIMITIVE`, `""`
is void or Object (an unbounded type variable).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

PRIMITIVE = "#p"  # a primitive type: no class, but it rules out overloads taking a reference

HeadKind = Literal["name", "this", "super", "unqualified", "new", "cast"]
StepKind = Literal["field", "call", "reference"]


@dataclass(frozen=True, slots=True)
class Signature:
    """One declaration of a member: a method's parameter count (`arity`), whether its last
    parameter is varargs, its result type and parameter types; a field has arity -1 and its type;
    a constructor (named "<init>") has the result type ""."""

    arity: int
    varargs: bool
    type: str
    params: tuple[str, ...] = ()

    # Made once per declaration in every process that extracts or reads the index: the generated
    # frozen `__init__` (an `object.__setattr__` per field) costs about twice this, which sets the
    # slots through their descriptors (as `graph.facts.Symbol` does; bound below the classes).
    def __init__(self, arity: int, varargs: bool, type: str, params: tuple[str, ...] = ()) -> None:
        set_arity, set_varargs, set_type, set_params = _SIGNATURE_SLOTS
        set_arity(self, arity)
        set_varargs(self, varargs)
        set_type(self, type)
        set_params(self, params)

    @property
    def is_field(self) -> bool:
        return self.arity < 0


@dataclass(frozen=True, slots=True, order=True)
class Head:
    """Where a call chain starts: a name (an identifier, a dotted path or a type name: "name"),
    `this`, `super`, an unqualified call ("unqualified": the first step is the method), `new T(..)`
    ("new": `name` the type, `hints` its arguments, see `Step`), or a cast / a local the enclosing
    method declares ("cast": `name` the type)."""

    kind: HeadKind
    name: str = ""
    hints: tuple[str, ...] = ()

    def __init__(self, kind: HeadKind, name: str = "", hints: tuple[str, ...] = ()) -> None:  # as Signature's
        set_kind, set_name, set_hints = _HEAD_SLOTS
        set_kind(self, kind)
        set_name(self, name)
        set_hints(self, hints)


@dataclass(frozen=True, slots=True, order=True)
class Step:
    """One step along a chain: the field `.name` ("field"), a call of `name` ("call") with one
    rough type per argument in `hints`, or a method reference `::name` ("reference": any
    overload). A hint is PRIMITIVE, "String", "Class", "λ" (a lambda or method reference), a type
    name from a declaration, `new` or a cast, or "?" (unknown): enough to tell
    `put(int, int, char)` from `put(Position, String, Style...)`."""

    kind: StepKind
    name: str
    hints: tuple[str, ...] = ()

    def __init__(self, kind: StepKind, name: str, hints: tuple[str, ...] = ()) -> None:  # as Signature's
        set_kind, set_name, set_hints = _STEP_SLOTS
        set_kind(self, kind)
        set_name(self, name)
        set_hints(self, hints)


@dataclass(frozen=True, slots=True, order=True)
class Chain:
    """A call site or a field read as the resolver types it: a head, then steps."""

    head: Head
    steps: tuple[Step, ...] = ()

    def __init__(self, head: Head, steps: tuple[Step, ...] = ()) -> None:  # as Signature's
        set_head, set_steps = _CHAIN_SLOTS
        set_head(self, head)
        set_steps(self, steps)

    def then(self, step: Step) -> Chain:
        return Chain(self.head, (*self.steps, step))


@dataclass(frozen=True, slots=True)
class JavaMemberFacts:
    """Per declared type (its name in the file, `Outer.Inner`): `members` (member name -> its
    declarations), `supertypes` as written, `public_types`, `bridged` (the public instance methods
    of a non-public class, which javac copies as bridges into each public subclass), and the
    chains of its `calls` and of the `fields` read outside calls. Over the whole file:
    `variables` (name -> declared types: locals, parameters, fields), `inferred` (a `var` name ->
    the chains of its initializers) and `by_name` (methods called on receivers no chain
    expresses: by-name evidence)."""

    members: dict[str, dict[str, tuple[Signature, ...]]] = field(default_factory=dict)
    supertypes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    public_types: tuple[str, ...] = ()
    bridged: dict[str, tuple[str, ...]] = field(default_factory=dict)
    variables: dict[str, tuple[str, ...]] = field(default_factory=dict)
    calls: dict[str, tuple[Chain, ...]] = field(default_factory=dict)
    inferred: dict[str, tuple[Chain, ...]] = field(default_factory=dict)
    fields: dict[str, tuple[Chain, ...]] = field(default_factory=dict)
    by_name: tuple[str, ...] = ()

    def to_json(self) -> list[Any]:
        return [
            {t: {m: [[s.arity, int(s.varargs), s.type, *s.params] for s in signatures]
                 for m, signatures in members.items()} for t, members in self.members.items()},
            {t: list(written) for t, written in self.supertypes.items()},
            list(self.public_types),
            {t: list(names) for t, names in self.bridged.items()},
            {name: list(types) for name, types in self.variables.items()},
            _chains_json(self.calls),
            _chains_json(self.inferred),
            _chains_json(self.fields),
            list(self.by_name),
        ]

    @classmethod
    def from_json(cls, data: Any) -> JavaMemberFacts:
        members, supertypes, public_types, bridged, variables, calls, inferred, fields, by_name = data
        chains = _ChainReader()
        return cls(
            {t: {m: tuple(Signature(s[0], bool(s[1]), s[2], tuple(s[3:])) for s in signatures)
                 for m, signatures in by_member.items()} for t, by_member in members.items()},
            {t: tuple(written) for t, written in supertypes.items()},
            tuple(public_types),
            {t: tuple(names) for t, names in bridged.items()},
            {name: tuple(types) for name, types in variables.items()},
            chains.table(calls),
            chains.table(inferred),
            chains.table(fields),
            tuple(by_name),
        )


NO_MEMBER_FACTS = JavaMemberFacts()
_SIGNATURE_SLOTS = tuple(Signature.__dict__[f].__set__ for f in ("arity", "varargs", "type", "params"))
_HEAD_SLOTS = tuple(Head.__dict__[f].__set__ for f in ("kind", "name", "hints"))
_STEP_SLOTS = tuple(Step.__dict__[f].__set__ for f in ("kind", "name", "hints"))
_CHAIN_SLOTS = tuple(Chain.__dict__[f].__set__ for f in ("head", "steps"))

# In the store: a chain is [head, step, ...], a head [kind letter, name, hint, ...], a step
# [kind letter, name, hint, ...].
_HEAD_CODES: dict[str, HeadKind] = {"n": "name", "t": "this", "s": "super", "u": "unqualified", "w": "new",
                                    "c": "cast"}
_STEP_CODES: dict[str, StepKind] = {"f": "field", "c": "call", "r": "reference"}
_HEAD_LETTERS = {kind: code for code, kind in _HEAD_CODES.items()}
_STEP_LETTERS = {kind: code for code, kind in _STEP_CODES.items()}


def _chains_json(table: dict[str, tuple[Chain, ...]]) -> dict[str, list[Any]]:
    return {
        key: [[[_HEAD_LETTERS[c.head.kind], c.head.name, *c.head.hints],
               *[[_STEP_LETTERS[s.kind], s.name, *s.hints] for s in c.steps]] for c in chains]
        for key, chains in table.items()
    }


class _ChainReader:
    """Chains back from the store, one file at a time. A file calls the same methods on the same
    receivers again and again: each distinct head and step is made once and shared (records are
    immutable), which makes reading an index's Java facts a third cheaper."""

    def __init__(self) -> None:
        self.heads: dict[tuple[str, ...], Head] = {}
        self.steps: dict[tuple[str, ...], Step] = {}

    def table(self, data: dict[str, list[Any]]) -> dict[str, tuple[Chain, ...]]:
        return {key: tuple([self.chain(chain) for chain in chains]) for key, chains in data.items()}

    def chain(self, data: list[Any]) -> Chain:
        written = tuple(data[0])
        head = self.heads.get(written)
        if head is None:
            head = self.heads[written] = Head(_HEAD_CODES[written[0]], written[1], written[2:])
        steps = []
        for item in data[1:]:
            written = tuple(item)
            step = self.steps.get(written)
            if step is None:
                step = self.steps[written] = Step(_STEP_CODES[written[0]], written[1], written[2:])
            steps.append(step)
        return Chain(head, tuple(steps))
