"""Python member uses -> the file and member they name, where the source proves the receiver's type.

A dotted use (`console.print`, `self.console.print`, `click.prompt`, `Console.print`) or a member of
a call's result (`Console().print`) is walked one name at a time. The head is typed from what the
file states (`members/facts.py`): an import binding, followed through re-exports
(`pkg/__init__.py` importing the name from where it is defined) to the defining file; a class; a
module-level instance (`console = Console()` in another file); an annotation or a constructor call;
`self`/`cls` (the file's classes); a class a function of the file defines. (What pytest passes a
test's parameter is not typed: fixture injection is the tool's convention, not what the source
states, so what is used on it is by-name evidence.) Each further name is looked up on
what the previous one was: a module's attribute, a class's member (its bases too, or an attribute
its methods assign), what a method returns (its annotation, else what all its `return`s state),
call after call along a chain. A use whose head cannot be typed at all is kept by name only: by-name
evidence, not a reference; so is a member a typed class does not declare. A head proven to be
something outside the project (`os.path.join`) is neither.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import chain as joined
from itertools import repeat
from typing import Protocol

from ....facts import FileFacts, ImportRef, ProjectView
from ..modules import ImportBinding, ModuleTable, parent_dir
from ..records import (
    EMPTY,
    SELF,
    UNTYPED,
    Annotation,
    CallResult,
    Chain,
    Decorated,
    Either,
    Entered,
    Name,
    OneOf,
    PythonMemberFacts,
    SameAs,
    Written,
    head_of,
    name_key,
)


_DEPTH = 12  # re-export chains, base classes and typing steps (member after member) followed this far
_Thing = tuple[str, str, str]  # (kind: module|class|instance|function|member|external, path, name)
_EXTERNAL: _Thing = ("external", "", "")
_SELF = ("self", "cls")


def member_facts_of(facts: FileFacts | None) -> PythonMemberFacts:
    """The file's member facts (none for a file without them)."""
    extra = facts.extra if facts is not None else None
    return extra if isinstance(extra, PythonMemberFacts) else EMPTY


def _path_and_class(member: str) -> tuple[str, str]:
    """A class of a union (`path::Class`)."""
    path, _, cls = member.partition("::")
    return path, cls


class ImportTargets(Protocol):
    """What member resolution asks of the file resolver (`resolve.PythonResolver`): the module
    table, and the files and bindings an import names."""

    table: ModuleTable

    def targets(self, ref: ImportRef, importer: str) -> list[tuple[str, str, ImportBinding | None]]: ...


