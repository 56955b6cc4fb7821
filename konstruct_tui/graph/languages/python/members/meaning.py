"""What a name, attribute or written type is as seen from one Python file: the typing half of member
resolution (`uses.py` walks a file's member uses and asks this what each name along them is).

A head is typed from what the file states (`members/facts.py`): an import binding, followed through
re-exports (`pkg/__init__.py` importing the name from where it is defined) to the defining file; a
class; a module-level instance (`console = Console()` in another file); an annotation or a
constructor call; `self`/`cls` (the file's classes); a class a function of the file defines. Each
further name is looked up on what the previous one was: a module's attribute, a class's member
(its bases too, or an attribute its methods assign), what a method returns (its annotation, else
what all its `return`s state). A head proven to be something outside the project
(`os.path.join`) is `EXTERNAL`; one nothing types is None.
"""

from __future__ import annotations

from collections.abc import Sequence

from ....facts import FileFacts, ProjectView
from ..modules import parent_dir
from ..records import (
    SELF,
    UNTYPED,
    Annotation,
    CallResult,
    Decorated,
    Either,
    Entered,
    Name,
    OneOf,
    SameAs,
    Written,
    head_of,
    name_key,
)
from .file_tables import FileTables, ImportTargets


DEPTH = 12  # re-export chains, base classes and typing steps (member after member) followed this far
Thing = tuple[str, str, str]  # (kind: module|class|instance|function|member|external, path, name)
EXTERNAL: Thing = ("external", "", "")
SELF_NAMES = ("self", "cls")


def _path_and_class(member: str) -> tuple[str, str]:
    """A class of a union (`path::Class`)."""
    path, _, cls = member.partition("::")
    return path, cls


