"""One step of a team run on a worker: a fresh checkout at the run's last checkpoint, the run store
as that checkpoint left it, today's orchestrator (same gate, same sandbox) until the next phase
closes (or the run ends, parks for an approval or is stopped), then a checkpoint commit pushed to
the run's repository and the store, the phases closed and the run's row written in one transaction.

A step that dies half-way (SIGKILL, a lost machine) recorded nothing: the step runs again on
whichever worker takes the run up, from the same checkpoint, so no phase is closed twice or skipped.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from ..agent import KillSwitch, ToolFinished, event_json
from ..app import build_preview, open_models
from ..blueprint import Orchestrator, PhaseStarted, RunOptions, RunStore, parse_blueprint
from ..providers import ProviderSettings
from ..trust import TrustRequest
from ..untrusted_text import neutralise
from ..workspace import Workspace
from .broker import Answer, ParkingBroker
from .model_server import run_settings
from .repo_allowlist import check_repo
from .checkout import GitClock, checkpoint, fresh_checkout, result_branch
from .records import Superseded, TeamDatabase

# The run's status in the team database for each way a step ends.
STATUS = {"checkpoint": "running", "done": "done", "waiting_approval": "waiting_approval", "stalled": "stalled", "stopped": "stopped"}


def advance(db: TeamDatabase, run_id: str, workdir: Path, worker: str, allowed_servers: frozenset[str] = frozenset(),
            continuation: int | None = None, allowed_repos: tuple[str, ...] = ()) -> dict[str, Any]:
    started = time.time()
    GitClock.reset()
    try:
        begun = db.begin_step(run_id, worker, continuation)
    except Superseded:
        return {"state": "superseded"}
    if begun is None:
        return {"state": "error", "message": f"run {run_id} is not in the database"}
    row, image, asked = begun
    if row["status"] == "stopped":
        return {"state": "stopped"}
    # Before anything is fetched or run: a repository or model server this worker does not serve.
    check_repo(row["repo"], allowed_repos)
    settings = run_settings(json.loads(row["model"]), allowed_servers)
    home = workdir / run_id
    tree = home / "tree"
    kept = fresh_checkout(row["repo"], row["checkpoint"] or row["base"], run_id, tree)
    blueprint = parse_blueprint(row["blueprint"], row["source"])
    # The store is a scratch copy for this step (its durable copy is the image in the team database,
    # written with the step's result): in memory-backed storage where there is some, so the step pays
    # no disk syncs for a file it throws away.
    scratch = Path(tempfile.mkdtemp(prefix=f"{_SCRATCH}{os.getpid()}-{run_id}-", dir=_scratch_root()))
    try:
        return _drive(db, run_id, worker, row, image, asked, blueprint, tree, scratch, started, kept, settings)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _drive(db: TeamDatabase, run_id: str, worker: str, row: dict[str, Any], image: bytes | None, asked: list[dict[str, Any]], blueprint: Any,
           tree: Path, scratch: Path, started: float, kept: bool, settings: ProviderSettings) -> dict[str, Any]:
    store_path = _restore_store(image, scratch / "runs.sqlite3")
    store = RunStore(store_path)
    resumed = store.run(run_id) is not None
    model = json.loads(row["model"])

    switch = KillSwitch()
    answers = {a["request_id"]: Answer(a["status"], a["scope"] or "once", a["request"].get("capability", ""), a.get("message") or "",
                                       (str(a["request"].get("detail", "")), tuple(a["request"].get("paths") or ())))
               for a in asked if a["status"] != "pending"}
    options = json.loads(row["options"])
    workspace_box: list[Workspace] = []

    def park(rid: str, request: TrustRequest) -> None:
        db.ask(run_id, rid, _shown_request(request, workspace_box[0] if workspace_box else None), worker)
        switch.kill("waiting_approval")

    broker = ParkingBroker(set(options.get("grants", [])), answers, park)
    run_options = RunOptions(max_retries=options.get("max_retries", 3), executor_max_turns=options.get("max_turns", 40),
                             turn_deadline_s=settings.turn_deadline_s, tick_s=options.get("tick_s", 30.0),
                             silent_after_s=options.get("silent_after_s", 300.0), max_tokens=options.get("max_tokens"),
                             max_cost_usd=options.get("max_cost"), broker=broker, pause_after_phase=True)
    progress = Progress(db, run_id, switch)
    try:
        if not resumed:
            store.create_run(run_id, blueprint.title, row["source"], row["blueprint"], str(tree), model, [p.id for p in blueprint.phases])
        # The run itself, timed as bench/bench_queue.py times today's run: the workspace opened and
        # closed around the orchestrator (progress goes to the database from a thread of its own).
        began = time.perf_counter()
        with Workspace(tree) as workspace, progress:
            workspace_box.append(workspace)
            orchestrator = Orchestrator(store, run_id, blueprint, workspace, open_models(settings), progress, run_options, switch, settings.price())
            finished = asyncio.run(orchestrator.run(resumed=resumed))
        driven_s = time.perf_counter() - began
        closed = _closed_phases(store, run_id)
    finally:
        store.close()
    state = ("waiting_approval" if broker.parked else "stopped" if switch.reason == "stopped"
             else finished.reason if finished.reason in STATUS else "parked")
    commit = checkpoint(tree, run_id, f"konstruct {run_id}: {state}", result=state == "done")
    values: dict[str, Any] = {"status": STATUS.get(state, "parked"), "reason": finished.reason, "message": finished.message[:2000],
                              "checkpoint": commit, "worker": worker if state == "checkpoint" else None}
    values.update({k: v for k, v in (("phase", progress.phase), ("last_output", progress.last)) if v})
    if state == "waiting_approval":
        values.update(parked_at=time.time(), reason="waiting_approval", message=f"waiting for an answer to request {broker.parked}")
    if state == "done":
        values["branch"] = result_branch(run_id)
    after = _image(store_path)
    # What the step cost beside the run itself (checkout, store, checkpoint, database) goes in the
    # same transaction as its result; the step's whole span, this write included, is DBOS's own
    # record of the step (bench/bench_queue.py reads both).
    detail = {"state": state, "started": started, "step_s": round(time.time() - started, 4), "orchestrator_s": round(driven_s, 4),
              "git_s": round(GitClock.seconds(), 4), "checkout_kept": kept}
    newly = db.record_step(run_id, None if after == image else after, closed, worker, audit_detail=detail, **values)
    return {"state": state, "checkpoint": commit, "phase": progress.phase, "closed": newly, "step_s": detail["step_s"],
            "branch": values.get("branch"), "message": values.get("message") or ""}


_blank: dict[str, bytes] = {}
_blank_lock = threading.Lock()


def _blank_store() -> bytes:
    """An empty run store with its schema, made once per process: a new run's store starts as a copy
    of it, not as a dozen schema statements each synced to disk."""
    with _blank_lock:
        if "image" not in _blank:
            with tempfile.TemporaryDirectory(prefix="konstruct-blank-store-") as folder:
                path = Path(folder) / "runs.sqlite3"
                RunStore(path).close()
                _blank["image"] = _image(path)
        return _blank["image"]


_SCRATCH = "konstruct-store-"


def clear_stale_scratch() -> None:
    """Scratch stores that workers killed mid-step left behind (SIGKILL skips every `finally`): this
    user's, of processes no longer alive. A worker calls it when it starts."""
    root = Path(_scratch_root() or tempfile.gettempdir())
    for entry in root.glob(f"{_SCRATCH}*"):
        pid = entry.name[len(_SCRATCH):].split("-", 1)[0]
        try:
            if not pid.isdigit() or entry.stat().st_uid != os.getuid():
                continue
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(entry, ignore_errors=True)
        except OSError:
            continue


