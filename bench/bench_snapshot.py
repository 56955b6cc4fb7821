"""The blueprint gate's content snapshot (workspace/snapshot.py) on the CPython standard library.

The gate takes a snapshot at the start of each phase attempt, around every executor call that can
change files, and at every gate; all but the first are warm (a previous snapshot at hand, so only
files whose stat moved are hashed). Measured on the stdlib folder of this interpreter (found through
sysconfig; about 1,800 .py files and the rest of the tree):

- cold: no previous snapshot, every file hashed (the phase's first snapshot of a run);
- warm: with the previous snapshot, nothing changed (the common case) -- goal <= 150 ms;
- warm, 10 files rewritten: the same with ten files changed since.

Baseline: a plain `os.walk` + `os.lstat` of the same tree (the least any stat-first snapshot can
cost); the ratio is snapshot / baseline. For the choice of store, also measured: `git status
--porcelain` on a git copy of the same tree (git's own stat + hash store), warm.

    python bench/bench_snapshot.py [--runs 7] [--no-git]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from konstruct_tui.workspace.snapshot import take_snapshot

GOAL_MS = 150.0


def walk_and_stat(root: str) -> int:
    count = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            os.lstat(os.path.join(folder, name))
            count += 1
    return count


def timed(fn, runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-git", action="store_true", help="skip the git comparison (it copies the tree)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        # A copy, so the rewrites below never touch the interpreter's own files.
        tree = os.path.join(scratch, "stdlib")
        shutil.copytree(sysconfig.get_paths()["stdlib"], tree, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "site-packages", "*.pyc"))
        files = walk_and_stat(tree)
        py = sum(1 for _ in Path(tree).rglob("*.py"))
        print(f"tree: CPython {sys.version.split()[0]} stdlib copy, {files} files ({py} .py)")

        baseline = timed(lambda: walk_and_stat(tree), args.runs)
        cold = timed(lambda: take_snapshot(tree), max(3, args.runs // 2))
        previous = take_snapshot(tree)
        time.sleep(2.1)  # out of the racy window, as a phase's files are by its next gate
        previous = take_snapshot(tree, previous)
        warm = timed(lambda: take_snapshot(tree, previous), args.runs)
        changed = sorted(Path(tree).rglob("*.py"))[:10]
        for path in changed:
            path.write_bytes(path.read_bytes() + b"\n# edited\n")
        warm_changed = timed(lambda: take_snapshot(tree, previous), args.runs)

        print(f"baseline os.walk + lstat:        {baseline:8.1f} ms")
        print(f"snapshot cold (hash every file): {cold:8.1f} ms  ratio {cold / baseline:5.2f}x")
        print(f"snapshot warm, nothing changed:  {warm:8.1f} ms  ratio {warm / baseline:5.2f}x  goal {GOAL_MS:.0f} ms: "
              + ("met" if warm <= GOAL_MS else "NOT met"))
        print(f"snapshot warm, 10 files changed: {warm_changed:8.1f} ms  ratio {warm_changed / baseline:5.2f}x")

        if not args.no_git and shutil.which("git"):
            env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
            subprocess.run(["git", "init", "-q", tree], check=True, env=env)
            subprocess.run(["git", "-C", tree, "add", "-A"], check=True, env=env)
            subprocess.run(["git", "-C", tree, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "x"], check=True, env=env)
            git = timed(lambda: subprocess.run(["git", "-C", tree, "status", "--porcelain", "--untracked-files=all"],
                                               capture_output=True, check=True, env=env), args.runs)
            print(f"git status (git's stat store):  {git:8.1f} ms  ratio {git / baseline:5.2f}x")
            git_warm = timed(lambda: take_snapshot(tree, previous), args.runs)
            print(f"snapshot warm in the git tree:  {git_warm:8.1f} ms  ratio {git_warm / baseline:5.2f}x  (lists through git ls-files)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
