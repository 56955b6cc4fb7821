"""Command layer figures: policy cost per command line, and how fast a cancel empties a process group.

    python bench/bench_commands.py [--rounds N]

1. Policy: median microseconds per `decide()` over the test table's commands, against the named
   baseline `shlex.split` of the same lines (the least any argv-based check must do). Prints the ratio.
   Then one long line of each kind (ordinary words, quoted words, assignments, `(){` runs, `;`
   chains) at 1 KB and 80 KB: median decide time, ratio to shlex.split of the same line, and the
   80 KB / 1 KB growth per byte (1.0 is linear). The issue's bar: 80 KB in < 50 ms.
2. Cancellation: a child that ignores SIGTERM spawns a grandchild that ignores it too; after the
   cancel, the time until no live member of the process group is left (zombies count as dead), over
   N rounds. Baseline: the 300 ms bar of the issue; prints median / 300 ms.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "commands" / "programs"))

from policy_cases import gathered  # noqa: E402

from konstruct_tui.commands import Cancellation, decide, run_process, running_groups  # noqa: E402

TREE = (
    "import signal, subprocess, sys, time\n"
    "subprocess.Popen([sys.executable, '-c', 'import signal, time\\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\\n"
    "time.sleep(60)'])\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(60)\n"
)


def _alive(pgid: int) -> int:
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            count += int(fields[2]) == pgid and fields[0] not in ("Z", "X")
    return count


def policy_figures(rounds: int) -> None:
    # the case tables are split by program (tests/commands/programs/): gathered whole
    lines = [line for table in ("DENIED", "COMPOUND", "SHELL_WRAPPED", "ASKED") for line in gathered(table)]
    ours, base = [], []
    for _ in range(rounds):
        started = time.perf_counter()
        for line in lines:
            decide(line)
        ours.append((time.perf_counter() - started) / len(lines))
        started = time.perf_counter()
        for line in lines:
            try:
                shlex.split(line)
            except ValueError:
                pass
        base.append((time.perf_counter() - started) / len(lines))
    mine, theirs = statistics.median(ours) * 1e6, statistics.median(base) * 1e6
    print(f"policy decide(): median {mine:.1f} us/command over {len(lines)} commands; "
          f"baseline shlex.split {theirs:.1f} us; ratio {mine / theirs:.1f}x")


LONG_UNITS = {"words": "word ", "quoted": '"a b" ', "assignments": "x=1 ", "functions": "a(){ ", "chains": "a; "}


def _median_time(judge, line: str, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        judge(line)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def long_line_figures(rounds: int) -> None:
    for kind, unit in LONG_UNITS.items():
        figures, baseline = {}, {}
        for size in (1_000, 80_000):
            line = "echo " + unit * (size // len(unit))
            ours, base = _median_time(decide, line, rounds), _median_time(shlex.split, line, rounds)
            figures[size], baseline[size] = ours, base
            print(f"policy {kind:<11} {size // 1000:>2} KB: decide {ours * 1000:8.2f} ms; baseline shlex.split "
                  f"{base * 1000:7.2f} ms; ratio {ours / base:4.1f}x")
        print(f"policy {kind:<11} growth 80 KB / 1 KB per byte: {figures[80_000] / figures[1_000] / 80:.2f} "
              f"(1.0 = linear; shlex.split's own: {baseline[80_000] / baseline[1_000] / 80:.2f})")


def cancel_figures(rounds: int) -> None:
    waits = []
    for _ in range(rounds):
        cancellation = Cancellation()
        worker = threading.Thread(target=run_process, args=([sys.executable, "-c", TREE], "."),
                                  kwargs={"timeout_s": 60, "cancellation": cancellation})
        worker.start()
        pgid = None
        while pgid is None or _alive(pgid) < 2:
            groups = running_groups()
            pgid = next(iter(groups)) if groups else None
            time.sleep(0.01)
        time.sleep(0.1)
        started = time.perf_counter()
        cancellation.cancel()
        while _alive(pgid):
            time.sleep(0.001)
        waits.append(time.perf_counter() - started)
        worker.join()
    median = statistics.median(waits) * 1000
    print(f"cancel -> group empty: median {median:.1f} ms, max {max(waits) * 1000:.1f} ms over {rounds} rounds; "
          f"baseline 300 ms bar; ratio {median / 300:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--policy-only", action="store_true", help="skip the cancellation figures")
    args = parser.parse_args()
    policy_figures(args.rounds)
    long_line_figures(args.rounds)
    if not args.policy_only:
        cancel_figures(args.rounds)


if __name__ == "__main__":
    main()
