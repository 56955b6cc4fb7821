"""The member facts of one Python file, as typed records: what `members/facts.py` reads from the
source and `members/meaning.py` types member uses from. JSON only at the index store's edge
(`PythonMemberFacts.to_json` / `from_json`: compact lists, read back without a parse of their own).

What the source writes a value as (`Written`) is one of: an annotation's class (`x: Console`), its
alternatives (`A | B`), a call's result (`Console()`, `make()`), another name's value (`y = x`), what
a decorator makes of a function, what a context manager's enter method returns, either branch of a
conditional, `Self` (a method returning its instance), or `UNTYPED` (a binding stating no type).

A name the file binds differently per function (`runner = CliRunner()` in one test, a bare `runner`
parameter in another) is told apart by the function binding it: `scope`, that function's start
byte, on every record naming it (None: the module's binding, or a name not told apart).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import starmap
from typing import Any, TypeAlias, cast


@dataclass(frozen=True, slots=True)
class Local:
    """A told-apart name as one function binds it: the key the resolver types it by."""

    name: str
    scope: int


Name: TypeAlias = "str | Local"


def name_key(name: str, scope: int | None) -> Name:
    return name if scope is None else Local(name, scope)


@dataclass(frozen=True, slots=True)
class Annotation:
    """A class an annotation (or `except T as e`) names, as a dotted path."""

    cls: str
    scope: int | None = None

    def __init__(self, cls: str, scope: int | None = None) -> None:
        _ANNOTATION[0](self, cls)
        _ANNOTATION[1](self, scope)


@dataclass(frozen=True, slots=True)
class OneOf:
    """An annotation naming several classes (`A | B`): the project classes among them count."""

    alternatives: tuple[Annotation, ...]


@dataclass(frozen=True, slots=True)
class CallResult:
    """What calling `callee` gives: an instance of a class, what a function returns."""

    callee: str
    scope: int | None = None

    def __init__(self, callee: str, scope: int | None = None) -> None:
        _CALL_RESULT[0](self, callee)
        _CALL_RESULT[1](self, scope)


@dataclass(frozen=True, slots=True)
class SameAs:
    """What another name or dotted path (`self.console`, `app.config`) holds."""

    path: str
    scope: int | None = None

    def __init__(self, path: str, scope: int | None = None) -> None:
        _SAME_AS[0](self, path)
        _SAME_AS[1](self, scope)


@dataclass(frozen=True, slots=True)
class Decorated:
    """`@group def f`: `f` is what the decorator `decorator` makes of the function."""

    decorator: str
    scope: int | None = None


@dataclass(frozen=True, slots=True)
class Entered:
    """`with Client() as c`: what `method` (`__enter__`, `__aenter__`) of the manager returns."""

    manager: CallResult
    method: str


@dataclass(frozen=True, slots=True)
class Either:
    """`a if c else b`: what each branch gives (resolution needs every one typed)."""

    branches: tuple[CallResult | SameAs, ...]


@dataclass(frozen=True, slots=True)
class Stated:
    """A fact with no field: `Self` (a method returning the instance it is called on), or a
    binding that states no type (a bare parameter, `x = a or b`, a loop target)."""

    what: str


SELF = Stated("self")
UNTYPED = Stated("untyped")

Written: TypeAlias = "Annotation | OneOf | CallResult | SameAs | Decorated | Entered | Either | Stated"


def head_of(written: Written) -> Name | None:
    """The name a written value starts from (`u` in `u.replace()` and `= u.host`), as the resolver
    keys it; None for a value that starts from no name."""
    if isinstance(written, Annotation):
        return name_key(written.cls.partition(".")[0], written.scope)
    if isinstance(written, CallResult):
        return name_key(written.callee.partition(".")[0], written.scope)
    if isinstance(written, SameAs):
        return name_key(written.path.partition(".")[0], written.scope)
    if isinstance(written, Decorated):
        return name_key(written.decorator.partition(".")[0], written.scope)
    if isinstance(written, Entered):
        return head_of(written.manager)
    if isinstance(written, Either):
        return head_of(written.branches[0])
    if isinstance(written, OneOf):
        return head_of(written.alternatives[0])
    return None


def written_order(written: Written) -> str:
    """Several ways one name is bound, in a fixed order (the stored facts do not depend on the
    order tree-sitter captures come in)."""
    return repr(written)


@dataclass(frozen=True, slots=True)
class CallOn:
    """`member` used on the result of calling `callee` (`Console().print`)."""

    callee: str
    scope: int | None
    member: str


@dataclass(frozen=True, slots=True)
class SuperCall:
    """`super().member` inside class `cls` (qualified): a member of its bases."""

    cls: str
    member: str


@dataclass(frozen=True, slots=True)
class Chain:
    """Members used along a chain of calls (`App().runner().invoke`), arguments left out: each
    link's name and whether it is called, walked from the head (the last name included)."""

    links: tuple[tuple[str, bool], ...]
    scope: int | None = None


@dataclass(frozen=True, slots=True)
class LocalUse:
    """A dotted use (`runner.invoke`) of a told-apart name, read from the binding of `scope`."""

    path: str
    scope: int | None

    def __init__(self, path: str, scope: int | None) -> None:
        _LOCAL_USE[0](self, path)
        _LOCAL_USE[1](self, scope)


