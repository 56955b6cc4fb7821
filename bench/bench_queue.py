"""Team runs through the durable queue: N small scripted runs (one phase each: read, edit, a verdict)
through 1, 2 and 4 `konstruct worker` processes on a throwaway PostgreSQL cluster.

Prints, per worker count: runs per minute, queue latency (submit → a worker starts the run; every
run is submitted before the workers start, so it includes their start-up and the backlog) p50/p99,
and a step's cost beside the run itself (the workspace and the orchestrator, timed as the baseline
times them), split into git (checkout, checkpoint commit, one push of the checkpoint and the result
branch) and the engine (run store image, database writes, progress writes), against two baselines: the
same run on today's store (the orchestrator in-process, a local SQLite run store, no queue), and the
same run as a person waits for it on one machine (`konstruct blueprint run`, the whole process). A step's
span is DBOS's own record of it (operation_outputs: started → completed), so the step's last database
write counts too; "DBOS around the steps" is the workflow's span minus its steps' (dequeue, the
workflow's own checkpoints).

    python bench/bench_queue.py [--runs 50] [--workers 1,2,4]

Needs initdb/pg_ctl (Debian's postgresql package); as root the cluster runs as `postgres`.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import pwd
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "blueprint"), str(ROOT / "tests" / "team")]

from blueprint_harness import EVIDENCE, PHASE_FIX, blueprint_text, edit, read, verdict, write_scripts  # noqa: E402
from team_harness import make_repo  # noqa: E402

PLAN = blueprint_text(PHASE_FIX.replace('verify = ["python check_calc.py"]\n', ""))


def binary(name: str) -> str:
    found = shutil.which(name) or (sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [None])[-1]
    if not found:
        sys.exit(f"{name} not found: apt-get install postgresql")
    return found


def start_cluster(base: Path) -> tuple[str, list[str]]:
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(base, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    sock = base / "sock"
    subprocess.run([*prefix, "mkdir", "-p", str(sock)], check=True)
    subprocess.run([*prefix, binary("initdb"), "-D", str(base / "data"), "-A", "trust", "-U", "postgres", "--no-sync"], check=True, capture_output=True)
    subprocess.run([*prefix, binary("pg_ctl"), "-D", str(base / "data"), "-l", str(base / "log"), "-w", "-o",
                    f"-k {sock} -c listen_addresses='' -c max_connections=200", "start"], check=True, capture_output=True)
    return str(sock), prefix


def baseline(folder: Path, scripts: Path, count: int) -> float:
    """Seconds per run on today's store: the orchestrator in-process, as `konstruct blueprint run` drives it."""
    from konstruct_tui.agent.events import CollectingReporter
    from konstruct_tui.app import ScriptBook
    from konstruct_tui.blueprint import Orchestrator, RunOptions, RunStore, new_run_id, parse_blueprint
    from konstruct_tui.workspace import Workspace

    times = []
    for n in range(count):
        root = make_repo(folder / f"base{n}")
        store = RunStore(folder / f"base{n}.sqlite3")
        blueprint = parse_blueprint(PLAN)
        run_id = new_run_id()
        store.create_run(run_id, blueprint.title, "plan.toml", PLAN, str(root), {"provider": "scripted"}, [p.id for p in blueprint.phases])
        began = time.perf_counter()
        with Workspace(root) as workspace:
            finished = asyncio.run(Orchestrator(store, run_id, blueprint, workspace, ScriptBook(scripts, 20), CollectingReporter(), RunOptions()).run())
        times.append(time.perf_counter() - began)
        assert finished.reason == "done", finished
    return statistics.median(times)


def whole_process(folder: Path, scripts: Path, count: int, text: str = PLAN, make: Callable[[Path], Path] = make_repo) -> float:
    """Seconds per run as a person waits for `konstruct blueprint run` on one machine: the whole process
    (the plan `text` in a project `make` makes; also bench_local_engine.py's)."""
    plan = folder / "plan.toml"
    plan.write_text(text)
    times = []
    for n in range(count):
        root = make(folder / f"whole{n}")
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "konstruct_tui", "blueprint", "run", str(plan), "--root", str(root), "--headless",
                               "--provider", "scripted", "--script", str(scripts)], env={**os.environ, "PYTHONPATH": str(ROOT)},
                              capture_output=True, text=True)
        times.append(time.perf_counter() - began)
        assert done.returncode == 0, done.stderr[-2000:]
    return statistics.median(times)


