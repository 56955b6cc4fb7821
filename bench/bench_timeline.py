"""Where a cold `konstruct index` leaves a core idle, on the CPython stdlib set of bench_index.py.

    python bench/bench_timeline.py [--runs 3] [--checkout DIR]

Runs the whole process with KONSTRUCT_TIMELINE set (see graph/timeline.py) and prints, for the median
run: wall and CPU seconds of the process tree, the idle core-seconds (2 cores x wall - CPU: on a busy
machine other people's work fills some of them), and when each phase started and ended (seconds
after the process was started) in the parent, the parse workers and the resolution forks.
`--checkout` runs another checkout (a baseline: without marks only the totals are printed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_index import stdlib_set  # noqa: E402

CORES = 2


def one_run(checkout: Path, tree: Path, scratch: Path) -> tuple[float, float, list[tuple[float, int, str]]]:
    trace = scratch / "timeline.txt"
    trace.unlink(missing_ok=True)
    cache = tempfile.mkdtemp(dir=scratch)
    env = {**os.environ, "PYTHONPATH": str(checkout), "XDG_CACHE_HOME": cache, "KONSTRUCT_TIMELINE": str(trace),
           "PYTHONPYCACHEPREFIX": str(scratch / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled bytecode, as an installed package has
    started = time.time()
    process = subprocess.Popen([sys.executable, "-m", "konstruct_tui", "index", "--root", str(tree)], env=env,
                               stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.time() - started
    assert status == 0, status
    marks = []
    if trace.exists():
        for line in trace.read_text().splitlines():
            at, pid, label = line.split()
            marks.append((float(at) - started, int(pid), label))
    return wall, usage.ru_utime + usage.ru_stime, marks


def phases(marks: list[tuple[float, int, str]], wall: float) -> str:
    """The wall time split into startup (one process: interpreter, imports, walk; until the first
    chunk is parsed), parsing (workers and the parent storing), resolution (forks) and the tail
    (storing edges, clustering, summary, exit: one process again)."""
    def first(label: str) -> float:
        return min((at for at, _, l in marks if l == label), default=float("nan"))

    def last(label: str) -> float:
        return max((at for at, _, l in marks if l == label), default=float("nan"))

    start, parsed, resolved = first("chunk"), first("resolve"), last("resolve-end")
    parts = {"startup": start, "parsing": parsed - start, "resolution": resolved - parsed, "tail": wall - resolved}
    return ", ".join(f"{name} {seconds:.2f} s ({seconds / wall:.0%})" for name, seconds in parts.items())


def show(marks: list[tuple[float, int, str]]) -> None:
    by_pid: dict[int, list[tuple[float, str]]] = defaultdict(list)
    for at, pid, label in marks:
        by_pid[pid].append((at, label))
    parent = marks[0][1] if marks else None
    for pid, events in by_pid.items():
        role = "parent" if pid == parent else ("parse worker" if any(l == "chunk" for _, l in events) else "fork")
        spans, busy = [], 0.0
        opened: dict[str, float] = {}
        for at, label in events:
            if label.endswith("-end"):
                begin = opened.pop(label[:-4], None)
                if begin is not None:
                    busy += at - begin
                    if label[:-4] not in ("chunk", "take"):
                        spans.append(f"{label[:-4]} {begin:.2f}-{at:.2f}")
            else:
                opened[label] = at
                if label in ("cold", "built", "summary", "fork"):
                    spans.append(f"{label} @{at:.2f}")
        chunks = [at for at, label in events if label in ("chunk", "chunk-end", "take", "take-end")]
        if chunks:
            spans.append(f"chunks/takes {min(chunks):.2f}-{max(chunks):.2f}")
        print(f"  {role:12s} {pid}: " + "; ".join(spans))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--checkout", type=Path, default=HERE.parent)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        tree = scratch / "stdlib"
        files, size = stdlib_set(tree)
        one_run(args.checkout, tree, scratch)  # writes the bytecode; not measured
        runs = sorted((one_run(args.checkout, tree, scratch) for _ in range(args.runs)), key=lambda r: r[0])
        wall, cpu, marks = runs[len(runs) // 2]
        print(f"{files} files, {size / 1e6:.1f} MB, load {os.getloadavg()[0]:.1f}, median of {args.runs}")
        print(f"wall {wall:.2f} s, CPU {cpu:.2f} s, idle core-seconds {CORES * wall - cpu:.2f} "
              f"({(CORES * wall - cpu) / (CORES * wall):.0%} of {CORES} cores x wall); "
              f"walls {', '.join(f'{r[0]:.2f}' for r in runs)}; CPU median {statistics.median(r[1] for r in runs):.2f}")
        if marks:
            print("  " + phases(marks, wall))
        show(marks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