@dataclass(frozen=True, slots=True)
class PythonMemberFacts:
    """What one file states about the types of its names (see `members/facts.py`).
    `deferred`: extracted without them (`konstruct index` alone), so the member tier resolves this
    file's member uses and nothing is told of them before."""

    untyped: tuple[str, ...] = ()  # members used on receivers no name can type (`items[0].run()`)
    # Every way the file binds each name (`self.x` for an attribute), each as written; what each
    # function or method (qualified within the file) returns: its annotation, else what every
    # `return` of a non-generator states; the base classes each class names (`Base[str]` as
    # `Base`). Mappings, as resolution looks them up: read-only, never changed once made.
    types: Mapping[Name, tuple[Written, ...]] = field(default_factory=dict)
    returns: Mapping[str, Written] = field(default_factory=dict)
    bases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    calls: tuple[CallOn, ...] = ()
    supers: tuple[SuperCall, ...] = ()
    chains: tuple[Chain, ...] = ()
    told_apart: tuple[str, ...] = ()  # names bound differently per function: their uses are `local`
    local: tuple[LocalUse, ...] = ()
    deferred: bool = False

    def to_json(self) -> Any:
        if self.deferred:
            return None
        return [
            list(self.untyped),
            [[*_name_json(name), [_written_json(w) for w in found]] for name, found in self.types.items()],
            [[function, _written_json(w)] for function, w in self.returns.items()],
            [[cls, list(bases)] for cls, bases in self.bases.items()],
            [[c.callee, c.scope, c.member] for c in self.calls],
            [[s.cls, s.member] for s in self.supers],
            [[c.scope, [name for name, _ in c.links], [int(called) for _, called in c.links]] for c in self.chains],
            list(self.told_apart),
            [[u.path, u.scope] for u in self.local],
        ]

    @classmethod
    def from_json(cls, data: Any) -> PythonMemberFacts:
        if data is None:
            return DEFERRED
        untyped, types, returns, bases, calls, supers, chains, told_apart, local = data
        written = _written
        return cls(
            tuple(untyped),
            {name if scope is None else Local(name, scope): tuple(map(written, found)) for name, scope, found in types},
            {function: written(w) for function, w in returns},
            {c: tuple(b) for c, b in bases},
            tuple(starmap(CallOn, calls)),
            tuple(starmap(SuperCall, supers)),
            tuple(Chain(tuple(zip(names, map(bool, called))), scope) for scope, names, called in chains),
            tuple(told_apart),
            tuple(starmap(LocalUse, local)),
        )


# The records a file has by the thousand are made by the store's edge on every read of the member
# tier: the generated frozen `__init__` (one `object.__setattr__` per field) costs 1.7x setting the
# slots through their descriptors, as `facts.Symbol` does.
def _slots(cls: type, *names: str) -> tuple[Callable[[Any, Any], None], ...]:
    return tuple(cls.__dict__[name].__set__ for name in names)


_ANNOTATION = _slots(Annotation, "cls", "scope")
_CALL_RESULT = _slots(CallResult, "callee", "scope")
_SAME_AS = _slots(SameAs, "path", "scope")
_LOCAL_USE = _slots(LocalUse, "path", "scope")

DEFERRED = PythonMemberFacts(deferred=True)
EMPTY = PythonMemberFacts()


# -- the store's edge: a written value as a compact list (its kind first) ----------------------------

def _name_json(name: Name) -> tuple[str, int | None]:
    return (name, None) if isinstance(name, str) else (name.name, name.scope)


def _written_json(written: Written) -> Any:
    if isinstance(written, Annotation):
        return written.cls if written.scope is None else ["t", written.cls, written.scope]
    if isinstance(written, CallResult):
        return [written.callee] if written.scope is None else ["c", written.callee, written.scope]
    if isinstance(written, SameAs):
        return ["=", written.path, written.scope]
    if isinstance(written, Decorated):
        return ["@", written.decorator, written.scope]
    if isinstance(written, Entered):
        return [">", written.manager.callee, written.manager.scope, written.method]
    if isinstance(written, Either):
        return ["^", *map(_written_json, written.branches)]
    if isinstance(written, OneOf):
        return ["|", *map(_written_json, written.alternatives)]
    return 1 if written == SELF else 0


def _written(data: Any) -> Written:
    if data.__class__ is str:  # the usual annotation: a class
        return _annotation(data)
    if data.__class__ is int:
        return SELF if data else UNTYPED
    if len(data) == 1:  # the usual call: of a name the module binds
        return _call_result(data[0])
    return _READ[data[0]](data)


def _annotation(cls: str) -> Annotation:
    """One record per class name read (`str`, `Console`: a name repeats across files), kept while
    the process reads: records are immutable, so sharing one is reading it again."""
    found = _ANNOTATIONS.get(cls)
    if found is None:
        if len(_ANNOTATIONS) > _KEPT:
            _ANNOTATIONS.clear()
        found = _ANNOTATIONS[cls] = Annotation(cls)
    return found


def _call_result(callee: str) -> CallResult:
    """As `_annotation`, for what a call of `callee` gives (`Console()`, `dict()`)."""
    found = _CALLS.get(callee)
    if found is None:
        if len(_CALLS) > _KEPT:
            _CALLS.clear()
        found = _CALLS[callee] = CallResult(callee)
    return found


_KEPT = 50_000  # distinct names a project reads; past that, start again rather than grow
_ANNOTATIONS: dict[str, Annotation] = {}
_CALLS: dict[str, CallResult] = {}

_READ: dict[str, Callable[[list[Any]], Written]] = {
    "c": lambda d: CallResult(d[1], d[2]),
    "=": lambda d: SameAs(d[1], d[2]),
    "@": lambda d: Decorated(d[1], d[2]),
    "t": lambda d: Annotation(d[1], d[2]),
    ">": lambda d: Entered(CallResult(d[1], d[2]), d[3]),
    "^": lambda d: Either(cast("tuple[CallResult | SameAs, ...]", tuple(map(_written, d[1:])))),
    "|": lambda d: OneOf(cast("tuple[Annotation, ...]", tuple(map(_written, d[1:])))),
}
