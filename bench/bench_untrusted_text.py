"""What neutralising untrusted text costs the screen.

    python bench/bench_untrusted_text.py [--runs 5]

1. `neutralise` over a 200 KB model reply (prose and code, as the Markdown widget re-reads it), clean
   and with a control sequence every 2 KB, against the named baseline "Rich's strip_control_codes",
   which every `rich.text.Text` already runs over the same text.
2. `TerminalGuard.apply` (the line filter over everything the workbench draws) on 10,000 drawn lines
   of 4 segments each, clean, against the same baseline run over the same segments' text.

Medians over --runs runs; ratios are ours / baseline.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.control import strip_control_codes  # noqa: E402
from rich.segment import Segment  # noqa: E402
from textual.color import Color  # noqa: E402

from konstruct_tui.ui.untrusted import TerminalGuard  # noqa: E402
from konstruct_tui.untrusted_text import neutralise  # noqa: E402

PARAGRAPH = ("The function `add` in calc/core.py subtracts where it should add; the fix is one line. "
             "Here is the change:\n\n```python\ndef add(a, b):\n    return a + b\n```\n\n")


def _median(work, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs

    clean = (PARAGRAPH * (200_000 // len(PARAGRAPH) + 1))[:200_000]
    dirty = "".join(clean[i:i + 2000] + "\x1b]52;c;eA==\x07\u202e" for i in range(0, len(clean), 2000))
    for name, text in (("clean", clean), ("a sequence every 2 KB", dirty)):
        ours = _median(lambda: [neutralise(text) for _ in range(20)], runs)
        base = _median(lambda: [strip_control_codes(text) for _ in range(20)], runs)
        print(f"neutralise, 200 KB reply, {name}: {ours / 20 * 1e3:.3f} ms vs strip_control_codes {base / 20 * 1e3:.3f} ms "
              f"(ratio {ours / base:.2f})")

    lines = [[Segment("│ "), Segment("def add(a, b):", None), Segment("    return a + b  # the sum"), Segment(" " * 40)]
             for _ in range(10_000)]
    guard, background = TerminalGuard(), Color(0, 0, 0)
    ours = _median(lambda: [guard.apply(line, background) for line in lines], runs)
    base = _median(lambda: [[strip_control_codes(s.text) for s in line] for line in lines], runs)
    print(f"TerminalGuard, 10,000 lines: {ours * 1e3:.2f} ms vs strip_control_codes over the same segments {base * 1e3:.2f} ms "
          f"(ratio {ours / base:.2f}; {ours / 10_000 * 1e6:.2f} µs a line, and a drawn line is filtered once, then cached)")


if __name__ == "__main__":
    main()
