"""Python member resolution: what a dotted path holds (`self.app.session_interface`), typed member
by member (`members/resolver.py` has the rest; a file's uses are walked in `uses.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .uses import head_of

if TYPE_CHECKING:
    from .resolver import MemberResolver, _Thing

_DEPTH = 12  # as `resolver._DEPTH`
_SELF = ("self", "cls")
_EXTERNAL = ("external", "", "")


def chain_type(resolver: MemberResolver, path: str, written: str, depth: int,
               to_member: bool = False) -> _Thing | None:
    """What a dotted path (`self.app.session_interface`, `mod.Cls`) holds: each name looked up
    on the previous one, a member typed by its declaration (`session_interface:
    SessionInterface`) or its annotated return (a property). A class or an instance, else None."""
    if depth > _DEPTH:
        return None
    head, *rest = written.split(".")
    if head in _SELF:
        thing = head_of(resolver, path, head, rest, [n for n, k in resolver.symbols(path).items() if k == "class"])
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
