"""A run on one machine through the durable engine (issue 28): DBOS Transact on SQLite.

The run is the workflow `konstruct_local_run`; the units the run store already resumes from (a
phase's verify baseline, each executor attempt, the gate's verify tier and its adjudicator tier)
are its steps, `konstruct_unit`. DBOS's system tables live in the run store's own file: one SQLite
database holds the ledger, the verdicts, the audit trail, the report and the engine's record of
every workflow and step (`dbos workflow list --sys-db-url sqlite:///…/runs.sqlite3` reads it).

Each process has an executor id of its own, so no process ever takes up another's run by itself
(DBOS recovers its own executor's pending workflows when it launches): a run cut off by a crash is
taken up only when the person asks, `konstruct blueprint resume RUN`, as before. A resume is the
workflow's next continuation, `RUN~N` (the spelling team runs use), and the cut-off workflow is
cancelled; nothing is replayed from the engine: what a cut-off unit left is in the run store, and
the orchestrator goes on from it exactly as it always did.

The workflow runs in the caller's thread and event loop (DBOS runs a directly called async workflow
inline), so the kill switch, the signal handlers and the reporter stay the caller's.

dbos loads with this module, which the CLI and the workbench import only when a run starts: nothing
on the workbench's start-up path or `konstruct --help` loads it.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import sys
import threading
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from dbos import DBOS, SetWorkflowID

from ..agent import Finished
from .run_options import Outcome, continuation_of, workflow_id
from .store import StoreUnusable

WORKFLOW = "konstruct_local_run"
STEP = "konstruct_unit"
T = TypeVar("T")

_units: dict[str, Callable[[], Awaitable[dict[str, str]]]] = {}  # workflow id -> the unit its step runs now
_runs: dict[str, Callable[[], Awaitable[Finished]]] = {}  # workflow id -> the orchestrator's run
_finished: dict[str, Finished] = {}
_lock = threading.Lock()
_open: dict[str, Any] = {"url": None, "users": 0}


@DBOS.step(name=STEP)
async def _unit(workflow: str, unit: str) -> dict[str, str]:
    return {"unit": unit, **await _units.pop(workflow)()}


@DBOS.workflow(name=WORKFLOW)
async def _run(run_id: str) -> dict[str, str]:
    workflow = DBOS.workflow_id or run_id
    finished = await _runs.pop(workflow)()
    _finished[workflow] = finished
    return {"run": run_id, "reason": finished.reason, "message": finished.message[:2000]}


def _quick_engine_commits() -> None:
    """The engine's connections to a run store commit without waiting for the disk (WAL,
    synchronous=NORMAL: safe against a crash of the process, not a power cut). The store's own
    facts keep waiting for it (synchronous=FULL), and a resume goes on from them, never from the
    engine's record; a step's record costs a few ms this way, not a disk flush or two."""
    import sqlalchemy as sa

    if _open.get("listening"):
        return

    def connected(connection: Any, _record: Any) -> None:
        if not isinstance(connection, sqlite3.Connection) or not _open["url"]:
            return
        files = {row[2] for row in connection.execute("PRAGMA database_list")}
        if str(Path(_open["url"][len("sqlite:///"):]).resolve()) in {str(Path(f).resolve()) for f in files if f}:
            connection.execute("PRAGMA synchronous=NORMAL")

    sa.event.listen(sa.engine.Engine, "connect", connected)
    _open["listening"] = True


class EngineSteps:
    """The orchestrator's `RunOptions.steps` for one workflow: each unit is a step of it."""

    def __init__(self, run_id: str, workflow: str, store_path: Path) -> None:
        self.run_id, self.workflow, self.store_path = run_id, workflow, store_path

    async def run(self, unit: str, body: Callable[[], Awaitable[T]]) -> T:
        box: dict[str, Any] = {}

        async def call() -> dict[str, str]:
            # The unit's own exception (a stalled phase, a failed model) goes back to the
            # orchestrator as it was raised; DBOS records only that the unit raised it.
            try:
                box["value"] = await body()
            except Exception as error:  # noqa: BLE001 - re-raised below, unchanged
                box["error"] = error
                return {"raised": type(error).__name__}
            return {}

        if self.workflow in _units:
            raise RuntimeError(f"run {self.run_id}: unit {unit!r} started while another unit of the run is running")
        _units[self.workflow] = call
        try:
            await _unit(self.workflow, unit)
        except Exception as error:  # noqa: BLE001 - the engine's own write failed (the unit's errors are in `box`)
            raise Outcome("error", f"unit {unit} of run {self.run_id}: {self._problem(error)}") from None
        finally:
            _units.pop(self.workflow, None)
        if "error" in box:
            raise box["error"]
        return box["value"]

    async def drive(self, run: Callable[[], Awaitable[Finished]]) -> Finished:
        """The run, `run()` being the orchestrator's, as this workflow."""
        _runs[self.workflow] = run
        try:
            with SetWorkflowID(self.workflow):
                await _run(self.run_id)
        except Exception as error:  # noqa: BLE001 - the orchestrator returns its ending: this is the engine's
            if self.workflow not in _finished:
                raise StoreUnusable(f"run {self.run_id}: {self._problem(error)}") from None
            # The run ended and the run store has every fact of it; only the engine's record of the end is missing.
        finally:
            _runs.pop(self.workflow, None)
        if self.workflow not in _finished:  # DBOS handed back a result it had recorded: nothing ran
            raise StoreUnusable(f"run {self.run_id}: the durable engine already holds a finished workflow {self.workflow} in the blueprint "
                                f"run store {self.store_path}, so nothing ran; `konstruct blueprint resume {self.run_id}` starts the next one")
        return _finished.pop(self.workflow)

    def _problem(self, error: Exception) -> str:
        first = (str(error).splitlines() or [type(error).__name__])[0][:300]
        return (f"the durable engine (DBOS) could not record it in the blueprint run store {self.store_path}: {first}; "
                f"`konstruct blueprint resume {self.run_id}` goes on from what the store recorded, or move the file aside to start afresh")


