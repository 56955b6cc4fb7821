"""Index benchmark on the CPython standard library without its tests (a copy, so the change test can
edit files), every figure a whole process as a person starts it, median of `--runs`, side by side:

- raw: tree-sitter parse + the Python query `konstruct index` runs (`languages/python/python.scm`) over every
  file, 2 processes, nothing else (the baseline);
- cold `konstruct index` (no index yet: the file graph) and its ratio to raw (speed, goal >= 0.70);
- the member tier, which `konstruct index` leaves to the first symbol question: that first question
  (`konstruct tool traverse_graph` callers, whole process, right after the cold index), the next
  one, and `konstruct index --members` cold (both tiers in one pass) with its ratio to raw;
- warm `konstruct index`, nothing changed (goal <= 0.3 s);
- `konstruct --help` through `python -m konstruct_tui` and the installed entry point (goal <= 0.2 s),
  beside `python -c pass` (the interpreter's own start);
- single-file change -> visible to a query, through the reconciler (goal <= 50 ms);
- peak RSS of the cold index's process tree (parent and workers, sampled from /proc in two cold runs
  of their own: the sampler would otherwise take CPU from the timed runs);
- aider's repo map on the same files, when aider-chat is installed in a venv (`--aider-python`,
  default /tmp/aider-venv/bin/python); skipped with a message otherwise.

Beside each wall time it prints the CPU seconds (user + sys) of the whole process tree, from wait4:
on a machine other people share, wall time follows their load and CPU time mostly does not, so the
CPU ratio is the steadier comparison of the work each side does.

Every measured process runs with compiled bytecode, as an installed package has (pip compiles it
at install time): where PYTHONDONTWRITEBYTECODE is set, every run would otherwise compile each
module it imports from source again. The bytecode goes to a scratch PYTHONPYCACHEPREFIX, written by
one unmeasured run of each command; `--no-bytecode` measures with the environment as it is.

    python bench/bench_index.py [--runs 3] [--changes 9] [--aider-python PATH]
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
import threading
import time
from pathlib import Path

WORKERS = 2
HERE = Path(__file__).resolve().parent
TEST_DIRS = ("test", "tests", "idle_test")


def stdlib_set(target: Path) -> tuple[int, int]:
    """Copy the stdlib's .py files, without site-packages and test folders; (files, bytes)."""
    source = Path(sysconfig.get_paths()["stdlib"])
    files = size = 0
    for path in sorted(source.rglob("*.py")):
        parts = path.relative_to(source).parts
        if parts[0] == "site-packages" or "__pycache__" in parts:
            continue
        if any(p in TEST_DIRS or p.startswith("test") for p in parts[:-1]):
            continue
        if path.is_symlink() or not path.is_file():
            continue
        copy = target.joinpath(*parts)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, copy)
        files += 1
        size += path.stat().st_size
    return files, size


# --- the baseline, run as its own process: `python bench_index.py --raw DIR` -------------------------

def _raw_chunk(paths: list[str]) -> int:
    from konstruct_tui.graph import treesitter as ts
    from konstruct_tui.graph.languages.python import query

    compiled = query(members=False)
    captured = 0
    for path in paths:
        with open(path, "rb") as handle:
            data = handle.read()
        groups = ts.captures(compiled, ts.parse("python", data).root_node)
        captured += sum(len(v) for v in groups.values())
    return captured


def raw_baseline(root: str) -> int:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    from konstruct_tui.graph.extraction import MAX_PARSE_BYTES, Task, chunked

    tasks = []
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                size = os.path.getsize(path)
                if size <= MAX_PARSE_BYTES:
                    tasks.append(Task(path, "python", size, 0))
    chunks = [[t.path for t in chunk] for chunk in chunked(tasks, WORKERS)]
    with ProcessPoolExecutor(WORKERS, mp_context=get_context("fork")) as pool:
        print(sum(pool.map(_raw_chunk, chunks)))
    return 0


# --- whole processes ---------------------------------------------------------------------------------

