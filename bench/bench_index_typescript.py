"""Index speed on a TypeScript checkout, two copies of the code side by side (`bench_index.py` measures
the Python standard library only): whole processes as a person starts them, each run in a fresh
XDG cache, the two sides alternated so a neighbour's load hits both alike, medians of `--runs`.

- cold `konstruct index` (no index yet; TypeScript's member facts are extracted and resolved in it);
- warm `konstruct index`, nothing changed (the facts are read back from the store);
- a symbol question (`callers`) right after the warm index, whole process.

Beside each wall time, the CPU seconds (user + sys) of the process tree, from wait4: on a shared
machine the CPU ratio is the steadier comparison.

    python bench/bench_index_typescript.py --base /work/wt/base --code $PWD [--runs 5] \
        [--symbol ZodType.parse --target packages/zod/src/v3/types.ts] /tmp/corpus/zod
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from bench_index import run


def measure(code: Path, repo: Path, scratch: Path, symbol: str, target: str) -> dict[str, tuple[float, float]]:
    """{step: (wall seconds, CPU seconds)} of one cold index, warm index and question with `code`."""
    cache = scratch / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": str(code), "XDG_CACHE_HOME": str(cache),
           "PYTHONPYCACHEPREFIX": str(scratch / "bytecode" / code.name)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    python = sys.executable
    index = [python, "-m", "konstruct_tui", "index", "--root", str(repo)]
    question = [python, "-m", "konstruct_tui", "tool", "traverse_graph", "--root", str(repo), "--json",
                f'{{"mode": "callers", "symbol": "{symbol}", "target": "{target}"}}']
    out = {}
    for step, argv in (("cold index", index), ("warm index", index), ("callers question", question)):
        wall, _ = run(argv, env)
        out[step] = (wall, run.cpu)  # type: ignore[attr-defined]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the checkout measured as the baseline")
    parser.add_argument("--code", type=Path, required=True, help="the checkout measured against it")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--symbol", default="ZodType.parse")
    parser.add_argument("--target", default="packages/zod/src/v3/types.ts")
    parser.add_argument("repo", type=Path)
    args = parser.parse_args()
    sides = {"base": args.base.resolve(), "code": args.code.resolve()}
    found: dict[str, dict[str, list[tuple[float, float]]]] = {side: {} for side in sides}
    with tempfile.TemporaryDirectory(prefix="konstruct-bench-ts-") as scratch:
        for side, code in sides.items():  # unmeasured: writes each side's bytecode
            measure(code, args.repo.resolve(), Path(scratch), args.symbol, args.target)
        for _ in range(args.runs):
            for side, code in sides.items():
                for step, figures in measure(code, args.repo.resolve(), Path(scratch), args.symbol, args.target).items():
                    found[side].setdefault(step, []).append(figures)
    median = statistics.median
    print(f"corpus {args.repo}; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; medians of {args.runs} runs")
    for step in found["base"]:
        base, code = found["base"][step], found["code"][step]
        wall_b, wall_c = median(w for w, _ in base), median(w for w, _ in code)
        cpu_b, cpu_c = median(c for _, c in base), median(c for _, c in code)
        print(f"{step:17} base {wall_b:6.2f} s (CPU {cpu_b:6.2f})   code {wall_c:6.2f} s (CPU {cpu_c:6.2f})   "
              f"code/base wall {wall_c / wall_b:.2f}, CPU {cpu_c / cpu_b:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