def _scratch_root() -> str | None:
    """/dev/shm when this machine has it (Linux), else the temp dir."""
    shm = "/dev/shm"  # noqa: S108 - a private folder of our own is made inside it (mkdtemp: mode 0700)
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


def _restore_store(data: bytes | None, path: Path) -> Path:
    for stale in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        stale.unlink(missing_ok=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_blank_store() if data is None else data)  # the image `serialize` gave: the database file as it was
    return path


def _image(path: Path) -> bytes:
    connection = sqlite3.connect(path)
    try:
        return connection.serialize()
    finally:
        connection.close()


def _closed_phases(store: RunStore, run_id: str) -> list[tuple[str, str]]:
    closed = []
    for phase in store.phases(run_id):
        if phase.status == "closed":
            gates = [g for g in store.gates(run_id, phase.phase_id) if g.decision == "close"]
            closed.append((phase.phase_id, gates[-1].verdict or "" if gates else ""))
    return closed


def _shown_request(request: TrustRequest, workspace: Workspace | None) -> dict[str, Any]:
    """What a trust prompt shows for it: capability, files, diffs, blast radius, the command and the
    policy's verdict (best effort, as in the prompt)."""
    tool, arguments = {"commands": ("run_command", {"command": request.detail}),
                       "scripts": ("run_command", {"script": request.detail})}.get(request.capability, ("write_code", {}))
    preview = build_preview(workspace, tool, request.capability, request.detail, arguments)
    return {"capability": request.capability, "detail": request.detail, "paths": list(request.paths), "command": preview.command,
            "rule": preview.rule, "reason": preview.reason, "diffs": [list(d) for d in preview.diffs],
            "blast_radius": list(preview.blast_radius) if preview.blast_radius is not None else None, "notes": list(preview.notes)}


