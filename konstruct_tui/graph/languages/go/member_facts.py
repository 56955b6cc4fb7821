"""The member facts of one Go file, as records (`FileFacts.extra`); `members.py` writes them from
the tree, `resolve.py` reads them. They meet JSON only at the index store's edge (`to_json`,
`GoMemberFacts.from_json`): compact lists, written and read here alone.

A written type is kept as the file writes it, normalised: `T`, `pkg.T`, and `T[]` for a slice or
map whose elements are `T` (`[]*T`, `map[K]*T`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

StepKind = Literal["field", "call", "element"]
HeadKind = Literal["type", "name", "call", "func", "either"]


@dataclass(frozen=True, slots=True, order=True)
class Step:
    """One step along a chain: the field `.name` ("field"), the result of the method `name()`
    ("call"), or an element of a slice or map (`xs[i]`, `range xs`: "element", no name)."""

    kind: StepKind
    name: str = ""

    # Made for every selector of every file, in the workers and again where the index is read:
    # the generated frozen `__init__` (an `object.__setattr__` per field) costs about twice this,
    # which sets the slots through their descriptors (as `graph.facts.Symbol` does).
    def __init__(self, kind: StepKind, name: str = "") -> None:
        set_kind, set_name = _STEP_SLOTS
        set_kind(self, kind)
        set_name(self, name)


@dataclass(frozen=True, slots=True, order=True)
class Head:
    """Where a chain starts: a written type (`T{}`, `&T{}`, `x.(*T)`, a declared `var c T`: "type"),
    a name no function of the file binds (an import or a package-level name: "name"), the result of
    a call of `name` (`NewT()`, `NewT[int]()`: "call"), a local func value whose result type is
    `name` ("func"), or a variable bound once per alternative in `either` ("either": it has a type
    only when every alternative gives the same one)."""

    kind: HeadKind
    name: str = ""
    either: tuple[Chain, ...] = ()

    def __init__(self, kind: HeadKind, name: str = "", either: tuple[Chain, ...] = ()) -> None:  # as Step's
        set_kind, set_name, set_either = _HEAD_SLOTS
        set_kind(self, kind)
        set_name(self, name)
        set_either(self, either)


@dataclass(frozen=True, slots=True, order=True)
class Chain:
    """An expression's value as the resolver types it: a head, then steps."""

    head: Head
    steps: tuple[Step, ...] = ()

    def __init__(self, head: Head, steps: tuple[Step, ...] = ()) -> None:  # as Step's
        set_head, set_steps = _CHAIN_SLOTS
        set_head(self, head)
        set_steps(self, steps)

    def then(self, step: Step) -> Chain:
        return Chain(self.head, (*self.steps, step))


@dataclass(frozen=True, slots=True, order=True)
class Selector:
    """`x.m`, `x.n`, ... where `x` has a chain: each member is a use of whatever type the chain
    has (one chain, typed once, for every member the file selects on it)."""

    chain: Chain
    members: tuple[str, ...]

    def __init__(self, chain: Chain, members: tuple[str, ...]) -> None:  # as Step's
        set_chain, set_members = _SELECTOR_SLOTS
        set_chain(self, chain)
        set_members(self, members)


@dataclass(frozen=True, slots=True)
class Struct:
    """A struct's fields (name -> written type) and embedded types (whose fields and methods it
    promotes)."""

    fields: dict[str, str] = field(default_factory=dict)
    embedded: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GoMemberFacts:
    """`selectors`: member uses on receivers a chain types, one per distinct chain; `untyped`: member names used on
    receivers nothing types (by-name evidence); `globals`: package-level variables' chains (other
    files of the package read them); `returns`: the result type each function ("F") and method
    ("T.M", interface methods too) writes; `aliases`: `type A = B` (A's methods are B's);
    `structs`: each struct's fields and embedded types."""

    selectors: tuple[Selector, ...] = ()
    untyped: tuple[str, ...] = ()
    globals: dict[str, Chain] = field(default_factory=dict)
    returns: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    structs: dict[str, Struct] = field(default_factory=dict)

    def to_json(self) -> list[Any]:
        return [
            [[_chain_json(s.chain), *s.members] for s in self.selectors],
            list(self.untyped),
            {name: _chain_json(chain) for name, chain in self.globals.items()},
            self.returns,
            self.aliases,
            {name: [s.fields, list(s.embedded)] for name, s in self.structs.items()},
        ]

    @classmethod
    def from_json(cls, data: Any) -> GoMemberFacts:
        selectors, untyped, globals_, returns, aliases, structs = data
        chains = _ChainReader()
        return cls(
            tuple([Selector(chains.chain(selector[0]), tuple(selector[1:])) for selector in selectors]),
            tuple(untyped),
            {name: chains.chain(chain) for name, chain in globals_.items()},
            returns,
            aliases,
            {name: Struct(fields, tuple(embedded)) for name, (fields, embedded) in structs.items()},
        )


NO_MEMBER_FACTS = GoMemberFacts()
_STEP_SLOTS = tuple(Step.__dict__[f].__set__ for f in ("kind", "name"))
_HEAD_SLOTS = tuple(Head.__dict__[f].__set__ for f in ("kind", "name", "either"))
_CHAIN_SLOTS = tuple(Chain.__dict__[f].__set__ for f in ("head", "steps"))
_SELECTOR_SLOTS = tuple(Selector.__dict__[f].__set__ for f in ("chain", "members"))

# In the store: a chain is [head, step, ...]; a step [kind letter, name]; a head [kind letter,
# name], or ["e", chain, ...] for "either".
_STEP_CODES: dict[str, StepKind] = {"f": "field", "c": "call", "e": "element"}
_HEAD_CODES: dict[str, HeadKind] = {"t": "type", "n": "name", "c": "call", "f": "func", "e": "either"}
_STEP_LETTERS = {kind: code for code, kind in _STEP_CODES.items()}
_HEAD_LETTERS = {kind: code for code, kind in _HEAD_CODES.items()}


def _chain_json(chain: Chain) -> list[Any]:
    head = chain.head
    written: list[Any] = ["e", *map(_chain_json, head.either)] if head.kind == "either" else \
        [_HEAD_LETTERS[head.kind], head.name]
    return [written, *[[_STEP_LETTERS[s.kind], s.name] for s in chain.steps]]


class _ChainReader:
    """Chains back from the store, one file at a time: each distinct head and step is made once
    and shared (records are immutable; a file selects the same fields of the same values again
    and again)."""

    def __init__(self) -> None:
        self.heads: dict[tuple[str, str], Head] = {}
        self.steps: dict[tuple[str, str], Step] = {}

    def chain(self, data: list[Any]) -> Chain:
        code, *value = data[0]
        if code == "e":
            head = Head("either", "", tuple([self.chain(c) for c in value]))
        else:
            head = self.heads.get((code, value[0])) or self.heads.setdefault(
                (code, value[0]), Head(_HEAD_CODES[code], value[0]))
        steps = []
        for kind, name in data[1:]:
            step = self.steps.get((kind, name))
            if step is None:
                step = self.steps[(kind, name)] = Step(_STEP_CODES[kind], name)
            steps.append(step)
        return Chain(head, tuple(steps))
