"""Is `konstruct graph export` byte-identical between two copies of the code?

Issue #29 reorganises the graph's languages without changing what they find; this script is the
proof. It runs `python -m konstruct_tui graph export` at the file and folder level on each corpus
checkout with PYTHONPATH set to the code under test, each run in its own fresh XDG cache (so no run
reuses another's index), and writes the bytes to OUT/<name>.<level>.json. With --compare DIR it
prints sha256 before/after per repository and exits 1 on any difference.

    python bench/export_identity.py --code /work/main --out /tmp/export-before /tmp/corpus/*
    python bench/export_identity.py --code $PWD --out /tmp/export-after \
        --compare /tmp/export-before /tmp/corpus/*
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

LEVELS = ("file", "directory")


def export(code: Path, repo: Path, level: str) -> bytes:
    with tempfile.TemporaryDirectory(prefix="export-identity-") as home:
        env = fresh_environment(code, home)
        done = subprocess.run(
            [sys.executable, "-m", "konstruct_tui", "graph", "export", "--root", str(repo), "--level", level],
            env=env, capture_output=True, check=False, cwd=home,
        )
    if done.returncode != 0:
        raise SystemExit(f"{repo.name} ({level}): exit {done.returncode}: {done.stderr.decode()[-500:]}")
    return done.stdout


def fresh_environment(code: Path, home: str) -> dict[str, str]:
    """The environment of a run of `code` that reuses no index: every user folder (XDG) under `home`."""
    env = dict(os.environ, PYTHONPATH=str(code))
    for var in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        env[var] = str(Path(home) / var.lower())
    return env


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def identity_run(description: str, produce: Callable[[Path, Path], Iterable[tuple[str, bytes]]], what: str) -> int:
    """The command line both identity scripts share: run `produce(code, repo)` for every repo,
    write each (name, bytes) under --out with its digest, and with --compare say whether each is
    identical to a previous run's; exit 1 when any differs."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--code", type=Path, required=True, help="the checkout whose konstruct_tui runs")
    parser.add_argument("--out", type=Path, required=True, help=f"where the {what} are written")
    parser.add_argument("--compare", type=Path, help="a previous --out folder to compare against")
    parser.add_argument("repos", nargs="+", type=Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    differ = 0
    for repo in args.repos:
        for name, data in produce(args.code.resolve(), repo.resolve()):
            (args.out / name).write_bytes(data)
            line = f"{name:32} {digest(data)}"
            if args.compare is not None:
                before = (args.compare / name).read_bytes()
                same = before == data
                differ += not same
                line += f"  before {digest(before)}  {'identical' if same else 'DIFFERENT'}"
            print(line, flush=True)
    return 1 if differ else 0


def main() -> int:
    return identity_run(__doc__.splitlines()[0], lambda code, repo: ((f"{repo.name}.{level}.json", export(code, repo, level)) for level in LEVELS),
                        "exports")


if __name__ == "__main__":
    raise SystemExit(main())
