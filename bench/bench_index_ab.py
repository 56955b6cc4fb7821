"""Cold index and warm start of two Konstruct checkouts, interleaved, on the CPython stdlib.

    python bench/bench_index_ab.py BASELINE_CHECKOUT CANDIDATE_CHECKOUT [--runs 5] [--stdlib DIR]

Each run indexes a fresh copy of the stdlib in a child process whose PYTHONPATH is one checkout
(own cache dir), then warm-starts it; baseline and candidate alternate, so load from other work on
a shared machine hits both alike. Prints medians of wall and CPU seconds (this child and its
workers) and the candidate / baseline ratios: the figure to quote is the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = r"""
import json, resource, sys, time
from konstruct_tui.graph.code_graph import build_index
from konstruct_tui.workspace import Workspace

def cpu():
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

out = {}
for phase in ("cold", "warm"):
    with Workspace(sys.argv[1]) as workspace:
        c, w = cpu(), time.perf_counter()
        build_index(workspace, workers=2)
        out[phase] = (time.perf_counter() - w, cpu() - c)
print(json.dumps(out))
"""


def one_run(checkout: Path, corpus: Path, scratch: Path) -> dict[str, list[float]]:
    tree = scratch / "stdlib"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(corpus, tree, ignore=shutil.ignore_patterns("site-packages", "__pycache__"), symlinks=True)
    cache = scratch / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": str(checkout), "XDG_CACHE_HOME": str(cache)}
    # cwd outside both checkouts: `python -c` puts the working folder first on sys.path, ahead of
    # PYTHONPATH, so run from a checkout both sides would import that checkout.
    done = subprocess.run([sys.executable, "-c", _CHILD, str(tree)], env=env, capture_output=True, text=True,
                          check=True, cwd=scratch)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", type=Path)
    parser.add_argument("candidate", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--stdlib", type=Path, default=Path(os.__file__).parent)
    args = parser.parse_args()
    results: dict[str, dict[str, list[tuple[float, float]]]] = {"baseline": {}, "candidate": {}}
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(args.runs):
            for name in ("baseline", "candidate"):
                got = one_run(getattr(args, name).resolve(), args.stdlib, Path(scratch))
                for phase, figures in got.items():
                    results[name].setdefault(phase, []).append(tuple(figures))
    for phase in ("cold", "warm"):
        rows = {}
        for name in ("baseline", "candidate"):
            runs = results[name][phase]
            rows[name] = (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
        base, cand = rows["baseline"], rows["candidate"]
        print(f"{phase:5} wall s: baseline {base[0]:.3f}  candidate {cand[0]:.3f}  ratio {cand[0] / base[0]:.3f}   "
              f"CPU s: baseline {base[1]:.2f}  candidate {cand[1]:.2f}  ratio {cand[1] / base[1]:.3f}   "
              f"(medians of {args.runs})")


if __name__ == "__main__":
    main()