class Progress:
    """The run's events, as the team sees them: its phase and last output in the database, and a stop
    asked for from any machine thrown into the run's kill switch.

    The orchestrator never waits on the database for this: `report` only notes what changed, and a
    thread of its own writes it (at once for a new phase, else at most once a second) and looks for a
    stop in the same transaction, also while nothing happens in the run (a model thinking, a command
    running), so a stop reaches a silent run within a second."""

    every_s = 1.0

    def __init__(self, db: TeamDatabase, run_id: str, switch: KillSwitch) -> None:
        self.db, self.run_id, self.switch = db, run_id, switch
        self.phase: str | None = None
        self.last = ""
        self.lock = threading.Lock()
        self.changed = False
        self.wake = threading.Event()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, name=f"progress-{run_id}", daemon=True)

    def report(self, event: Any) -> None:
        if isinstance(event, PhaseStarted):
            with self.lock:
                self.phase, self.changed = event_json(event).get("phase"), True
            self.wake.set()
        elif isinstance(event, ToolFinished):
            data = event_json(event)
            last = neutralise(f"{data.get('tool')}: {'ok' if data.get('ok') else data.get('error')}", keep_layout=False)[:500]
            with self.lock:
                self.last, self.changed = last, True

    def __enter__(self) -> Progress:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.wake.set()
        self.thread.join()  # the last phase and output go with the step's result (record_step)

    def _watch(self) -> None:
        while not self.done.is_set():
            self.wake.wait(self.every_s)
            self.wake.clear()
            if self.done.is_set():
                return
            try:
                if self._write() and not self.switch.killed:
                    self.switch.kill("stopped")
            except Exception:  # noqa: BLE001, S112 - the database away for a moment: look again next time
                continue

    def _write(self) -> bool:
        """Write what changed (if anything) and say whether a stop was asked for."""
        with self.lock:
            changed, phase, last = self.changed, self.phase, self.last
            self.changed = False
        if changed:
            return self.db.progress(self.run_id, phase=phase, last_output=last)
        return self.db.stop_requested(self.run_id)