class Meanings:
    """What names, attributes and written types are, across the project's files (`locate`,
    `attribute`, `dotted`, `instance_of`, `returned`, `chain_type`), from the files' tables."""

    def __init__(self, project: ProjectView, resolver: ImportTargets) -> None:
        self.tables = FileTables(project, resolver)
        self._resolver = resolver
        self._located: dict[tuple[str, Name], Thing | None] = {}
        # names being typed right now: `node = node.parent` types `node` from itself, a cycle
        self._typing: set[tuple[str, Name]] = set()
        # what such a name is assumed to hold while its own rebindings are checked (`u = URL()`,
        # then `u = u.replace()`: still a URL when `replace` returns one)
        self._assumed: dict[tuple[str, Name], Thing] = {}

    def forget(self) -> None:
        """Drop what names were found to be: what names mean across files may have changed since
        the last pass."""
        self._located = {}

    # -- what a name is -------------------------------------------------------------------------

    def locate(self, path: str, name: Name, depth: int = 0) -> Thing | None:
        """What top-level `name` is as seen from `path`: defined there, or imported (followed
        through re-exports to where it is defined). None: unknown (no binding at all)."""
        key = (path, name)
        if key in self._located:
            return self._located[key]
        if depth > DEPTH:
            return None
        self._located[key] = None  # a re-export cycle ends here
        found = self._located[key] = self._locate(path, name, depth)
        if found is None and depth:
            del self._located[key]  # maybe only cut short by the depth: asked nearer the top, it may be found
        return found

    def _locate(self, path: str, name: Name, depth: int) -> Thing | None:
        if not isinstance(name, str):
            return None  # a name a function binds otherwise (`Local`): no definition or import
        kind = self.tables.symbols(path).get(name)
        if kind is not None:
            if kind == "class":
                return ("class", path, name)
            if kind == "function":  # a function a project decorator made into an instance is one
                made = self.instance_of(path, name, depth)
                return made if made is not None and made[0] == "instance" else ("function", path, name)
            return self.instance_of(path, name, depth) or ("member", path, name)
        bound = self.tables.bindings(path).get(name)
        if bound is None:
            facts = self.tables.facts(path)
            wildcard = self._from_wildcards(facts, name, depth) if facts else None
            return wildcard or self._local_class(path, name)
        target, symbol = bound
        if not target:
            return EXTERNAL
        if symbol is None:
            return ("module", target, "")
        return self.attribute(("module", target, ""), symbol, depth + 1)

    def _local_class(self, path: str, name: str) -> Thing | None:
        """A name bound nowhere in the module (no definition, import or typed variable) that a
        function of the file defines as a class: that class, or when several functions define a
        class of that name, one of them (a union: what is used on it is a member of each)."""
        found = self.tables.local_classes(path).get(name)
        if not found:
            return None
        stated = self.tables.stated(path)
        if name in stated.types or name in stated.told_apart:
            return None  # also bound otherwise (a parameter, a fixture): which one is not proven
        if len(found) == 1:
            return ("class", path, found[0])
        return ("union", "", "|".join(f"{path}::{qualified}" for qualified in found))

    def _from_wildcards(self, facts: FileFacts, name: str, depth: int) -> Thing | None:
        for ref in facts.imports:
            if ref.kind != "wildcard":
                continue
            for target, _, _ in self._resolver.targets(ref, facts.path):
                if target == facts.path:
                    continue
                if name in self.tables.symbols(target) or name in self.tables.bindings(target):
                    return self.locate(target, name, depth + 1)
                # `from ._transports import *`, whose `__init__.py` does `from .asgi import *`
                wildcards = self.tables.facts(target) if depth < DEPTH else None
                nested = self._from_wildcards(wildcards, name, depth + 1) if wildcards is not None else None
                if nested is not None:
                    return nested
        return None

    def attribute(self, thing: Thing, name: str, depth: int = 0) -> Thing | None:
        """`thing.name`: a module's attribute (a submodule too), a class's or instance's member."""
        kind, path, owner = thing
        if kind == "module":
            found = self.locate(path, name, depth)
            if found is not None and found != EXTERNAL:
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
            proven = [m for m in members if m is not None and m != EXTERNAL]
            return ("members", "", "|".join(f"{m[1]}::{m[2]}" for m in proven)) if proven else EXTERNAL
        # A function's attributes are not members of a class; but a parameter that shadows a
        # function's name (a pytest fixture) is untyped: None keeps its members as by-name evidence.
        return EXTERNAL if kind == "external" else None

    def _member(self, path: str, cls: str, name: str, depth: int) -> Thing | None:
        """`cls.name` where `cls` is defined in `path`, looking through project base classes."""
        if depth > DEPTH:
            return None
        qualified = f"{cls}.{name}"
        kind = self.tables.symbols(path).get(qualified)
        if kind is not None:  # a nested class (`self.Inner()`) is a class, not a method
            return ("class" if kind == "class" else "member", path, qualified)
        found = self.inherited(path, cls, name, depth)
        if found is None and not name.startswith("__"):
            # an attribute a method assigns (`self.config = self.make_config()`): typed by what
            # the file states for `self.config` when the walk goes on from it
            if f"self.{name}" in self.tables.stated(path).types:
                return ("member", path, qualified)
        return found

    def inherited(self, path: str, cls: str, name: str, depth: int) -> Thing | None:
        """`name` as `cls`'s project base classes define it (what `super().name` reaches)."""
        for written in self.tables.stated(path).bases.get(cls, ()):
            base = self.dotted(path, written, depth + 1)
            if base is not None and base[0] == "class":
                found = self._member(base[1], base[2], name, depth + 1)
                if found is not None and found != EXTERNAL:
                    return found
        # Not declared: an attribute set in a method (`self.console = console`), or inherited
        # from a library class. Either way its type is unknown, so what is used on it is by name.
        return EXTERNAL if name.startswith("__") else None

    def dotted(self, path: str, written: str, depth: int = 0, scope: int | None = None) -> Thing | None:
        """What dotted path `written` names (`scope`: the function whose binding of its head it reads)."""
        first, *rest = written.split(".")
        if rest and first in SELF_NAMES:  # `self.make_config()`: the file's class declaring the member
            return self.chain_type(path, written, depth + 1, to_member=True)
        head = name_key(first, scope)
        if rest and self.unbound(path, head):
            return None
        # `result = runner.invoke(...)`: a typed variable first, then what the name is bound to
        thing = (self.instance_of(path, head, depth + 1) if rest and depth < DEPTH else None) or \
            self.locate(path, head, depth)
        for name in rest:
            if thing is None or thing == EXTERNAL:
                return thing
            thing = self.attribute(thing, name, depth)
        return thing

    def unbound(self, path: str, name: Name) -> bool:
        """Whether somewhere in `path` the name is bound with no stated type."""
        return UNTYPED in self.tables.stated(path).types.get(name, ())

    def instance_of(self, path: str, name: Name, depth: int) -> Thing | None:
        """The class of what `name` (a variable, parameter or `self.x`) holds in `path`, when every
        type the file writes for it agrees; None when unknown or ambiguous."""
        written_types = self.tables.stated(path).types.get(name)
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

    def _agreed(self, path: str, name: Name, written_types: Sequence[Written], depth: int) -> Thing | None:
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
        found: set[Thing] = set()
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

    def _typed(self, path: str, written: Written, depth: int) -> Thing | None:
        """The instance a written type, call (`T()`, `make()`) or decorator (`@group`: the
        decorated function is what the decorator returns) denotes."""
        if depth > DEPTH:
            return None
        if isinstance(written, SameAs):  # what another name holds: a typed variable, or a class itself
            same = written.path
            if same.startswith("self.") or "." not in same:
                key = name_key(same, written.scope) if "." not in same else same
                found = self.instance_of(path, key, depth + 1)
                if found is not None or "." not in same:
                    return found or (None if self.unbound(path, key) else self._alias(path, key, depth))
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
            if thing is None or thing == EXTERNAL:
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
        if thing is None or thing == EXTERNAL:
            return thing
        if thing[0] == "class":
            return ("instance", thing[1], thing[2])
        if thing[0] == "union" and called:  # `MySchema()`, a class one of several functions define
            return thing
        if called and thing[0] in ("function", "member"):
            return self.returned(thing, depth)
        return None

    def _alias(self, path: str, name: Name, depth: int) -> Thing | None:
        thing = self.locate(path, name, depth + 1)
        return thing if thing is not None and thing[0] in ("class", "instance", "function") else None

    def returned(self, thing: Thing, depth: int = 0) -> Thing | None:
        """The instance a function or method returns, when annotated."""
        written = self.tables.stated(thing[1]).returns.get(thing[2])
        if written == SELF:  # `-> Self`: an instance of the class declaring the method
            owner = thing[2].rpartition(".")[0]
            return ("instance", thing[1], owner) \
                if owner and self.tables.symbols(thing[1]).get(owner) == "class" else None
        return self._typed(thing[1], written, depth + 1) if written else None

    # -- the head of a use, and where an imported name is defined

    def receiver(self, path: str, head: Name, rest: list[str], classes: list[str]) -> Thing | None:
        """What the head of a dotted use is (`self`/`cls`: the file's class declaring `rest[0]`).
        When `self.<rest[0]>` has a stated type and more follows, that type, with `rest[0]` consumed
        (removed from `rest`)."""
        if head in SELF_NAMES:
            if rest and len(rest) > 1:
                typed = self.instance_of(path, f"self.{rest[0]}", 0)
                if typed is not None:
                    rest[:1] = []  # consumed: the walk goes on from the attribute's type
                    return typed
            symbols = self.tables.symbols(path)  # once, not per class
            owners = [c for c in classes if f"{c}.{rest[0]}" in symbols] if rest else []
            if not owners and len(classes) == 1:
                owners = classes  # its member may come from a base class
            return ("instance", path, owners[0]) if len(owners) == 1 else (("external", path, "") if owners else None)
        if self.unbound(path, head):
            return None  # somewhere in the file the name is bound with no stated type
        typed = self.instance_of(path, head, 0)
        if typed is not None and not (typed[0] != "instance" and isinstance(head, str)
                                      and self.tables.symbols(path).get(head) == "function"):
            return typed
        # a function that a library decorator wrapped (`@pytest.fixture`): untyped when used as a value
        return self.locate(path, head)

    def defined(self, path: str, name: str | None) -> Thing | None:
        """Where an imported `name` of module `path` is defined, through re-exports."""
        for _ in range(DEPTH):
            if not path or name is None:
                return None
            kind = self.tables.symbols(path).get(name)
            if kind is not None:
                return ("class" if kind == "class" else "function" if kind == "function" else "member", path, name)
            path, name = self.tables.bindings(path).get(name, ("", None))
        return None

    # -- what a dotted path holds, typed member by member

    def chain_type(self, path: str, written: str, depth: int, to_member: bool = False,
                   scope: int | None = None) -> Thing | None:
        """What a dotted path (`self.app.session_interface`, `mod.Cls`) holds: each name looked up
        on the previous one, a member typed by its declaration (`session_interface:
        SessionInterface`) or its annotated return (a property). A class or an instance, else None."""
        if depth > DEPTH:
            return None
        first, *rest = written.split(".")
        head = name_key(first, scope)
        if head in SELF_NAMES:
            thing = self.receiver(path, head, rest, [n for n, k in self.tables.symbols(path).items() if k == "class"])
        elif self.unbound(path, head):
            return None
        else:
            thing = self.instance_of(path, head, depth + 1) or self.locate(path, head, depth + 1)
        for index, name in enumerate(rest):
            if thing is None or thing[0] not in ("module", "class", "instance"):
                return None
            found = self.attribute(thing, name, depth + 1)
            if to_member and index == len(rest) - 1:
                return found  # the member itself (a method to call), not what it holds
            if found is not None and found[0] == "member":
                found = None if thing[0] == "module" else \
                    self.instance_of(found[1], f"self.{name}", depth + 1) or self.returned(found, depth + 1)
            thing = found
        return thing if thing is not None and thing[0] in ("class", "instance") else None
