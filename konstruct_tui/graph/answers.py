"""The shape of every structural answer: a status that gives an empty result its meaning, the
results, and how far to trust them (`stale`, `ahead_of_index`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OK = "ok"
NO_REFERENCES = "no_references"  # defined, nothing refers to it (or nothing connects): a real "none"
NOT_INDEXED = "not_indexed"  # the index does not know this file or symbol: ask another way
UNDETERMINABLE = "undeterminable"  # the graph cannot answer now: draw no conclusion
UNSUPPORTED_LANGUAGE = "unsupported_language"  # a text-only file: structure is unknown, not absent
STATUSES = (OK, NO_REFERENCES, NOT_INDEXED, UNDETERMINABLE, UNSUPPORTED_LANGUAGE)


@dataclass(frozen=True)
class GraphAnswer:
    status: str
    results: tuple[dict[str, Any], ...] = ()
    stale: tuple[str, ...] = ()
    ahead_of_index: tuple[str, ...] = ()
    truncated: bool = False
    reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)  # mode-specific keys beside the envelope

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown graph answer status {self.status!r}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "results": list(self.results),
            "truncated": self.truncated,
            "stale": list(self.stale),
            "ahead_of_index": list(self.ahead_of_index),
        }
        if self.reason:
            out["reason"] = self.reason
        out.update({k: v for k, v in self.extra.items() if k not in out})
        return out


def answer(status: str, reason: str = "") -> GraphAnswer:
    return GraphAnswer(status, reason=reason)