class TreeRss:
    """Peak resident memory of a process and all its descendants, summed, sampled every 20 ms."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self._done = pid, 0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._done.wait(0.02):
            children: dict[int, list[int]] = {}
            rss: dict[int, int] = {}
            for entry in os.listdir("/proc"):
                if not entry.isdigit():
                    continue
                try:
                    with open(f"/proc/{entry}/stat") as handle:
                        fields = handle.read().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                pid = int(entry)
                children.setdefault(int(fields[1]), []).append(pid)
                rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
            tree, total = [self.pid], 0
            while tree:
                pid = tree.pop()
                total += rss.get(pid, 0)
                tree.extend(children.get(pid, ()))
            self.peak = max(self.peak, total)

    def stop(self) -> int:
        self._done.set()
        self._thread.join()
        return self.peak


def run(argv: list[str], env: dict[str, str], *, rss: bool = False) -> tuple[float, int]:
    """(wall seconds, peak tree RSS or 0) of one process; it must succeed. Its tree's CPU seconds
    go to CPU[pid] (a process's rusage includes the children it waited for: the workers)."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(argv, env=env, stdout=out, stderr=err)
        sampler = TreeRss(process.pid) if rss else None
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        peak = sampler.stop() if sampler else 0
        run.cpu = usage.ru_utime + usage.ru_stime  # type: ignore[attr-defined]
        if process.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(argv)} failed: {err.read().decode()[-500:]}")
    return elapsed, peak


def change_latencies(root: Path, changes: int) -> list[float]:
    """Append an import of a module nothing imported before; time notify -> the query sees it."""
    from konstruct_tui.graph.code_graph import CodeGraph
    from konstruct_tui.workspace import Workspace

    workspace = Workspace(root)
    graph = CodeGraph(workspace)
    try:
        assert graph.reconciler.wait_until_current(300), graph.reconciler.error
        graph.query.dependents("json/__init__.py")  # first query pays for imports, not the change
        latencies = []
        for i in range(changes):
            name = f"bench_target_{i}.py"
            (root / name).write_text(f"VALUE_{i} = {i}\n")
            graph.notify([name])
            assert graph.reconciler.wait_until_current(30)
            user = root / "colorsys.py"
            user.write_text(user.read_text() + f"\nimport bench_target_{i}\n")
            started = time.perf_counter()
            graph.notify(["colorsys.py"])
            while True:
                answer = graph.query.dependents(name)
                if any(r["path"] == "colorsys.py" for r in answer.results):
                    break
                if time.perf_counter() - started > 30:
                    raise RuntimeError("the change never became visible")
                time.sleep(0.0005)
            latencies.append(time.perf_counter() - started)
        return latencies
    finally:
        graph.close()
        workspace.close()


