"""Python member evidence: the member facts a file states (`facts`: what each name's type is, as
written), and the resolution that turns them into member uses: `uses` walks a file's uses and call
chains, asking `meaning` what each name along them is, over the per-file tables of `file_tables`."""

from __future__ import annotations

from .facts import member_facts
from .uses import MemberUses

__all__ = ["MemberUses", "member_facts"]
