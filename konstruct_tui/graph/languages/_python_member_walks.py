"""Python member resolution, the steps that follow more than one name (`_python_members.py` has
the rest): a chain of calls walked call after call (`App().runner().invoke`), a dotted path typed
member by member (`self.app.session_interface`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._python_members import MemberResolver, _Thing

_DEPTH = 12  # as `_python_members._DEPTH`
_SELF = ("self", "cls")
_EXTERNAL = ("external", "", "")


def walk_calls(resolver: MemberResolver, path: str, chain: str, classes: list[str], used: dict[str, set[str]],
                unknown: set[str]) -> None:
    """A chain of names and calls (`App().runner().invoke`), walked from its head: each member
    found is recorded, a call gives what the member returns, an attribute what it is declared
    to hold. From a receiver nobody could type on, the names are by-name evidence."""
    parts = chain.split(".")
    names = [part.removesuffix("()") for part in parts]
    thing = resolver._head(path, names[0], names[1:2], classes)
    for index, part in enumerate(parts):
        if index:
            if thing is None:
                unknown.update(names[index:])
                return
            if thing[0] == "external":
                return
            found = resolver.attribute(thing, names[index])
            if found is not None and found != _EXTERNAL:
                resolver._record(found, used)
                if found[0] == "member" and thing[0] in ("class", "instance"):
                    resolver._record_overridden(found, used)
            elif found is None and thing[0] != "module":
                unknown.add(names[index])
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


def chain_type(resolver: MemberResolver, path: str, written: str, depth: int,
               to_member: bool = False) -> _Thing | None:
    """What a dotted path (`self.app.session_interface`, `mod.Cls`) holds: each name looked up
    on the previous one, a member typed by its declaration (`session_interface:
    SessionInterface`) or its annotated return (a property). A class or an instance, else None."""
    if depth > _DEPTH:
        return None
    head, *rest = written.split(".")
    if head in _SELF:
        thing = resolver._head(path, head, rest, [n for n, k in resolver.symbols(path).items() if k == "class"])
    elif resolver._unbound(path, head):
        return None
    else:
        thing = resolver._instance(path, head, depth + 1) or resolver.locate(path, head, depth + 1)
    for index, name in enumerate(rest):
        if thing is None or thing[0] not in ("module", "class", "instance"):
            return None
        found = resolver.attribute(thing, name, depth + 1)
        if to_member and index == len(rest) - 1:
            return found  # the member itself (a method to call), not what it holds
        if found is not None and found[0] == "member":
            found = None if thing[0] == "module" else \
                resolver._instance(found[1], f"self.{name}", depth + 1) or resolver.returned(found, depth + 1)
        thing = found
    return thing if thing is not None and thing[0] in ("class", "instance") else None
