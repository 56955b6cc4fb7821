"""What a build of the index says about itself: its report, its progress callback, and the
exception that ends it when its owner stops it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field


class IndexCancelled(Exception):
    """The owner asked the indexer to stop (the app is closing); nothing half-done was published."""


Progress = Callable[[str, int, int], None]  # (phase, done, total)


@dataclass
class IndexReport:
    """What the last refresh or update did, for the CLI summary and the tests."""

    files: Counter[str] = field(default_factory=Counter)  # language -> indexed files
    parsed: int = 0
    parsed_bytes: int = 0
    reused: int = 0
    removed: int = 0
    resolved: int = 0
    edges: int = 0
    seconds: float = 0.0
    cold: bool = False
    replaced: bool = False  # the stored index was from another Konstruct version: rebuilt from scratch
    members: bool = True  # the member tier is built (see `Indexer.complete_members`)
    member_seconds: float = 0.0  # of `seconds`, what building the member tier took
