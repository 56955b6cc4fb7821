"""The durable engine under team runs: DBOS Transact (workflows and steps checkpointed in the
database, a queue with concurrency limits, a client for other processes, recovery).

A run is the workflow `konstruct_run`; each of its steps is `advance` (step.py): one phase, from a
fresh checkout at the last checkpoint. DBOS records each step's result, so a workflow taken up
again replays the finished steps from the database and runs the rest.

Recovery across machines needs no control plane: every worker has its own executor id and beats
into `konstruct_workers`; each worker sweeps for workers whose beat stopped (`--dead-after`), claims
each such worker with one conditional update (so one sweeper only), and has DBOS re-enqueue that
executor's pending workflows, which any worker then dequeues. A worker restarted under the same
`--name` recovers its own on start, as DBOS does for any executor.

dbos is imported here only: nothing on the workbench's start-up path or `konstruct --help` loads it.
"""

from __future__ import annotations

import math
import os
import signal
import socket
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from dbos import DBOS, DBOSClient

from .database import DatabaseProblem, DatabaseTarget, scrub
from ..blueprint import continuation_of, workflow_id
from ..providers import ConfigInvalid
from ..untrusted_text import neutralise
from .checkout import CheckoutFailed
from .model_server import ModelServerRefused
from .repo_allowlist import RepoRefused
from .records import TeamDatabase
from .step import advance, clear_stale_scratch

QUEUE = "konstruct-runs"
WORKFLOW = "konstruct_run"
APP_VERSION = "konstruct-team-1"  # every worker and client agree on it, whatever their source hash
ORPHAN_QUIET_S = 10.0  # a queued row this long unchanged with no workflow on the queue is an orphan
ORPHAN_LOOK_S = 5.0
_worker: dict[str, Any] = {}  # this process's database, workdir and executor id, for the steps
_draining = threading.Event()  # the worker is stopping: each run hands over at the end of its phase
_in_flight = [0]  # runs this process is driving now
_in_flight_lock = threading.Lock()


@DBOS.step(name="konstruct_advance")
def _advance(run_id: str, number: int, continuation: int) -> dict[str, Any]:
    db: TeamDatabase = _worker["db"]
    try:
        result = advance(db, run_id, _worker["workdir"], _worker["executor_id"], _worker["allowed_servers"], continuation, _worker["allowed_repos"])
        if result["state"] == "checkpoint" and _draining.is_set():
            result = {**result, **_hand_over(db, run_id)}
    except (CheckoutFailed, DatabaseProblem, ModelServerRefused, RepoRefused, ConfigInvalid) as problem:  # parked where it was: `blueprint resume` tries again
        db.update_run(run_id, status="parked", reason="error", message=str(problem), worker=None)
        result = {"state": "error", "message": str(problem)}
    except Exception as error:  # noqa: BLE001 - a bug: the run parks saying what broke, never stays `running`
        message = f"internal error: {type(error).__name__}: {error}"[:2000]
        db.update_run(run_id, status="parked", reason="error", message=message, worker=None)
        result = {"state": "error", "message": message}
    log_step(run_id, result)
    return {"state": result["state"]}


def log_step(run_id: str, result: dict[str, Any]) -> None:
    """One line on the worker's stderr for each step (what journald keeps for the operator): the
    run, how the step ended, the phases it closed, the branch pushed, why it parked."""
    parts = [f"konstruct worker {_worker['executor_id']}: run {run_id}", str(result["state"])]
    if result.get("phase"):
        parts.append(f"phase {result['phase']}")
    if result.get("closed"):
        parts.append(f"closed {', '.join(result['closed'])}")
    if result.get("step_s") is not None:
        parts.append(f"in {result['step_s']:.1f} s")
    if result.get("branch"):
        parts.append(f"pushed {result['branch']}")
    if result.get("message") and result["state"] not in ("checkpoint", "done", "handed_over"):
        parts.append(f"— {result['message']}")
    sys.stderr.write(neutralise(" ".join(parts), keep_layout=False)[:1000] + "\n")
    sys.stderr.flush()


@DBOS.step(name="konstruct_answered_meanwhile")
def _answered_meanwhile(run_id: str) -> None:
    """An answer that came while the step was still parking found the run not yet waiting and left
    it: send the run on from here (the conditional update lets one process only do it)."""
    db: TeamDatabase = _worker["db"]
    if all(a["status"] != "pending" for a in db.approvals(run_id)):
        number = db.requeue(run_id, ("waiting_approval",))
        if number is not None:
            enqueue_queued(db.target, run_id, number)


def _hand_over(db: TeamDatabase, run_id: str) -> dict[str, Any]:
    """A stopping worker's run, its phase just recorded: back on the queue as its next continuation,
    for any worker (a stop asked for meanwhile stays asked for). Inside the step, so the decision
    is recorded with the step and a replay makes the same one."""
    number = db.requeue(run_id, ("running",), clear_stop=False)
    if number is not None:
        enqueue_queued(db.target, run_id, number)  # should this fail, the orphan sweep queues it
        db.add_audit(run_id, "handed_over", _worker["executor_id"], {"continuation": number, "why": "its worker is stopping"})
    return {"state": "handed_over"}


