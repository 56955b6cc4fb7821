"""The member facts of one Rust file, as a record (`FileFacts.extra`): `extract.py` writes it,
`resolve.py` reads it. It meets JSON only at the index store's edge (`to_json`,
`RustMemberFacts.from_json`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class RustMemberFacts:
    """`method_calls`: the names of methods called on a receiver (`x.go()`), sorted: nothing here
    infers the receiver's type, so each is a caller candidate by name."""

    method_calls: tuple[str, ...] = ()

    def to_json(self) -> list[Any]:
        return [list(self.method_calls)]

    @classmethod
    def from_json(cls, data: Any) -> RustMemberFacts:
        (method_calls,) = data
        return cls(tuple(method_calls))


NO_MEMBER_FACTS = RustMemberFacts()
