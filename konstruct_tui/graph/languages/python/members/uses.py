"""A Python file's member uses, walked to the file and member each names (`MemberResolver.resolve`
calls `file_uses`; what a name or type is comes from the resolver, `members/resolver.py`).

Each dotted use (`console.print`, `self.console.print`, `click.prompt`), member of a call's result
(`Console().print`) and chain of calls (`App().runner().invoke`) is walked one name at a time from
its head. A member found is recorded (and, for an override, its base method as by-name `~Base.m`);
a name used on a receiver nobody could type is by-name evidence; a head proven to be something
outside the project (`os.path.join`) is neither."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from ....facts import FileFacts

if TYPE_CHECKING:
    from .resolver import MemberResolver, _Thing

_DEPTH = 12  # as `resolver._DEPTH`
_SELF = ("self", "cls")
_EXTERNAL = ("external", "", "")


def file_uses(resolver: MemberResolver, facts: FileFacts) -> tuple[dict[str, set[str]], set[str]]:
    used: dict[str, set[str]] = defaultdict(set)
    unknown: set[str] = set(facts.extra.get("untyped", ()))
    path = facts.path
    classes = [name for name, kind in resolver.symbols(path).items() if kind == "class"]
    bound = resolver.bindings(path)
    local = facts.extra.get("local", {})
    told_apart = set(local.get("heads", ()))  # names bound differently per function: see "local"
    # The uses of those names come again under "local", named by the function binding them.
    uses = [u for u in facts.uses if u.partition(".")[0] not in told_apart] if told_apart else facts.uses
    # What a name other than self/cls is depends on the name alone: asked once per file, not
    # once per use (`os.path.join`, `os.path.exists`, `os.sep` share the head `os`).
    named: dict[str, _Thing | None] = {}
    # `self.x...` depends on `x` and on whether more follows: (what it is, `x` consumed)
    owned: dict[tuple[str, bool], tuple[_Thing | None, bool]] = {}
    for use in (*uses, *local.get("uses", ())):
        if "." in use:
            head, *rest = use.split(".")
            if head in _SELF:
                key = (rest[0], len(rest) > 1)
                if key not in owned:
                    count = len(rest)
                    owned[key] = (head_of(resolver, path, head, rest, classes), len(rest) < count)
                elif owned[key][1]:
                    del rest[:1]  # as `_head` consumed it the first time
                thing = owned[key][0]
            elif head in named:
                thing = named[head]
            else:
                thing = named[head] = head_of(resolver, path, head, rest, classes)
            walk(resolver, path, thing, rest, used, unknown)
        elif use in bound and bound[use][1] is not None:  # `from m import name`, then `name`
            record(defined(resolver, *bound[use]), used)
    for entry in facts.extra.get("oncall", ()):
        callee, _, name = entry.partition(">")
        if callee.startswith("super("):  # `super().name` in class C: a member of C's bases
            found = resolver._inherited(path, callee[6:-1], name, 0)
            record(found, used)
            if found is None:
                unknown.add(name)
            continue
        head, *rest = callee.split(".")
        thing = head_of(resolver, path, head, rest, classes)
        thing = walk(resolver, path, thing, rest, used, unknown) if rest else thing
        if thing is not None and thing[0] == "class":
            thing = ("instance", thing[1], thing[2])
        elif thing is not None and thing[0] in ("function", "member"):
            thing = resolver.returned(thing)
        walk(resolver, path, thing, [name], used, unknown)
    for chain in facts.extra.get("chains", ()):
        walk_calls(resolver, path, chain, classes, used, unknown)
    used.pop(path, None)
    return used, unknown


def head_of(resolver: MemberResolver, path: str, head: str, rest: list[str], classes: list[str]) -> _Thing | None:
    if head in _SELF:
        if rest and len(rest) > 1:
            typed = resolver._instance(path, f"self.{rest[0]}", 0)
            if typed is not None:
                rest[:1] = []  # consumed: the walk goes on from the attribute's type
                return typed
        symbols = resolver.symbols(path)  # once, not per class
        owners = [c for c in classes if f"{c}.{rest[0]}" in symbols] if rest else []
        if not owners and len(classes) == 1:
            owners = classes  # its member may come from a base class
        return ("instance", path, owners[0]) if len(owners) == 1 else (("external", path, "") if owners else None)
    if resolver._unbound(path, head):
        return None  # somewhere in the file the name is bound with no stated type
    typed = resolver._instance(path, head, 0)
    if typed is not None and not (typed[0] != "instance" and resolver.symbols(path).get(head) == "function"):
        return typed
    # a function that a library decorator wrapped (`@pytest.fixture`): untyped when used as a value
    return resolver.locate(path, head)


def defined(resolver: MemberResolver, path: str, name: str | None) -> _Thing | None:
    """Where an imported `name` of module `path` is defined, through re-exports."""
    for _ in range(_DEPTH):
        if not path or name is None:
            return None
        kind = resolver.symbols(path).get(name)
        if kind is not None:
            return ("class" if kind == "class" else "function" if kind == "function" else "member", path, name)
        path, name = resolver.bindings(path).get(name, ("", None))
    return None


def record_overridden(resolver: MemberResolver, member: _Thing, used: dict[str, set[str]]) -> None:
    """A call of `Sub.m` that overrides `Base.m` may still run `Base.m` (through `super()`, or
    a receiver typed more loosely than it is): recorded as `~Base.m`, by-name evidence for
    the base method, never a proven call of it."""
    _, path, qualified = member
    if resolver.symbols(path).get(qualified) != "method":
        return
    cls, _, name = qualified.rpartition(".")
    for _ in range(_DEPTH):
        base = resolver._inherited(path, cls, name, 0)
        if base is None or base == _EXTERNAL or base[0] != "member":
            return
        used[base[1]].add("~" + base[2])
        path, (cls, _, name) = base[1], base[2].rpartition(".")


def record(thing: _Thing | None, used: dict[str, set[str]]) -> None:
    if thing is not None and thing[0] in ("class", "function", "member") and thing[2]:
        used[thing[1]].add(thing[2])
    elif thing is not None and thing[0] == "members":  # one member of each class of a union
        for member in thing[2].split("|"):
            path, _, name = member.partition("::")
            used[path].add(name)


def walk(resolver: MemberResolver, path: str, thing: _Thing | None, rest: list[str], used: dict[str, set[str]],
          unknown: set[str]) -> _Thing | None:
    """Follow `rest` from `thing`, recording each member found; the last thing found."""
    found: _Thing | None = thing
    for index, name in enumerate(rest):
        if index:  # one level of chaining: an attribute's or a method's declared type
            if found is not None and found[0] in ("function", "member") and thing is not None and \
                    thing[0] in ("class", "instance"):
                found = resolver._instance(found[1], f"self.{rest[index - 1]}", 0) or resolver.returned(found)
            thing = found
        if thing is None:
            # used on a receiver nobody could type, and so is every name after it (`x.a.b`)
            unknown.update(rest[index:])
            return None
        if thing == _EXTERNAL or thing[0] == "external":
            return None
        found = step(resolver, thing, name, used, unknown)
    return found


def step(resolver: MemberResolver, thing: _Thing, name: str, used: dict[str, set[str]],
         unknown: set[str]) -> _Thing | None:
    """`thing.name` (asked once per file), recorded: a member found (for an override, its base as
    by-name `~Base.m` too), or `name` as by-name evidence when what `thing` holds is unknown."""
    key = (thing, name)
    if key in resolver._attributes:
        found = resolver._attributes[key]
    else:
        found = resolver._attributes[key] = resolver.attribute(thing, name)
    if found is not None and found != _EXTERNAL:
        if thing[0] == "module" and found[0] in ("class", "function") and found[2].rpartition(".")[2] != name:
            # `fields.Str()` with `Str = String` in fields.py: the file names the alias, as
            # find-references sees it; what is used on it is still String's
            record(defined(resolver, thing[1], name), used)
        else:
            record(found, used)
        if found[0] == "member" and thing[0] in ("class", "instance"):
            record_overridden(resolver, found, used)
    elif found is None and thing[0] != "module":
        # a value of unknown type (a module variable, a wrapped function), or a member the
        # typed class does not declare (a library base's, or the type read too narrowly)
        unknown.add(name)
    return found


def walk_calls(resolver: MemberResolver, path: str, chain: str, classes: list[str], used: dict[str, set[str]],
                unknown: set[str]) -> None:
    """A chain of names and calls (`App().runner().invoke`), walked from its head: each member
    found is recorded, a call gives what the member returns, an attribute what it is declared
    to hold. From a receiver nobody could type on, the names are by-name evidence."""
    parts = chain.split(".")
    names = [part.removesuffix("()") for part in parts]
    thing = head_of(resolver, path, names[0], names[1:2], classes)
    for index, part in enumerate(parts):
        if index:
            if thing is None:
                unknown.update(names[index:])
                return
            if thing[0] == "external":
                return
            found = step(resolver, thing, names[index], used, unknown)
            if not part.endswith("()") and found is not None and found[0] == "member":
                # an attribute (a property): what it is declared to hold
                found = resolver._instance(found[1], f"self.{names[index]}", 0) or resolver.returned(found) \
                    if thing[0] in ("class", "instance") else None
            thing = found
        if part.endswith("()") and thing is not None:
            if thing[0] == "class":
                thing = ("instance", thing[1], thing[2])
            elif thing[0] in ("function", "member"):
                thing = resolver.returned(thing)
            elif thing[0] != "union" and thing[0] != "external":
                thing = None  # calling an instance: what `__call__` returns is not followed