@DBOS.workflow(name=WORKFLOW)
def konstruct_run(run_id: str) -> str:
    workflow = DBOS.workflow_id or run_id
    continuation = continuation_of(workflow)
    with _in_flight_lock:
        _in_flight[0] += 1
    try:
        number = 0
        while True:
            result = _advance(run_id, number, continuation)
            number += 1
            if result["state"] == "waiting_approval":
                _answered_meanwhile(run_id)
            if result["state"] != "checkpoint":
                return str(result["state"])
    finally:
        with _in_flight_lock:
            _in_flight[0] -= 1


def prepare(target: DatabaseTarget) -> None:
    """DBOS's system tables in the database (a client alone does not make them)."""
    try:
        DBOS.migrate(target.url, schema="dbos")
    except Exception as error:  # noqa: BLE001 - a database DBOS cannot use: one line
        raise DatabaseProblem(f"database {target.shown}: DBOS cannot set up its tables: {scrub(str(error).splitlines()[0] if str(error) else type(error).__name__, target.url)}") from None


def enqueue(target: DatabaseTarget, run_id: str, continuation: int = 0) -> str:
    """Put the run (or its continuation) on the queue; idempotent (the workflow id is fixed). A
    database that refuses is a DatabaseProblem: the run's row already says `queued`, and a worker's
    sweep (`Worker.requeue_orphans`) puts it on the queue once the database takes it."""
    wid = workflow_id(run_id, continuation)
    try:
        client = DBOSClient(system_database_url=target.url)
        try:
            client.enqueue({"queue_name": QUEUE, "workflow_name": WORKFLOW, "workflow_id": wid, "app_version": APP_VERSION}, run_id)
        finally:
            client.destroy()
    except Exception as error:  # noqa: BLE001 - the driver's or DBOS's words, in one line
        raise DatabaseProblem(f"run {run_id} could not be put on the queue in {target.shown}: "
                              f"{scrub((str(error).splitlines() or [type(error).__name__])[0], target.url)}") from None
    return wid


def enqueue_queued(target: DatabaseTarget, run_id: str, continuation: int = 0) -> str | None:
    """Enqueue a run whose row already says `queued`; when the database refuses, the run is not
    lost: None becomes a note saying a worker's sweep queues it (what the command prints)."""
    try:
        enqueue(target, run_id, continuation)
    except DatabaseProblem as problem:
        return f"{problem}; it stays queued and a worker queues it once the database takes it"
    return None


def cancel(target: DatabaseTarget, workflow_ids: list[str]) -> None:
    client = DBOSClient(system_database_url=target.url)
    try:
        for wid in workflow_ids:
            try:
                client.cancel_workflow(wid)
            except Exception:  # noqa: BLE001 - never enqueued or already gone: nothing to cancel
                pass
    finally:
        client.destroy()


# DBOS has no public call that recovers another executor's workflows: its docs send you to the admin
# server's POST /dbos-workflow-recovery, which dbos 3.4 no longer ships, and `DBOS.resume_workflows`
# re-enqueues without asking whose the workflow is (a sweep racing a restarted worker could run a run
# twice). The call behind that endpoint is `DBOS._recover_pending_workflows`: it re-enqueues a PENDING
# workflow only while it still names the dead executor, so recovering twice is harmless. Hence the pin
# `dbos>=3.4,<3.5` in pyproject.toml, this one place that calls it, a worker that will not start without
# it, and tests/team/test_dbos_recovery_api.py, which fails loudly when an upgrade moves it.
RECOVERY = "_recover_pending_workflows"


def recovery_call() -> Any:
    recover = getattr(DBOS, RECOVERY, None)
    if not callable(recover):
        raise DatabaseProblem(f"the installed dbos has no {RECOVERY} (konstruct's workers recover each other's runs through it): "
                              "install dbos>=3.4,<3.5")
    return recover


def recover(dead_executor: str) -> None:
    recovery_call()([dead_executor])


