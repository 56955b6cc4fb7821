"""An opt-in timeline of a build, for `bench/bench_timeline.py`: with KONSTRUCT_TIMELINE=FILE set,
each process (parent, parse workers, resolution forks) appends `time pid label` lines to FILE at the
start and end of its phases, so the idle time of each core can be read off afterwards. Unset (always,
outside the benchmark) a mark costs one comparison."""

from __future__ import annotations

import os
import time

_PATH = os.environ.get("KONSTRUCT_TIMELINE") or None


def mark(label: str) -> None:
    if _PATH is None:
        return
    with open(_PATH, "a") as out:  # O_APPEND: lines from several processes do not interleave
        out.write(f"{time.time():.6f} {os.getpid()} {label}\n")
