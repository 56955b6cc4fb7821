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

What each name is, is `meaning.py`'s to say (`Meanings`); this module walks a file's uses and records
what they name.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import chain as joined
from itertools import repeat

from ....facts import FileFacts, ProjectView
from ..records import Chain, Name, name_key
from .file_tables import ImportTargets, member_facts_of
from .meaning import DEPTH, EXTERNAL, SELF_NAMES, Meanings, Thing


class MemberUses:
    """The member uses one file's facts state, each typed (`meaning.Meanings`) and recorded against
    the file defining the member, or kept by name when its receiver cannot be typed."""

    def __init__(self, project: ProjectView, resolver: ImportTargets) -> None:
        self._meanings = Meanings(project, resolver)
        self._tables = self._meanings.tables
        # `thing.name` as `_walk` asks it, per file like `Meanings.locate` (`os.path` in every `os.path.*`)
        self._attributes: dict[tuple[Thing, str], Thing | None] = {}

    # -- a file's member uses ------------------------------------------------------------------------

    def resolve(self, facts: FileFacts) -> tuple[dict[str, set[str]], set[str]]:
        """({defining file: {member names}}, {member names used on receivers nobody could type})."""
        self._tables.keep_reads()
        try:
            self._meanings.forget()  # what names mean across files may have changed since the last call
            self._attributes = {}
            return self._file_uses(facts)
        finally:
            self._tables.drop_reads()

    # -- walking a file's uses, one name at a time from its head

    def _file_uses(self, facts: FileFacts) -> tuple[dict[str, set[str]], set[str]]:
        used: dict[str, set[str]] = defaultdict(set)
        record = member_facts_of(facts)
        unknown: set[str] = set(record.untyped)
        path = facts.path
        classes = [name for name, kind in self._tables.symbols(path).items() if kind == "class"]
        bound = self._tables.bindings(path)
        told_apart = set(record.told_apart)  # names bound differently per function
        # The uses of those names come again as `local` uses, with the function binding them.
        uses = [u for u in facts.uses if u.partition(".")[0] not in told_apart] if told_apart else facts.uses
        # What a name other than self/cls is depends on the name alone: asked once per file, not
        # once per use (`os.path.join`, `os.path.exists`, `os.sep` share the head `os`).
        named: dict[Name, Thing | None] = {}
        # `self.x...` depends on `x` and on whether more follows: (what it is, `x` consumed)
        owned: dict[tuple[str, bool], tuple[Thing | None, bool]] = {}
        scoped: list[tuple[str, int | None]] = [(u.path, u.scope) for u in record.local]
        for use, scope in joined(zip(uses, repeat(None)), scoped):
            if "." in use:
                first, *rest = use.split(".")
                head = name_key(first, scope)
                if head in SELF_NAMES:
                    key = (rest[0], len(rest) > 1)
                    if key not in owned:
                        count = len(rest)
                        owned[key] = (self._meanings.receiver(path, head, rest, classes), len(rest) < count)
                    elif owned[key][1]:
                        del rest[:1]  # as `receiver` consumed it the first time
                    thing = owned[key][0]
                elif head in named:
                    thing = named[head]
                else:
                    thing = named[head] = self._meanings.receiver(path, head, rest, classes)
                self._walk(path, thing, rest, used, unknown)
            elif use in bound and bound[use][1] is not None:  # `from m import name`, then `name`
                self._record(self._meanings.defined(*bound[use]), used)
        for call in record.supers:  # `super().name` in class C: a member of C's bases
            found = self._meanings.inherited(path, call.cls, call.member, 0)
            self._record(found, used)
            if found is None:
                unknown.add(call.member)
        for on in record.calls:
            name = on.member
            first, *rest = on.callee.split(".")
            thing = self._meanings.receiver(path, name_key(first, on.scope), rest, classes)
            thing = self._walk(path, thing, rest, used, unknown) if rest else thing
            if thing is not None and thing[0] == "class":
                thing = ("instance", thing[1], thing[2])
            elif thing is not None and thing[0] in ("function", "member"):
                thing = self._meanings.returned(thing)
            self._walk(path, thing, [name], used, unknown)
        for chain in record.chains:
            self._walk_calls(path, chain, classes, used, unknown)
        used.pop(path, None)
        return used, unknown

    def _record_overridden(self, member: Thing, used: dict[str, set[str]]) -> None:
        """A call of `Sub.m` that overrides `Base.m` may still run `Base.m` (through `super()`, or
        a receiver typed more loosely than it is): recorded as `~Base.m`, by-name evidence for
        the base method, never a proven call of it."""
        _, path, qualified = member
        if self._tables.symbols(path).get(qualified) != "method":
            return
        cls, _, name = qualified.rpartition(".")
        for _ in range(DEPTH):
            base = self._meanings.inherited(path, cls, name, 0)
            if base is None or base == EXTERNAL or base[0] != "member":
                return
            used[base[1]].add("~" + base[2])
            path, (cls, _, name) = base[1], base[2].rpartition(".")

    @staticmethod
    def _record(thing: Thing | None, used: dict[str, set[str]]) -> None:
        if thing is not None and thing[0] in ("class", "function", "member") and thing[2]:
            used[thing[1]].add(thing[2])
        elif thing is not None and thing[0] == "members":  # one member of each class of a union
            for member in thing[2].split("|"):
                path, _, name = member.partition("::")
                used[path].add(name)

    def _walk(self, path: str, thing: Thing | None, rest: list[str], used: dict[str, set[str]],
              unknown: set[str]) -> Thing | None:
        """Follow `rest` from `thing`, recording each member found; the last thing found."""
        found: Thing | None = thing
        for index, name in enumerate(rest):
            if index:  # one level of chaining: an attribute's or a method's declared type
                if found is not None and found[0] in ("function", "member") and thing is not None and \
                        thing[0] in ("class", "instance"):
                    found = self._meanings.instance_of(found[1], f"self.{rest[index - 1]}", 0) or \
                        self._meanings.returned(found)
                thing = found
            if thing is None:
                # used on a receiver nobody could type, and so is every name after it (`x.a.b`)
                unknown.update(rest[index:])
                return None
            if thing == EXTERNAL or thing[0] == "external":
                return None
            found = self._step(thing, name, used, unknown)
        return found

    def _step(self, thing: Thing, name: str, used: dict[str, set[str]],
             unknown: set[str]) -> Thing | None:
        """`thing.name` (asked once per file), recorded: a member found (for an override, its base as
        by-name `~Base.m` too), or `name` as by-name evidence when what `thing` holds is unknown."""
        key = (thing, name)
        if key in self._attributes:
            found = self._attributes[key]
        else:
            found = self._attributes[key] = self._meanings.attribute(thing, name)
        if found is not None and found != EXTERNAL:
            if thing[0] == "module" and found[0] in ("class", "function") and found[2].rpartition(".")[2] != name:
                # `fields.Str()` with `Str = String` in fields.py: the file names the alias, as
                # find-references sees it; what is used on it is still String's
                self._record(self._meanings.defined(thing[1], name), used)
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
        thing = self._meanings.receiver(path, name_key(names[0], chain.scope), names[1:2], classes)
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
                    found = self._meanings.instance_of(found[1], f"self.{names[index]}", 0) or \
                        self._meanings.returned(found) if thing[0] in ("class", "instance") else None
                thing = found
            if called and thing is not None:
                if thing[0] == "class":
                    thing = ("instance", thing[1], thing[2])
                elif thing[0] in ("function", "member"):
                    thing = self._meanings.returned(thing)
                elif thing[0] != "union" and thing[0] != "external":
                    thing = None  # calling an instance: what `__call__` returns is not followed