def aider_repo_map(python: str, root: Path, env: dict[str, str]) -> tuple[float, float] | None:
    """(cold, warm) seconds of aider's repo map over every file of `root`, or None without aider."""
    if not Path(python).exists():
        return None
    script = (
        "import sys, os\n"
        "from aider.io import InputOutput\nfrom aider.models import Model\nfrom aider.repomap import RepoMap\n"
        "root = sys.argv[1]\n"
        "files = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith('.py')]\n"
        "rm = RepoMap(root=root, io=InputOutput(yes=True), main_model=Model('gpt-4o-mini'), map_tokens=4096)\n"
        "print(len(rm.get_repo_map([], files) or ''))\n"
    )
    cache = root / ".aider.tags.cache.v4"
    shutil.rmtree(cache, ignore_errors=True)
    try:
        cold, _ = run([python, "-c", script, str(root)], env)
        warm, _ = run([python, "-c", script, str(root)], env)
    except RuntimeError as error:
        print(f"aider: could not run its repo map ({error})")
        return None
    return cold, warm


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--changes", type=int, default=9)
    parser.add_argument("--aider-python", default=os.environ.get("AIDER_PYTHON", "/tmp/aider-venv/bin/python"))
    parser.add_argument("--no-bytecode", action="store_true", help="do not cache bytecode for the measured runs")
    parser.add_argument("--raw", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.raw:
        return raw_baseline(args.raw)
    median = statistics.median
    with tempfile.TemporaryDirectory(prefix="konstruct-bench-") as scratch:
        cache = Path(scratch) / "cache"
        env = {**os.environ, "XDG_CACHE_HOME": str(cache)}  # never touch the user's index
        if not args.no_bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(scratch) / "bytecode")
        os.environ["XDG_CACHE_HOME"] = str(cache)
        root = Path(scratch) / "stdlib"
        files, size = stdlib_set(root)
        print(f"corpus: CPython {sys.version.split()[0]} stdlib without tests, {files} files, {size / 1e6:.1f} MB; "
              f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; "
              f"bytecode {'as the environment has it' if args.no_bytecode else 'cached'}")
        python = sys.executable
        index = [python, "-m", "konstruct_tui", "index", "--root", str(root)]
        question = [python, "-m", "konstruct_tui", "tool", "traverse_graph", "--root", str(root), "--json",
                    '{"mode": "callers", "symbol": "JSONDecoder.decode", "target": "json/decoder.py"}']
        raw_argv = [python, str(HERE / "bench_index.py"), "--raw", str(root)]
        if not args.no_bytecode:  # unmeasured: writes the bytecode every measured run then reads
            for argv in (raw_argv, index, [python, "-m", "konstruct_tui", "--help"]):
                run(argv, env)
        raws, colds, raw_cpu, cold_cpu, firsts, nexts = [], [], [], [], [], []
        for _ in range(args.runs):  # alternate, so a neighbour's load hits both alike
            shutil.rmtree(cache, ignore_errors=True)
            raws.append(run(raw_argv, env)[0])
            raw_cpu.append(run.cpu)  # type: ignore[attr-defined]
            colds.append(run(index, env)[0])
            cold_cpu.append(run.cpu)  # type: ignore[attr-defined]
            firsts.append(run(question, env)[0])  # builds the member tier
            nexts.append(run(question, env)[0])
        eager = []
        for _ in range(args.runs):
            shutil.rmtree(cache, ignore_errors=True)
            eager.append(run([*index, "--members"], env)[0])
        # The memory is sampled in runs of its own: the sampler reads /proc every 20 ms, and on two
        # cores it would take its share from the timed runs (and from them only, not from raw).
        peaks = []
        for _ in range(2):
            shutil.rmtree(cache, ignore_errors=True)
            peaks.append(run(index, env, rss=True)[1])
        warms = [run(index, env)[0] for _ in range(args.runs)]
        entry = Path(sys.prefix) / "bin" / "konstruct"
        helps = {
            "python -c pass": [python, "-c", "pass"],
            "python -m konstruct_tui --help": [python, "-m", "konstruct_tui", "--help"],
        }
        if entry.exists():
            helps[f"{entry} --help"] = [str(entry), "--help"]
        on_path = shutil.which("konstruct")
        if on_path and Path(on_path).resolve() != entry.resolve():
            helps[f"{on_path} --help (a wrapper: pyenv shim?)"] = [on_path, "--help"]
        help_times = {label: median(run(argv, env)[0] for _ in range(max(args.runs, 5))) for label, argv in helps.items()}
        latencies = change_latencies(root, args.changes)
        # aider runs with the bytecode its venv was installed with (pip compiled it), not ours.
        aider_env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
        aider = aider_repo_map(args.aider_python, root, aider_env)
    raw, cold, warm = median(raws), median(colds), median(warms)
    print(f"raw tree-sitter parse+query, {WORKERS} processes:  {raw:6.2f} s   ({size / 1e6 / raw:5.2f} MB/s)")
    print(f"konstruct index, cold:                      {cold:6.2f} s   ({size / 1e6 / cold:5.2f} MB/s)")
    print(f"  cold speed / raw speed: {raw / cold:.2f} (per pair: {', '.join(f'{r / c:.2f}' for r, c in zip(raws, colds))})"
          "   goal >= 0.70")
    print(f"  CPU seconds of the process tree: raw {median(raw_cpu):.2f}, cold {median(cold_cpu):.2f}, "
          f"ratio {median(raw_cpu) / median(cold_cpu):.2f} (per pair: "
          f"{', '.join(f'{r / c:.2f}' for r, c in zip(raw_cpu, cold_cpu))})")
    print(f"konstruct index, warm (nothing changed):    {warm:6.3f} s   goal <= 0.3 s")
    print(f"member tier: first symbol question after the cold index {median(firsts):.2f} s (builds it), "
          f"the next {median(nexts):.2f} s")
    print(f"konstruct index --members, cold (both tiers, one pass): {median(eager):.2f} s, "
          f"speed / raw speed {raw / median(eager):.2f}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (2-core machine: above ~1 the wall times include waiting)")
    for label, seconds in help_times.items():
        goal = "" if label.startswith("python -c") else "   goal <= 0.2 s"
        print(f"{label}: {seconds:.3f} s{goal}")
    median_ms = median(latencies) * 1000
    print(f"single-file change -> visible to a query: median {median_ms:.1f} ms "
          f"(min {min(latencies) * 1000:.1f}, max {max(latencies) * 1000:.1f}, n={len(latencies)})   goal <= 50 ms")
    print(f"peak RSS of the cold index's process tree: {max(peaks) / 2**20:.0f} MB (parent and workers summed)")
    if aider is None:
        print(f"aider: not measured ({args.aider_python} not found; install aider-chat in a venv there)")
    else:
        print(f"aider repo map: cold {aider[0]:.2f} s ({aider[0] / cold:.1f}x konstruct, "
              f"{aider[0] / median(eager):.1f}x konstruct --members), "
              f"warm {aider[1]:.2f} s ({aider[1] / warm:.1f}x konstruct)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