def through_workers(url: str, folder: Path, repo: Path, scripts: Path, runs: int, workers: int) -> dict[str, float]:
    from konstruct_tui.app import describe_model
    from konstruct_tui.blueprint import new_run_id
    from konstruct_tui.providers import resolve
    from konstruct_tui.team import DatabaseTarget, TeamDatabase, enqueue, prepare, resolve_base

    target = DatabaseTarget(url)
    db = TeamDatabase.open(target, create=True)
    prepare(target)
    base = resolve_base(str(repo), None)
    model = json.dumps(describe_model(resolve(provider="scripted", script=str(scripts))))
    ids = []
    began = time.time()
    for _ in range(runs):
        run_id = new_run_id() + uuid.uuid4().hex[:4]
        db.add_run({"run_id": run_id, "title": "Calc fixes", "source": "plan.toml", "blueprint": PLAN, "repo": str(repo), "ref": None, "base": base,
                    "model": model, "options": json.dumps({"grants": []}), "approval_timeout": None, "status": "queued", "continuation": 0, "stop_requested": 0})
        enqueue(target, run_id)
        ids.append(run_id)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-m", "konstruct_tui", "worker", "--database", url, "--workdir", str(folder / f"w{workers}-{n}"),
                               "--once", "--heartbeat", "0.5"], env=env, stderr=subprocess.DEVNULL) for n in range(workers)]
    for proc in procs:
        proc.wait()
    wall = time.time() - began
    rows = {r["run_id"]: r for r in db.runs()}
    assert all(rows[i]["status"] == "done" for i in ids), {rows[i]["status"] for i in ids}
    latencies, overheads, steps, gits, arounds = [], [], [], [], []
    spans = _dbos_spans(db)
    for run_id in ids:
        audit = [e for e in db.audit(run_id) if e["kind"] == "step"]
        latencies.append(audit[0]["detail"]["started"] - rows[run_id]["created"])
        run_spans = spans[run_id]
        # One step entry per DBOS step of the run, in order: DBOS's span of the step (from before our
        # code ran to after its last database write) holds everything the step did.
        assert len(run_spans["steps"]) == len(audit), (run_spans, audit)
        for entry, span in zip(audit, run_spans["steps"], strict=True):
            overheads.append(span - entry["detail"]["orchestrator_s"] - entry["detail"]["git_s"])
            gits.append(entry["detail"]["git_s"])
            steps.append(span)
        arounds.append(run_spans["workflow"] - sum(run_spans["steps"]))
    latencies.sort()
    db.close()
    return {"runs_per_min": runs / wall * 60, "p50": statistics.median(latencies), "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
            "overhead": statistics.median(overheads), "step": statistics.median(steps), "git": statistics.median(gits),
            "around": statistics.median(arounds)}


def _dbos_spans(db: object) -> dict[str, dict[str, object]]:
    """DBOS's own clock, per run: each `konstruct_advance` step's span (started → completed) and the
    workflow's (dequeued → finished), in seconds; a run's continuations (RUN~N) are its too."""
    import sqlalchemy as sa

    spans: dict[str, dict[str, object]] = {}
    with db.engine.connect() as connection:  # type: ignore[attr-defined]
        for workflow, began, ended in connection.execute(sa.text(
                "SELECT workflow_uuid, started_at_epoch_ms, completed_at_epoch_ms FROM dbos.operation_outputs "
                "WHERE function_name = 'konstruct_advance' ORDER BY workflow_uuid, function_id")):
            spans.setdefault(workflow.split("~")[0], {"steps": [], "workflow": 0.0})["steps"].append((ended - began) / 1000)  # type: ignore[union-attr]
        for workflow, began, ended in connection.execute(sa.text(
                "SELECT workflow_uuid, started_at_epoch_ms, updated_at FROM dbos.workflow_status WHERE status = 'SUCCESS'")):
            entry = spans.setdefault(workflow.split("~")[0], {"steps": [], "workflow": 0.0})
            entry["workflow"] = float(entry["workflow"]) + (ended - began) / 1000  # type: ignore[arg-type]
    return spans


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--workers", default="1,2,4")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="konstruct-bench-pg-"))
    folder = Path(tempfile.mkdtemp(prefix="konstruct-bench-"))
    os.environ.setdefault("XDG_DATA_HOME", str(folder / "xdg-data"))
    os.environ.setdefault("XDG_CACHE_HOME", str(folder / "xdg-cache"))
    sock, prefix = start_cluster(base)
    try:
        scripts = write_scripts(folder / "scripts", {"executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
                                                     "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})]})
        repo = make_repo(folder / "repo")
        per_run = baseline(folder, scripts, 5)
        whole = whole_process(folder, scripts, 5)
        print(f"baseline (today's store, in-process, no queue): {per_run * 1000:.0f} ms per run (median of 5); one step per run; "
              f"`konstruct blueprint run` as a person waits for it (whole process): {whole * 1000:.0f} ms")
        for workers in [int(w) for w in args.workers.split(",")]:
            name = f"b{workers}_{uuid.uuid4().hex[:6]}"
            subprocess.run(["psql", "-h", sock, "-U", "postgres", "-qc", f"CREATE DATABASE {name}"], check=True)
            r = through_workers(f"postgresql://postgres@/{name}?host={sock}", folder, repo, scripts, args.runs, workers)
            print(f"{workers} worker(s), {args.runs} runs: {r['runs_per_min']:.1f} runs/min; queue latency p50 {r['p50']:.2f} s, p99 {r['p99']:.2f} s; "
                  f"step {r['step'] * 1000:.0f} ms median (DBOS's span): git (checkout, checkpoint commit, one push) {r['git'] * 1000:.0f} ms, "
                  f"engine beside git and the run (store image, database writes, progress) {r['overhead'] * 1000:.0f} ms "
                  f"= {r['overhead'] / per_run * 100:.1f}% of the baseline run in-process, {r['overhead'] / whole * 100:.1f}% of the whole process; "
                  f"with git {(r['overhead'] + r['git']) / per_run * 100:.0f}% / {(r['overhead'] + r['git']) / whole * 100:.0f}%; "
                  f"DBOS around the steps (workflow span minus its steps) {r['around'] * 1000:.0f} ms a run")
    finally:
        subprocess.run([*prefix, binary("pg_ctl"), "-D", str(base / "data"), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
