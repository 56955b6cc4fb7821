"""Tool surface speed, each against a named baseline.

1. `search` match=text (limit 50, as the agent calls it) vs `rg` alone printing every match, on the
   CPython stdlib (site-packages left out; hard-linked into a temp folder). Goal: ratio <= 1.2.
2. `traverse_graph` mode=impact on the hub file of a 5,000-file synthetic graph (files on disk, so
   the per-query freshness checks are real). Goal: p50 <= 20 ms.
3. `read_code` of 8 files with graph enrichment vs the same batch without it (the workspace layer's
   read_batch). Goal: p50 <= 30 ms.

    python bench/bench_tools.py [--rounds 30] [--stdlib DIR]

The machine is shared and noisy: rounds alternate between tool and baseline, and medians are printed.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from konstruct_tui.graph.facts import Edge
from konstruct_tui.graph.freshness import Freshness
from konstruct_tui.graph.query import GraphQuery
from konstruct_tui.graph.records import FileEntry
from konstruct_tui.graph.snapshot import GraphSnapshot
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.tools.ripgrep import rg_binary
from konstruct_tui.workspace import ReadRequest, Workspace, read_batch

QUERIES = ("ThreadPoolExecutor", "def __init__(self", "return NotImplemented", "zq_no_such_text_xj")


def ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def stdlib_copy(source: Path, into: Path) -> Path:
    """The stdlib without site-packages, hard-linked (no copy of the bytes) when the disk allows."""
    target = into / "stdlib"
    target.mkdir()
    for item in sorted(source.iterdir()):
        if item.name in ("site-packages", "__pycache__"):
            continue
        destination = target / item.name
        if item.is_dir() and not item.is_symlink():
            shutil.copytree(item, destination, copy_function=_link, ignore=shutil.ignore_patterns("__pycache__", "site-packages"))
        elif item.is_file():
            _link(item, destination)
    return target


def _link(source: str | Path, destination: str | Path) -> None:
    try:
        os.link(source, destination)
    except OSError:
        shutil.copy2(source, destination)


def bench_search(root: Path, rounds: int) -> None:
    print(f"search text vs rg alone on {sum(1 for _ in root.rglob('*.py'))} .py files of the stdlib")
    workspace = Workspace(root)
    context = ToolContext(workspace)
    ratios = []
    for query in QUERIES:
        baseline = [rg_binary(), "--no-config", "-n", "--null", "--no-heading", "--color", "never", "--hidden",
                    "--no-require-git", "--fixed-strings", "-e", query, "--", "."]
        tool_times, rg_times = [], []
        hits = 0
        for _ in range(rounds):
            started = time.perf_counter()
            done = subprocess.run(baseline, cwd=root, capture_output=True, check=False)
            rg_times.append(time.perf_counter() - started)
            started = time.perf_counter()
            hits = len(call("search", {"query": query, "match": "text"}, context).payload["results"])
            tool_times.append(time.perf_counter() - started)
        ratio = ms(tool_times) / ms(rg_times)
        ratios.append(ratio)
        lines = done.stdout.count(b"\n")
        print(f"  {query!r:26} rg alone {ms(rg_times):7.1f} ms ({lines} lines)   search {ms(tool_times):7.1f} ms "
              f"({hits} hits)   ratio {ratio:.2f}")
    print(f"  worst ratio {max(ratios):.2f}, median ratio {statistics.median(ratios):.2f} (goal <= 1.2)")


def synthetic_graph(root: Path, files: int = 5000, seed: int = 7) -> GraphSnapshot:
    """Packages of 100 modules; each imports 3 earlier modules, 1 in 8 imports the hub directly."""
    rng = random.Random(seed)
    paths = ["core/hub.py"] + [f"pkg{n // 100:02d}/mod{n % 100:03d}.py" for n in range(files - 1)]
    entries, edges = {}, []
    for i, path in enumerate(paths):
        full = root / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_text(f"def f{i}():\n    return {i}\n")
        info = full.stat()
        symbols = f'[["f{i}","function",1,2]]'
        entries[path] = FileEntry(path, "python", "", info.st_size, info.st_mtime_ns, "", symbols, "")
        if i == 0:
            continue
        for j in rng.sample(range(max(1, i - 300), i), min(3, i - max(1, i - 300))) if i > 1 else []:
            edges.append(Edge(path, paths[j], "imports", (f"f{j}",)))
        if i % 8 == 0:
            edges.append(Edge(path, "core/hub.py", "references", ("f0",)))
    return GraphSnapshot.build(entries, edges)


class ReadyGraph:
    """A session graph that is ready: a snapshot, the facade over it, per-query freshness."""

    def __init__(self, workspace: Workspace, snapshot: GraphSnapshot) -> None:
        self.snapshot = snapshot
        self.freshness = Freshness(workspace)
        self.query = GraphQuery(lambda: snapshot, self.freshness)

    def notify(self, paths: object) -> None:
        pass


def bench_graph(root: Path, rounds: int) -> None:
    snapshot = synthetic_graph(root)
    snapshot.neighborhoods  # noqa: B018 - the reconciler warms these before a session uses them
    workspace = Workspace(root)
    context = ToolContext(workspace, graph=ReadyGraph(workspace, snapshot))
    impact, answer = [], {}
    for _ in range(rounds * 3):
        started = time.perf_counter()
        answer = call("traverse_graph", {"mode": "impact", "target": "core/hub.py"}, context).payload
        impact.append(time.perf_counter() - started)
    print(f"traverse_graph impact on the hub of a {len(snapshot.files)}-file graph ({snapshot.edge_count()} edges): "
          f"p50 {ms(impact):.2f} ms, p90 {sorted(impact)[int(len(impact) * 0.9)] * 1000:.2f} ms "
          f"({len(answer['results'])} results, truncated={answer['truncated']}; goal p50 <= 20 ms)")

    # the walk that cannot stop early: everything the last module pulls in, 10 hops, limit 500
    deep, answer = [], {}
    for _ in range(rounds):
        started = time.perf_counter()
        answer = call("traverse_graph", {"mode": "transitive_dependencies", "target": "pkg49/mod098.py"}, context).payload
        deep.append(time.perf_counter() - started)
    print(f"traverse_graph transitive_dependencies of the last module: p50 {ms(deep):.2f} ms "
          f"({len(answer['results'])} results, truncated={answer['truncated']})")

    batch = [f"pkg{n:02d}/mod{n:03d}.py" for n in range(8)]
    enriched, plain = [], []
    for _ in range(rounds * 3):
        started = time.perf_counter()
        read_batch(workspace, [ReadRequest(p) for p in batch])
        plain.append(time.perf_counter() - started)
        started = time.perf_counter()
        payload = call("read_code", {"paths": batch}, context).payload
        enriched.append(time.perf_counter() - started)
    assert all(e["importers"] is not None for e in payload["results"])
    print(f"read_code of 8 files with enrichment: p50 {ms(enriched):.2f} ms vs read_batch alone {ms(plain):.2f} ms "
          f"(ratio {ms(enriched) / ms(plain):.2f}; goal p50 <= 30 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--stdlib", default=sysconfig.get_paths()["stdlib"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["XDG_CACHE_HOME"] = cache  # no index for the stdlib copy: search runs as on a fresh project
        with tempfile.TemporaryDirectory() as scratch:
            bench_search(stdlib_copy(Path(args.stdlib), Path(scratch)), max(5, args.rounds // 3))
        with tempfile.TemporaryDirectory() as scratch:
            bench_graph(Path(scratch), args.rounds)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