class LocalEngine:
    """DBOS on the run store's file, for the runs this process drives: launched on enter and
    destroyed when the last run using it ends (a workbench may drive more than one run)."""

    def __init__(self, store_path: Path) -> None:
        self.store_path = store_path
        self.url = f"sqlite:///{store_path}"

    def __enter__(self) -> LocalEngine:
        with _lock:
            if _open["users"] and _open["url"] != self.url:
                raise StoreUnusable(f"this process already drives a run from the blueprint run store {_open['url'][10:]}; "
                                    "start the other run from a process of its own")
            if not _open["users"]:
                self._launch()
            _open["users"] += 1
        return self

    def __exit__(self, *exc: object) -> None:
        with _lock:
            _open["users"] -= 1
            if not _open["users"]:
                DBOS.destroy(workflow_completion_timeout_sec=0)
                _open["url"] = None

    def _launch(self) -> None:
        _quick_engine_commits()
        # DBOS's console handler keeps the stderr of the first DBOS in the process; a later one (a
        # second run in the workbench, a test) logs to the stderr in place now.
        for handler in logging.getLogger("dbos").handlers:
            if isinstance(handler, logging.StreamHandler) and handler.name == "__dbos_console_log_handler__":
                handler.stream = sys.stderr  # not setStream: it flushes the old one, which may be closed
        _open["url"] = self.url
        try:
            DBOS(config={"name": "konstruct-local", "system_database_url": self.url, "executor_id": f"local-{os.getpid()}-{uuid.uuid4().hex[:8]}",
                         # DBOS's own log would print tracebacks: every failure of the engine's is one line of ours
                         "log_level": "CRITICAL", "console_log_level": "CRITICAL",
                         # how often DBOS's listener wakes to look for messages: also how long its
                         # shutdown waits for that thread at the end of every run (it sleeps, uninterruptibly).
                         # It reads the database only while something waits for a message, and a local
                         # run never does, so a short sleep costs a wake-up, not a query.
                         "notification_listener_polling_interval_sec": 0.02})
            DBOS.launch()
        except Exception as error:  # noqa: BLE001 - the engine cannot use the store's file: one line, nothing run
            _open["url"] = None
            try:
                DBOS.destroy(workflow_completion_timeout_sec=0)
            except Exception:  # noqa: BLE001, S110 - never got far enough to have anything to stop
                pass
            first = (str(error).splitlines() or [type(error).__name__])[0]
            raise StoreUnusable(f"the blueprint run store {self.store_path}: the durable engine (DBOS) cannot use it: {first}; "
                                "move the file aside to start afresh") from None

    def steps(self, run_id: str, *, new: bool = False) -> EngineSteps:
        """The run's next workflow: the run id itself the first time (`new`: a run just recorded,
        which has none yet), then `RUN~N`; a cut-off earlier workflow of the run (its process
        killed) is cancelled, so none stays pending."""
        if new:
            return EngineSteps(run_id, run_id, self.store_path)
        try:
            earlier = [w for w in DBOS.list_workflows(workflow_id_prefix=run_id, load_input=False, load_output=False)
                       if w.workflow_id == run_id or (w.workflow_id.startswith(f"{run_id}~") and w.workflow_id[len(run_id) + 1:].isdigit())]
            for workflow in earlier:
                if workflow.status in ("PENDING", "ENQUEUED"):
                    DBOS.cancel_workflow(workflow.workflow_id)
        except Exception as error:  # noqa: BLE001 - its tables unreadable: one line, nothing run
            first = (str(error).splitlines() or [type(error).__name__])[0][:300]
            raise StoreUnusable(f"the blueprint run store {self.store_path}: the durable engine (DBOS) cannot read its runs: {first}; "
                                "move the file aside to start afresh") from None
        # Past the highest one there is, not the count: a workflow deleted from the engine's tables
        # (`dbos workflow` garbage collection, a hand) must not make a resume reuse a later one's id,
        # whose recorded result DBOS would hand back without running anything.
        return EngineSteps(run_id, workflow_id(run_id, max((continuation_of(w.workflow_id) + 1 for w in earlier), default=0)),
                           self.store_path)