class MemberResolver:
    def __init__(self, project: ProjectView, resolver: ImportTargets) -> None:
        self._project = project
        self._resolver = resolver
        # Per-file tables, each kept with the facts object it was read from: the resolver outlives
        # edits (reusable_resolver), and a file's new facts are a new object.
        self._bindings: dict[str, tuple[FileFacts | None, dict[str, tuple[str, str | None]]]] = {}
        self._symbols: dict[str, tuple[FileFacts | None, dict[str, str]]] = {}
        self._local_classes: dict[str, tuple[FileFacts | None, dict[str, list[str]]]] = {}
        self._located: dict[tuple[str, Name], _Thing | None] = {}
        # names being typed right now: `node = node.parent` types `node` from itself, a cycle
        self._typing: set[tuple[str, Name]] = set()
        # what such a name is assumed to hold while its own rebindings are checked (`u = URL()`,
        # then `u = u.replace()`: still a URL when `replace` returns one)
        self._assumed: dict[tuple[str, Name], _Thing] = {}
        # `thing.name` as `_walk` asks it, per file like `_located` (`os.path` in every `os.path.*`)
        self._attributes: dict[tuple[_Thing, str], _Thing | None] = {}
        # Facts read during one `resolve` call: the view does not change within it, and a file's
        # tables are asked for thousands of times per pass (each asking the view again).
        self._read: dict[str, FileFacts | None] | None = None

    # -- per-file tables (cached: a resolver lives for one pass) -------------------------------

    def _facts(self, path: str) -> FileFacts | None:
        read = self._read
        if read is None:
            return self._project.facts_of(path)
        if path in read:
            return read[path]
        found = read[path] = self._project.facts_of(path)
        return found

    def symbols(self, path: str) -> dict[str, str]:
        facts = self._facts(path)
        cached = self._symbols.get(path)
        if cached is not None and cached[0] is facts:
            return cached[1]
        found = {s.name: s.kind for s in facts.symbols} if facts else {}
        self._symbols[path] = (facts, found)
        return found

    def stated(self, path: str) -> PythonMemberFacts:
        """What `path`'s member facts state."""
        return member_facts_of(self._facts(path))

    def local_classes(self, path: str) -> dict[str, list[str]]:
        """Classes a function of `path` defines (`def test(): class MySchema(Schema): ...`), by
        their own name: what a name used in that function and bound nowhere else is."""
        facts = self._facts(path)
        cached = self._local_classes.get(path)
        if cached is not None and cached[0] is facts:
            return cached[1]
        symbols = self.symbols(path)
        found: dict[str, list[str]] = defaultdict(list)
        for name, kind in symbols.items():
            owner, dot, short = name.rpartition(".")
            if dot and kind == "class" and symbols.get(owner) in ("function", "method"):
                found[short].append(name)
        self._local_classes[path] = (facts, found)
        return found

    def bindings(self, path: str) -> dict[str, tuple[str, str | None]]:
        """Local name -> (file, name in it or None for a module). External imports map to ("", None)."""
        facts = self._facts(path)
        cached = self._bindings.get(path)
        if cached is not None and cached[0] is facts:
            return cached[1]
        found: dict[str, tuple[str, str | None]] = {}
        for ref in facts.imports if facts else ():
            if ref.kind == "wildcard":
                continue
            targets = self._resolver.targets(ref, path)
            local = ref.alias or (ref.names[0] if ref.names else ref.target.split(".", 1)[0])
            if not targets:
                found.setdefault(local, ("", None))
                continue
            for _, _, binding in targets:
                if binding is not None:
                    found[binding.chain] = (binding.target, binding.symbol)
            if ref.kind == "import" and not ref.alias and "." in ref.target:
                # `import click.utils` binds `click` itself, the package: `click.prompt` then
                # reads the package's attribute (its `__init__.py`), as Python does.
                top = ref.target.split(".", 1)[0]
                package = self._resolver.table.lookup(top, path)
                if package is not None and top not in found:
                    found[top] = (package, None)
        self._bindings[path] = (facts, found)
        return found

    # -- what a name is -------------------------------------------------------------------------

    def locate(self, path: str, name: Name, depth: int = 0) -> _Thing | None:
        """What top-level `name` is as seen from `path`: defined there, or imported (followed
        through re-exports to where it is defined). None: unknown (no binding at all)."""
        key = (path, name)
        if key in self._located:
            return self._located[key]
        if depth > _DEPTH:
            return None
        self._located[key] = None  # a re-export cycle ends here
        found = self._located[key] = self._locate(path, name, depth)
        if found is None and depth:
            del self._located[key]  # maybe only cut short by the depth: asked nearer the top, it may be found
        return found

    def _locate(self, path: str, name: Name, depth: int) -> _Thing | None:
        if not isinstance(name, str):
            return None  # a name a function binds otherwise (`Local`): no definition or import
        kind = self.symbols(path).get(name)
        if kind is not None:
            if kind == "class":
                return ("class", path, name)
            if kind == "function":  # a function a project decorator made into an instance is one
                made = self._instance(path, name, depth)
                return made if made is not None and made[0] == "instance" else ("function", path, name)
            return self._instance(path, name, depth) or ("member", path, name)
        bound = self.bindings(path).get(name)
        if bound is None:
            facts = self._facts(path)
            wildcard = self._from_wildcards(facts, name, depth) if facts else None
            return wildcard or self._local_class(path, name)
        target, symbol = bound
        if not target:
            return _EXTERNAL
        if symbol is None:
            return ("module", target, "")
        return self.attribute(("module", target, ""), symbol, depth + 1)

    def _local_class(self, path: str, name: str) -> _Thing | None:
        """A name bound nowhere in the module (no definition, import or typed variable) that a
        function of the file defines as a class: that class, or when several functions define a
        class of that name, one of them (a union: what is used on it is a member of each)."""
        found = self.local_classes(path).get(name)
        if not found:
            return None
        stated = self.stated(path)
        if name in stated.types or name in stated.told_apart:
            return None  # also bound otherwise (a parameter, a fixture): which one is not proven
        if len(found) == 1:
            return ("class", path, found[0])
        return ("union", "", "|".join(f"{path}::{qualified}" for qualified in found))

    def _from_wildcards(self, facts: FileFacts, name: str, depth: int) -> _Thing | None:
        for ref in facts.imports:
            if ref.kind != "wildcard":
                continue
            for target, _, _ in self._resolver.targets(ref, facts.path):
                if target == facts.path:
                    continue
                if name in self.symbols(target) or name in self.bindings(target):
                    return self.locate(target, name, depth + 1)
                # `from ._transports import *`, whose `__init__.py` does `from .asgi import *`
                wildcards = self._facts(target) if depth < _DEPTH else None
                nested = self._from_wildcards(wildcards, name, depth + 1) if wildcards is not None else None
                if nested is not None:
                    return nested
        return None

    def attribute(self, thing: _Thing, name: str, depth: int = 0) -> _Thing | None:
        """`thing.name`: a module's attribute (a submodule too), a class's or instance's member."""
        kind, path, owner = thing
        if kind == "module":
            found = self.locate(path, name, depth)
            if found is not None and found != _EXTERNAL:
                return found
            if path.endswith(("__init__.py", "__init__.pyi")):
                sub = self._resolver.table.in_directory(parent_dir(path), name)
                if sub is not None:
                    return ("module", sub, "")
            return found
        if kind in ("class", "instance"):
            return self._member(path, owner, name, depth)
        if kind == "union":
            members = [self._member(*_path_and_class(member), name, depth) for member in owner.split("|")]
            proven = [m for m in members if m is not None and m != _EXTERNAL]
            return ("members", "", "|".join(f"{m[1]}::{m[2]}" for m in proven)) if proven else _EXTERNAL
        # A function's attributes are not members of a class; but a parameter that shadows a
        # function's name (a pytest fixture) is untyped: None keeps its members as by-name evidence.
        return _EXTERNAL if kind == "external" else None

    def _member(self, path: str, cls: str, name: str, depth: int) -> _Thing | None:
        """`cls.name` where `cls` is defined in `path`, looking through project base classes."""
        if depth > _DEPTH:
            return None
        qualified = f"{cls}.{name}"
        kind = self.symbols(path).get(qualified)
        if kind is not None:  # a nested class (`self.Inner()`) is a class, not a method
            return ("class" if kind == "class" else "member", path, qualified)
        found = self._inherited(path, cls, name, depth)
        if found is None and not name.startswith("__"):
            # an attribute a method assigns (`self.config = self.make_config()`): typed by what
            # the file states for `self.config` when the walk goes on from it
            if f"self.{name}" in self.stated(path).types:
                return ("member", path, qualified)
        return found

    def _inherited(self, path: str, cls: str, name: str, depth: int) -> _Thing | None:
        """`name` as `cls`'s project base classes define it (what `super().name` reaches)."""
        for written in self.stated(path).bases.get(cls, ()):
            base = self.dotted(path, written, depth + 1)
            if base is not None and base[0] == "class":
                found = self._member(base[1], base[2], name, depth + 1)
                if found is not None and found != _EXTERNAL:
                    return found
        # Not declared: an attribute set in a method (`self.console = console`), or inherited
        # from a library class. Either way its type is unknown, so what is used on it is by name.
        return _EXTERNAL if name.startswith("__") else None

    def dotted(self, path: str, written: str, depth: int = 0, scope: int | None = None) -> _Thing | None:
        """What dotted path `written` names (`scope`: the function whose binding of its head it reads)."""
        first, *rest = written.split(".")
        if rest and first in _SELF:  # `self.make_config()`: the file's class declaring the member
            return self.chain_type(path, written, depth + 1, to_member=True)
        head = name_key(first, scope)
        if rest and self._unbound(path, head):
            return None
        # `result = runner.invoke(...)`: a typed variable first, then what the name is bound to
        thing = (self._instance(path, head, depth + 1) if rest and depth < _DEPTH else None) or \
            self.locate(path, head, depth)
        for name in rest:
            if thing is None or thing == _EXTERNAL:
                return thing
            thing = self.attribute(thing, name, depth)
        return thing

    def _unbound(self, path: str, name: Name) -> bool:
        return UNTYPED in self.stated(path).types.get(name, ())

    def _instance(self, path: str, name: Name, depth: int) -> _Thing | None:
        """The class of what `name` (a variable, parameter or `self.x`) holds in `path`, when every
        type the file writes for it agrees; None when unknown or ambiguous."""
        written_types = self.stated(path).types.get(name)
        if not written_types:
            return None
        key = (path, name)
        if key in self._typing:
            return self._assumed.get(key)  # typed from itself (`node = node.parent`): nothing states it
        self._typing.add(key)
        try:
            return self._agreed(path, name, written_types, depth)
        finally:
            self._typing.discard(key)

    def _agreed(self, path: str, name: Name, written_types: Sequence[Written], depth: int) -> _Thing | None:
        if len(written_types) > 1 and isinstance(name, str) and name.startswith("self."):
            # an attribute's declared type holds whatever is assigned to it (`self.x: T = value`,
            # `self.x = make()` in a subclass): a type checker holds every assignment to it
            # (As when these facts were strings, a conditional from a call to a name, `make() if c
            # else x`, counts with them: its spelling neither began with a name nor ended in a call.
            # Changing that changes answers.)
            declared = [w for w in written_types if isinstance(w, (Annotation, OneOf, Entered))
                        or (isinstance(w, Either) and isinstance(w.branches[0], CallResult)
                            and isinstance(w.branches[-1], SameAs))]
            written_types = declared or written_types
        own = [w for w in written_types if head_of(w) == name] if len(written_types) > 1 else None
        if own and len(own) < len(written_types):
            # `u = URL(...)` and `u = u.include_query_params(...)`: what the other bindings state,
            # if each rebinding from itself gives the same again
            base = self._agreed(path, name, [w for w in written_types if w not in own], depth)
            if base is None:
                return None
            self._assumed[(path, name)] = base
            try:
                agree = all(self._typed(path, w, depth + 1) == base for w in own)
            finally:
                del self._assumed[(path, name)]
            return base if agree else None
        found: set[_Thing] = set()
        for written in written_types:
            thing = self._typed(path, written, depth + 1)
            if thing is None:
                return None
            found.add(thing)
        if len(found) == 1:
            return found.pop()
        # Bound to several classes (`h = ReprHighlighter()` in one test, `h = JSONHighlighter()` in
        # another): a member used on it is a member of one of them, each stated in the source.
        classes = sorted(t for t in found if t[0] == "instance")
        return ("union", "", "|".join(f"{p}::{c}" for _, p, c in classes)) if len(classes) == len(found) else None

    def _typed(self, path: str, written: Written, depth: int) -> _Thing | None:
        """The instance a written type, call (`T()`, `make()`) or decorator (`@group`: the
        decorated function is what the decorator returns) denotes."""
        if depth > _DEPTH:
            return None
        if isinstance(written, SameAs):  # what another name holds: a typed variable, or a class itself
            same = written.path
            if same.startswith("self.") or "." not in same:
                key = name_key(same, written.scope) if "." not in same else same
                found = self._instance(path, key, depth + 1)
                if found is not None or "." not in same:
                    return found or (None if self._unbound(path, key) else self._alias(path, key, depth))
                if same.count(".") == 1:
                    return None  # `self.x` with no stated type
            return self.chain_type(path, same, depth + 1, scope=written.scope)
        if isinstance(written, Either):  # `a if c else b`: what each branch gives, every one of them typed
            if isinstance(written.branches[0], SameAs):
                # Not followed (yet) when the first branch is a name (`c if c else make()`): the
                # string these facts were stored as read it as one name nothing binds, so `callers`
                # never counted it; typing it changes answers, a graph-accuracy change of its own.
                return None
            branches = [self._typed(path, w, depth + 1) for w in written.branches]
            typed = [b for b in branches if b is not None and b[0] in ("instance", "union")]
            if len(typed) < len(branches):
                return None
            members = sorted({m for b in typed for m in (b[2].split("|") if b[0] == "union" else [f"{b[1]}::{b[2]}"])})
            return ("instance", *_path_and_class(members[0])) if len(members) == 1 else ("union", "", "|".join(members))
        if isinstance(written, Entered):  # `with Client() as c`: what `Client().__enter__()` returns
            instance = self._typed(path, written.manager, depth + 1)
            entered = self._member(instance[1], instance[2], written.method, depth + 1) \
                if instance is not None and instance[0] == "instance" else None
            return self.returned(entered, depth + 1) if entered is not None and entered[0] == "member" else None
        if isinstance(written, OneOf):  # alternatives: the project classes among them (several: a union)
            classes: set[str] = set()  # "path::Class"
            for thing in (self._typed(path, w, depth + 1) for w in written.alternatives):
                if thing is not None and thing[0] == "instance":
                    classes.add(f"{thing[1]}::{thing[2]}")
                elif thing is not None and thing[0] == "union":
                    classes.update(thing[2].split("|"))
            if len(classes) == 1:
                return ("instance", *_path_and_class(classes.pop()))
            return ("union", "", "|".join(sorted(classes))) if classes else None
        if isinstance(written, Decorated):
            thing = self.dotted(path, written.decorator, depth, written.scope)
            if thing is None or thing == _EXTERNAL:
                return thing
            return ("instance", thing[1], thing[2]) if thing[0] == "class" else (
                self.returned(thing, depth) if thing[0] in ("function", "member") else None)
        if isinstance(written, CallResult):
            called, text, scope = True, written.callee, written.scope
        elif isinstance(written, Annotation):
            called, text, scope = False, written.cls, written.scope
        else:
            return None  # SELF is the caller's to read; UNTYPED states nothing
        if called and text.rsplit(".", 1)[-1] in ("TypeVar", "NewType", "ParamSpec"):
            return None  # a type variable stands for project classes too: what is used on it is by name
        thing = self.dotted(path, text, depth, scope)
        if thing is None or thing == _EXTERNAL:
            return thing
        if thing[0] == "class":
            return ("instance", thing[1], thing[2])
        if thing[0] == "union" and called:  # `MySchema()`, a class one of several functions define
            return thing
        if called and thing[0] in ("function", "member"):
            return self.returned(thing, depth)
        return None

    def _alias(self, path: str, name: Name, depth: int) -> _Thing | None:
        thing = self.locate(path, name, depth + 1)
        return thing if thing is not None and thing[0] in ("class", "instance", "function") else None

    def returned(self, thing: _Thing, depth: int = 0) -> _Thing | None:
        """The instance a function or method returns, when annotated."""
        written = self.stated(thing[1]).returns.get(thing[2])
        if written == SELF:  # `-> Self`: an instance of the class declaring the method
            owner = thing[2].rpartition(".")[0]
            return ("instance", thing[1], owner) if owner and self.symbols(thing[1]).get(owner) == "class" else None
        return self._typed(thing[1], written, depth + 1) if written else None

    # -- a file's member uses ------------------------------------------------------------------------

    def resolve(self, facts: FileFacts) -> tuple[dict[str, set[str]], set[str]]:
        """({defining file: {member names}}, {member names used on receivers nobody could type})."""
        self._read = {}
        try:
            self._located = {}  # what names mean across files may have changed since the last call
            self._attributes = {}
            return self._file_uses(facts)
        finally:
            self._read = None

    # -- walking a file's uses, one name at a time from its head

    def _file_uses(self, facts: FileFacts) -> tuple[dict[str, set[str]], set[str]]:
        used: dict[str, set[str]] = defaultdict(set)
        record = member_facts_of(facts)
        unknown: set[str] = set(record.untyped)
        path = facts.path
        classes = [name for name, kind in self.symbols(path).items() if kind == "class"]
        bound = self.bindings(path)
        told_apart = set(record.told_apart)  # names bound differently per function
        # The uses of those names come again as `local` uses, with the function binding them.
        uses = [u for u in facts.uses if u.partition(".")[0] not in told_apart] if told_apart else facts.uses
        # What a name other than self/cls is depends on the name alone: asked once per file, not
        # once per use (`os.path.join`, `os.path.exists`, `os.sep` share the head `os`).
        named: dict[Name, _Thing | None] = {}
        # `self.x...` depends on `x` and on whether more follows: (what it is, `x` consumed)
        owned: dict[tuple[str, bool], tuple[_Thing | None, bool]] = {}
        scoped: list[tuple[str, int | None]] = [(u.path, u.scope) for u in record.local]
        for use, scope in joined(zip(uses, repeat(None)), scoped):
            if "." in use:
                first, *rest = use.split(".")
                head = name_key(first, scope)
                if head in _SELF:
                    key = (rest[0], len(rest) > 1)
                    if key not in owned:
                        count = len(rest)
                        owned[key] = (self._self_head(path, head, rest, classes), len(rest) < count)
                    elif owned[key][1]:
                        del rest[:1]  # as `_head` consumed it the first time
                    thing = owned[key][0]
                elif head in named:
                    thing = named[head]
                else:
                    thing = named[head] = self._self_head(path, head, rest, classes)
                self._walk(path, thing, rest, used, unknown)
            elif use in bound and bound[use][1] is not None:  # `from m import name`, then `name`
                self._record(self._defined(*bound[use]), used)
        for call in record.supers:  # `super().name` in class C: a member of C's bases
            found = self._inherited(path, call.cls, call.member, 0)
            self._record(found, used)
            if found is None:
                unknown.add(call.member)
        for on in record.calls:
            name = on.member
            first, *rest = on.callee.split(".")
            thing = self._self_head(path, name_key(first, on.scope), rest, classes)
            thing = self._walk(path, thing, rest, used, unknown) if rest else thing
            if thing is not None and thing[0] == "class":
                thing = ("instance", thing[1], thing[2])
            elif thing is not None and thing[0] in ("function", "member"):
                thing = self.returned(thing)
            self._walk(path, thing, [name], used, unknown)
        for chain in record.chains:
            self._walk_calls(path, chain, classes, used, unknown)
        used.pop(path, None)
        return used, unknown


    def _self_head(self, path: str, head: Name, rest: list[str], classes: list[str]) -> _Thing | None:
        if head in _SELF:
            if rest and len(rest) > 1:
                typed = self._instance(path, f"self.{rest[0]}", 0)
                if typed is not None:
                    rest[:1] = []  # consumed: the walk goes on from the attribute's type
                    return typed
            symbols = self.symbols(path)  # once, not per class
            owners = [c for c in classes if f"{c}.{rest[0]}" in symbols] if rest else []
            if not owners and len(classes) == 1:
                owners = classes  # its member may come from a base class
            return ("instance", path, owners[0]) if len(owners) == 1 else (("external", path, "") if owners else None)
        if self._unbound(path, head):
            return None  # somewhere in the file the name is bound with no stated type
        typed = self._instance(path, head, 0)
        if typed is not None and not (typed[0] != "instance" and isinstance(head, str)
                                      and self.symbols(path).get(head) == "function"):
            return typed
        # a function that a library decorator wrapped (`@pytest.fixture`): untyped when used as a value
        return self.locate(path, head)


    def _defined(self, path: str, name: str | None) -> _Thing | None:
        """Where an imported `name` of module `path` is defined, through re-exports."""
        for _ in range(_DEPTH):
            if not path or name is None:
                return None
            kind = self.symbols(path).get(name)
            if kind is not None:
                return ("class" if kind == "class" else "function" if kind == "function" else "member", path, name)
            path, name = self.bindings(path).get(name, ("", None))
        return None


    def _record_overridden(self, member: _Thing, used: dict[str, set[str]]) -> None:
        """A call of `Sub.m` that overrides `Base.m` may still run `Base.m` (through `super()`, or
        a receiver typed more loosely than it is): recorded as `~Base.m`, by-name evidence for
        the base method, never a proven call of it."""
        _, path, qualified = member
        if self.symbols(path).get(qualified) != "method":
            return
        cls, _, name = qualified.rpartition(".")
        for _ in range(_DEPTH):
            base = self._inherited(path, cls, name, 0)
            if base is None or base == _EXTERNAL or base[0] != "member":
                return
            used[base[1]].add("~" + base[2])
            path, (cls, _, name) = base[1], base[2].rpartition(".")


    @staticmethod
    def _record(thing: _Thing | None, used: dict[str, set[str]]) -> None:
        if thing is not None and thing[0] in ("class", "function", "member") and thing[2]:
            used[thing[1]].add(thing[2])
        elif thing is not None and thing[0] == "members":  # one member of each class of a union
            for member in thing[2].split("|"):
                path, _, name = member.partition("::")
                used[path].add(name)


    def _walk(self, path: str, thing: _Thing | None, rest: list[str], used: dict[str, set[str]],
              unknown: set[str]) -> _Thing | None:
        """Follow `rest` from `thing`, recording each member found; the last thing found."""
        found: _Thing | None = thing
        for index, name in enumerate(rest):
            if index:  # one level of chaining: an attribute's or a method's declared type
                if found is not None and found[0] in ("function", "member") and thing is not None and \
                        thing[0] in ("class", "instance"):
                    found = self._instance(found[1], f"self.{rest[index - 1]}", 0) or self.returned(found)
                thing = found
            if thing is None:
                # used on a receiver nobody could type, and so is every name after it (`x.a.b`)
                unknown.update(rest[index:])
                return None
            if thing == _EXTERNAL or thing[0] == "external":
                return None
            found = self._step(thing, name, used, unknown)
        return found


    def _step(self, thing: _Thing, name: str, used: dict[str, set[str]],
             unknown: set[str]) -> _Thing | None:
        """`thing.name` (asked once per file), recorded: a member found (for an override, its base as
        by-name `~Base.m` too), or `name` as by-name evidence when what `thing` holds is unknown."""
        key = (thing, name)
        if key in self._attributes:
            found = self._attributes[key]
        else:
            found = self._attributes[key] = self.attribute(thing, name)
        if found is not None and found != _EXTERNAL:
            if thing[0] == "module" and found[0] in ("class", "function") and found[2].rpartition(".")[2] != name:
                # `fields.Str()` with `Str = String` in fields.py: the file names the alias, as
                # find-references sees it; what is used on it is still String's
                self._record(self._defined(thing[1], name), used)
            else:
                self._record(found, used)
            if found[0] == "member" and thing[0] in ("class", "instance"):
                self._record_overridden(found, used)
        elif found is None and thing[0] != "module":
            # a value of unknown type (a module variable, a wrapped function), or a member the
            # typed class does not declare (a library base's, or the type read too narrowly)
            unknown.add(name)
        return found


    def _walk_calls(self, path: str, chain: Chain, classes: list[str], used: dict[str, set[str]],
                    unknown: set[str]) -> None:
        """A chain of names and calls (`App().runner().invoke`), walked from its head: each member
        found is recorded, a call gives what the member returns, an attribute what it is declared
        to hold. From a receiver nobody could type on, the names are by-name evidence."""
        names = [name for name, _ in chain.links]
        thing = self._self_head(path, name_key(names[0], chain.scope), names[1:2], classes)
        for index, (_, called) in enumerate(chain.links):
            if index:
                if thing is None:
                    unknown.update(names[index:])
                    return
                if thing[0] == "external":
                    return
                found = self._step(thing, names[index], used, unknown)
                if not called and found is not None and found[0] == "member":
                    # an attribute (a property): what it is declared to hold
                    found = self._instance(found[1], f"self.{names[index]}", 0) or self.returned(found) \
                        if thing[0] in ("class", "instance") else None
                thing = found
            if called and thing is not None:
                if thing[0] == "class":
                    thing = ("instance", thing[1], thing[2])
                elif thing[0] in ("function", "member"):
                    thing = self.returned(thing)
                elif thing[0] != "union" and thing[0] != "external":
                    thing = None  # calling an instance: what `__call__` returns is not followed

    # -- what a dotted path holds, typed member by member

    def chain_type(self, path: str, written: str, depth: int, to_member: bool = False,
                   scope: int | None = None) -> _Thing | None:
        """What a dotted path (`self.app.session_interface`, `mod.Cls`) holds: each name looked up
        on the previous one, a member typed by its declaration (`session_interface:
        SessionInterface`) or its annotated return (a property). A class or an instance, else None."""
        if depth > _DEPTH:
            return None
        first, *rest = written.split(".")
        head = name_key(first, scope)
        if head in _SELF:
            thing = self._self_head(path, head, rest, [n for n, k in self.symbols(path).items() if k == "class"])
        elif self._unbound(path, head):
            return None
        else:
            thing = self._instance(path, head, depth + 1) or self.locate(path, head, depth + 1)
        for index, name in enumerate(rest):
            if thing is None or thing[0] not in ("module", "class", "instance"):
                return None
            found = self.attribute(thing, name, depth + 1)
            if to_member and index == len(rest) - 1:
                return found  # the member itself (a method to call), not what it holds
            if found is not None and found[0] == "member":
                found = None if thing[0] == "module" else \
                    self._instance(found[1], f"self.{name}", depth + 1) or self.returned(found, depth + 1)
            thing = found
        return thing if thing is not None and thing[0] in ("class", "instance") else None
