"""Python member evidence: the member facts a file states (`facts`: what each name's type is, as
written), and the resolver that turns them into member uses (`resolver`: one class, which walks a
file's uses and call chains itself)."""

from __future__ import annotations

from .facts import member_facts
from .resolver import MemberResolver

__all__ = ["MemberResolver", "member_facts"]