class Worker:
    def __init__(self, db: TeamDatabase, workdir: Path, concurrency: int, total: int | None, name: str | None, beat_s: float,
                 dead_after_s: float, allowed_servers: frozenset[str] = frozenset(), drain_s: float = 25.0,
                 allowed_repos: tuple[str, ...] = ()) -> None:
        self.db = db
        self.drain_s = drain_s
        self.workdir = workdir
        self.executor_id = name or f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self.beat_s = beat_s
        self.dead_after_s = dead_after_s
        self.stop = threading.Event()
        self.next_orphan_look = 0.0
        recovery_call()  # no worker that could not recover the others' runs
        _worker.update(db=db, workdir=workdir, executor_id=self.executor_id, allowed_servers=allowed_servers, allowed_repos=allowed_repos)
        self.concurrency, self.total = concurrency, total
        DBOS(config={"name": "konstruct", "system_database_url": db.target.url, "executor_id": self.executor_id,
                     "application_version": APP_VERSION, "log_level": "WARNING", "console_log_level": "WARNING",
                     "notification_listener_polling_interval_sec": 0.25})

    def serve(self, once: bool) -> int:
        signal.signal(signal.SIGTERM, self._signalled)
        signal.signal(signal.SIGINT, self._signalled)
        self.db.beat(self.executor_id, socket.gethostname(), os.getpid())
        clear_stale_scratch()
        DBOS.launch()
        # The queue's limits live in the database: the worker that starts last sets them for all.
        DBOS.register_queue(QUEUE, polling_interval_sec=0.25, on_conflict="always_update",
                             worker_concurrency=self.concurrency, global_concurrency=self.total)
        idle = 0
        try:
            while not self.stop.wait(self.beat_s):
                self.db.beat(self.executor_id, socket.gethostname(), os.getpid())
                self.sweep()
                if once:
                    idle = idle + 1 if not self.work_left() else 0
                    if idle >= 2:
                        break
        finally:
            self._drain()
        return 0

    def _signalled(self, *_: object) -> None:
        """SIGTERM or ctrl+c: stop taking runs and drain; a second one while draining: leave now."""
        if self.stop.is_set():
            self._leave()
        self.stop.set()

    def _drain(self) -> None:
        """Stop taking runs; each run in a phase finishes the phase and goes back on the queue
        (`handed_over`), for up to `drain_s`. A run still in its phase after that is left as a
        crashed worker leaves it: the step records nothing, and another worker's sweep takes the
        run up from its last checkpoint once this worker's heartbeat is `--dead-after` old."""
        _draining.set()
        DBOS.destroy(workflow_completion_timeout_sec=math.ceil(self.drain_s) if _in_flight[0] else 0)  # stops dequeuing first
        if _in_flight[0]:
            self._leave()
        self.db.beat(self.executor_id, socket.gethostname(), os.getpid(), state="stopped")

    def _leave(self) -> None:
        """Exit at once: threads still in a phase must not write after DBOS is gone (the
        interpreter would wait for them at exit). The worker is left `alive` with a heartbeat of
        long ago, so the next sweep of any worker recovers its runs as a crashed worker's, without
        waiting `--dead-after`. (A step that records in the moment before the exit is safe: its
        run resumes from that record, as after a kill between a step's record and DBOS's.)"""
        sys.stderr.write(f"konstruct worker {self.executor_id}: leaving {_in_flight[0]} run(s) mid-phase; "
                         "another worker takes them up from their last checkpoint\n")
        sys.stderr.flush()
        try:
            self.db.abandon(self.executor_id)
        except DatabaseProblem:  # the database away: the runs are recovered after --dead-after instead
            pass
        os._exit(0)

    def sweep(self) -> None:
        if time.monotonic() >= self.next_orphan_look:
            self.next_orphan_look = time.monotonic() + ORPHAN_LOOK_S
            self.requeue_orphans()
        for dead in self.db.claim_dead_workers(self.dead_after_s):
            self.db.add_audit("-", "worker_recovered", self.executor_id, {"dead_worker": dead})
            recover(dead)  # re-enqueues them: any worker may take them up
        now = time.time()
        for row in self.db.waiting():
            timeout = row["approval_timeout"]
            if timeout and row["parked_at"] and now - row["parked_at"] > timeout:
                if self.db.update_run(row["run_id"], when_status=("waiting_approval",), status="stalled", reason="approval_timeout",
                                      message=f"no answer to its approval request within {timeout:g} s"):
                    self.db.add_audit(row["run_id"], "approval_timeout", self.executor_id, {"timeout_s": timeout})

    def requeue_orphans(self) -> None:
        """Runs whose row says `queued` (a submit, resume or answer wrote it) but whose workflow
        never reached DBOS's queue (the database went away between the two writes): put them on it.
        Only rows quiet for a while: the process that wrote one enqueues it a moment later."""
        rows = self.db.queued(quiet_s=ORPHAN_QUIET_S)
        if not rows:
            return
        wanted = {workflow_id(r["run_id"], r["continuation"]): r for r in rows}
        known = {w.workflow_id for w in DBOS.list_workflows(workflow_ids=list(wanted), load_input=False, load_output=False)}
        for wid, row in wanted.items():
            if wid not in known:
                enqueue(self.db.target, row["run_id"], row["continuation"])
                self.db.add_audit(row["run_id"], "requeued", self.executor_id, {"workflow": wid, "why": "its row said queued, the queue had no workflow"})

    def work_left(self) -> bool:
        pending = DBOS.list_workflows(status=["ENQUEUED", "PENDING"], name=WORKFLOW, load_input=False, load_output=False)
        return bool(pending)
