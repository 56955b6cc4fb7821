"""A run on one machine through the durable engine (DBOS on SQLite, in the run store's own file)
against the same run on today's store (the orchestrator in-process, no engine): the baseline.

A small scripted run of two phases (the first with a verify command): seven units, each one step of
the engine's workflow. Runs alternate between the two ways, so the machine's noise falls on both.
Prints medians: seconds per run each way, the engine's cost per run and per step (goal: under 20 ms a
step, under 5% of a scripted run's time), and what a whole `konstruct blueprint run` process pays
for the engine beside that: loading dbos (against a process that does not), DBOS's launch and shutdown.

    python bench/bench_local_engine.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests" / "blueprint"), str(ROOT / "tests" / "team")]

from blueprint_harness import (  # noqa: E402
    CALC,
    CHECK,
    DOC,
    DOCSTRING,
    EVIDENCE,
    PHASE_DOC,
    PHASE_FIX,
    blueprint_text,
    edit,
    engine_record,
    read,
    run_with,
    verdict,
    write_scripts,
)
from bench_queue import whole_process  # noqa: E402

PLAN = blueprint_text(PHASE_FIX, PHASE_DOC)
SCRIPTS = {
    "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
    "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    "executor-p2": [read("calc.py"), edit("calc.py", *DOCSTRING)],
    "adjudicator-p2": [verdict("complete", {"t1": DOC})],
}


def project(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "calc.py").write_text(CALC)
    (folder / "check_calc.py").write_text(CHECK)
    return folder


def one_run(folder: Path, scripts: Path, engine: bool) -> tuple[float, int]:
    """Seconds for one run, the tests' way (blueprint_harness.run_with: the workspace opened and
    closed around it; through the engine, DBOS's launch and shutdown too, as each `konstruct
    blueprint run` process pays them) and its steps. Each way keeps one run store for all its runs,
    as a machine does (the engine's tables are made once, by the first)."""
    from konstruct_tui.app import ScriptBook
    from konstruct_tui.blueprint import RunStore

    store = RunStore(folder.parent / ("engine.sqlite3" if engine else "today.sqlite3"))
    began = time.perf_counter()
    result = run_with(project(folder / "proj"), PLAN, ScriptBook(scripts, 20), store=store, engine=engine)
    spent = time.perf_counter() - began
    assert result.finished.reason == "done", result.finished
    units = len(engine_record(store.path, result.run_id)[0][3]) if engine else 0
    store.close()
    return spent, units


def process_seconds(code: str, count: int) -> float:
    times = []
    for _ in range(count):
        began = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="konstruct-bench-engine-") as name:
        folder = Path(name)
        os.environ["XDG_DATA_HOME"] = str(folder / "data")
        os.environ["XDG_CONFIG_HOME"] = str(folder / "config")
        os.environ["XDG_STATE_HOME"] = str(folder / "state")
        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        scripts = write_scripts(folder / "scripts", SCRIPTS)
        one_run(folder / "warm-a", scripts, True)  # imports and the blank store made once, outside the timings
        one_run(folder / "warm-b", scripts, False)
        inline, durable, units = [], [], []
        for n in range(args.runs):
            inline.append(one_run(folder / f"inline{n}", scripts, False)[0])
            spent, count = one_run(folder / f"engine{n}", scripts, True)
            durable.append(spent)
            units.append(count)
        base, with_engine = statistics.median(inline), statistics.median(durable)
        steps = statistics.median(units)
        extra = with_engine - base
        print(f"runs each way: {args.runs}; steps per run: {steps:g} (two phases: baseline, attempt, verify, adjudicate / baseline, attempt, adjudicate)")
        print(f"today's store (in-process, no engine, the baseline): {base * 1000:.0f} ms a run (median)")
        print(f"through the durable engine (DBOS on SQLite):        {with_engine * 1000:.0f} ms a run (median), x{with_engine / base:.2f}")
        print(f"the engine's cost: {extra * 1000:.0f} ms a run = {extra / steps * 1000:.1f} ms a step, {extra / base * 100:.1f}% of the run")
        bare = process_seconds("import konstruct_tui.blueprint, konstruct_tui.app", 7)
        loaded = process_seconds("import konstruct_tui.blueprint, konstruct_tui.app, dbos", 7)
        (folder / "whole").mkdir()
        whole = whole_process(folder / "whole", scripts, max(5, args.runs // 3), PLAN, project)
        print(f"loading dbos in a process: {(loaded - bare) * 1000:.0f} ms (median of 7, against the same process without it)")
        print(f"whole `konstruct blueprint run` process (with the engine): {whole * 1000:.0f} ms (median); "
              f"the engine's load and per-run cost are {((loaded - bare) + extra) / whole * 100:.0f}% of it")


if __name__ == "__main__":
    main()
