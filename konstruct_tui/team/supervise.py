"""Supervising team runs from any process: what `konstruct blueprint stop|resume`, `konstruct
approvals grant|deny` and the workbench's runs and approvals screens do to a run in the team
database, in one place so the commands and the screens cannot drift apart.

Nothing here signals a process: a stop is a flag in the run's row (the worker driving it reads it
and throws its kill switch) and a resume or an answer sends the run back to the queue. A run's
phases, verdicts, ledger and verification output are read from the run store the worker
checkpointed into the database, restored into a throwaway file (`run_store_copy`).
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from ..blueprint import workflow_id
from ..untrusted_text import neutralise
from .database import DatabaseProblem, DatabaseTarget
from .records import TeamDatabase

if TYPE_CHECKING:  # the reading side (the workbench) loads the app layer; stop, resume and answer never do
    from ..app import RunRow, RunView
    from ..blueprint import RunStore

# As `konstruct blueprint resume` resumes a team run (app's TEAM_RESUMABLE says the same for a row).
TEAM_RESUMABLE = ("stopped", "stalled", "parked")

_STOPPABLE = ("queued", "waiting_approval", "stalled", "parked")


class TeamRefused(DatabaseProblem):
    """The run cannot do what was asked in the state it is in (one line; the CLI exits 2)."""


@contextmanager
def run_store_copy(db: TeamDatabase, run_id: str) -> Iterator[RunStore | None]:
    """The run's checkpointed run store as a file of its own, thrown away afterwards; None before
    its first step finished. A damaged image is a DatabaseProblem naming the run."""
    from ..blueprint import RunStore, StoreDamaged, StoreUnusable

    data = db.store(run_id)
    if data is None:
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="konstruct-team-") as folder:
        path = Path(folder) / "runs.sqlite3"
        path.write_bytes(data)
        try:
            store = RunStore(path)  # our own copy: opening it for writing changes nothing anyone sees
        except (StoreDamaged, StoreUnusable) as problem:
            raise DatabaseProblem(f"the run store of team run {run_id} in {db.target.shown} cannot be read "
                                  f"({str(problem).split(':')[-1].strip()}): `konstruct blueprint status {run_id}` shows the rest") from None
        try:
            yield store
        finally:
            store.close()


def stop_team_run(db: TeamDatabase, run_id: str) -> dict[str, Any]:
    """Stop a run wherever it is: one not on a worker stops now, one on a worker at its next look
    (`stopping`). Returns `{"run", "status"}` as `konstruct blueprint stop` prints it."""
    from .engine import cancel

    run = _run(db, run_id)
    if run["status"] in ("done", "stopped"):
        return {"run": run["run_id"], "status": run["status"]}
    db.update_run(run["run_id"], stop_requested=1)
    stopped = db.update_run(run["run_id"], when_status=_STOPPABLE, status="stopped", reason="stopped", message="stopped by " + db.role())
    if stopped:
        cancel(db.target, workflow_ids(run))
    db.add_audit(run["run_id"], "stop_requested", db.role(), {})
    return {"run": run["run_id"], "status": "stopped" if stopped else "stopping"}


def resume_team_run(db: TeamDatabase, run_id: str) -> dict[str, Any]:
    """Send a stopped, stalled or parked run back to the queue (any worker takes it up from its
    last checkpoint). TeamRefused says why not."""
    from .engine import enqueue_queued

    run = _run(db, run_id)
    if run["status"] == "done":
        raise TeamRefused(f"run {run['run_id']} is done; nothing to resume")
    if run["status"] == "waiting_approval":
        raise TeamRefused(f"run {run['run_id']} waits for an answer: `konstruct approvals list {run['run_id']}`")
    number = db.requeue(run["run_id"], TEAM_RESUMABLE)
    if number is None:
        raise TeamRefused(f"run {run['run_id']} is {run['status']}; only a stopped, stalled or parked run resumes")
    note = enqueue_queued(db.target, run["run_id"], number)
    db.add_audit(run["run_id"], "resumed", db.role(), {})
    return {"run": run["run_id"], "status": "queued", **({"note": note} if note else {})}


def answer_approval(db: TeamDatabase, run_id: str, request_id: str, verdict: str, scope: str, message: str | None = None) -> dict[str, Any]:
    """Grant (`granted`) or deny (`denied`) a parked request, final; the audit records who (database
    role and OS user) and when, and a deny's message, which the executor gets as the call's result.
    Once no request of the run is pending, the run goes back to the queue. Returns what `konstruct
    approvals grant|deny` prints."""
    from .engine import enqueue_queued

    if verdict not in ("granted", "denied") or scope not in ("once", "run"):
        raise TeamRefused(f"an answer is granted or denied, with scope once or run (not {verdict!r}, {scope!r})")
    _run(db, run_id)
    who = db.answer(run_id, request_id, verdict, scope, (message or "") if verdict == "denied" else "")
    number, note = None, None
    if all(a["status"] != "pending" for a in db.approvals(run_id)):
        number = db.requeue(run_id, ("waiting_approval",))
        if number is not None:
            note = enqueue_queued(db.target, run_id, number)
    return {"run": run_id, "request": request_id, "answer": verdict, "scope": scope, "by": who,
            "status": "queued" if number is not None else (db.run(run_id) or {}).get("status"), **({"note": note} if note else {})}


def workflow_ids(run: dict[str, Any]) -> list[str]:
    """Every DBOS workflow a run was given: the first, and one per continuation since."""
    return [workflow_id(run["run_id"], n) for n in range(run["continuation"] + 1)]


def _run(db: TeamDatabase, run_id: str) -> dict[str, Any]:
    run = db.run(run_id)
    if run is None:
        raise TeamRefused(f"no team run {run_id!r} in {db.target.shown} (see `konstruct blueprint status --database URL`)")
    return run


class TeamWatch:
    """One workbench's window on the team database: opened on first use, kept between looks (a
    poll reuses its connections), reopened after a problem. Every method raises DatabaseProblem
    (one line, any password redacted) for a database that cannot be reached or read."""

    def __init__(self, url: str) -> None:
        self.target = DatabaseTarget.choose(url)
        self.db: TeamDatabase | None = None
        self._seen: dict[str, tuple[float, str, int]] = {}  # run -> (row's updated, phase, attempt) read from its store
        self._lock = threading.Lock()  # the screens poll from worker threads: one look at a time

    @property
    def shown(self) -> str:
        return self.target.shown

    def rows(self) -> list[RunRow]:
        """Every team run, newest first, as the runs list shows a local one."""
        return self._guard(lambda db: [self._row(db, run) for run in db.runs()])

    def view(self, run_id: str) -> RunView | None:
        """One run in full, from the run store its worker checkpointed (phases and verdicts as of its
        last completed step; its row, phase and last output as of now)."""
        from ..app import RunView, read_run

        def read(db: TeamDatabase) -> RunView | None:
            run = db.run(run_id)
            if run is None:
                return None
            with run_store_copy(db, run_id) as store:
                local = read_run(store, run_id) if store is not None else None
            row = self._row(db, run, local)
            if local is None:
                return RunView(row, run["source"], (), (), ())
            return RunView(row, local.source, local.phases, local.ledger, local.defects, local.verifications)
        return self._guard(read)

    def report(self, run_id: str) -> str:
        """The run's report (Markdown) and the team's audit of it, as `konstruct blueprint report`."""
        from ..app import report_markdown

        def read(db: TeamDatabase) -> str:
            run = _run(db, run_id)
            with run_store_copy(db, run_id) as store:
                text = (report_markdown(store, run_id) if store is not None
                        else f"# {run['title']}\n\nRun {run_id} is {run['status']}: no step has finished yet.\n")
            return text + audit_markdown(db.audit(run_id))
        return self._guard(read)

    def pending(self, run_id: str | None = None) -> list[dict[str, Any]]:
        """Requests waiting for an answer (oldest first): run, request id, what a trust prompt shows."""
        return self._guard(lambda db: [a for a in db.approvals(run_id) if a["status"] == "pending"])

    def stop(self, run_id: str) -> dict[str, Any]:
        return self._guard(lambda db: stop_team_run(db, run_id))

    def resume(self, run_id: str) -> dict[str, Any]:
        return self._guard(lambda db: resume_team_run(db, run_id))

    def answer(self, run_id: str, request_id: str, verdict: str, scope: str, message: str | None = None) -> dict[str, Any]:
        return self._guard(lambda db: answer_approval(db, run_id, request_id, verdict, scope, message))

    def close(self) -> None:
        db, self.db = self.db, None
        if db is not None:
            db.close()

    def _drop(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    def _guard(self, action: Any) -> Any:
        with self._lock:
            return self._attempt(action)

    def _attempt(self, action: Any) -> Any:
        try:
            if self.db is None:
                self.db = TeamDatabase.open(self.target, create=False)
            return action(self.db)
        except DatabaseProblem:
            raise
        except sa.exc.SQLAlchemyError as error:  # damaged underneath us (a query the open did not make)
            self._drop()
            first = (str(getattr(error, "orig", None) or error).splitlines() or [type(error).__name__])[0]
            raise DatabaseProblem(f"database {self.target.shown} cannot be read: {neutralise(first, keep_layout=False)}"[:300]) from None
        except (OSError, ValueError, RuntimeError) as error:  # the queue's client (DBOS) or a full disk: one line on the screen
            first = (str(error).splitlines() or [type(error).__name__])[0]
            raise DatabaseProblem(f"database {self.target.shown}: {type(error).__name__}: {neutralise(first, keep_layout=False)}"[:300]) from None

    def _row(self, db: TeamDatabase, run: dict[str, Any], local: RunView | None = None) -> RunRow:
        from ..app import RunRow, read_run

        phase, attempt = run["phase"] or "-", 0
        seen = self._seen.get(run["run_id"])
        if local is not None:
            phase, attempt = run["phase"] or local.row.phase, local.row.attempt
        elif seen is not None and seen[0] == run["updated"]:
            phase, attempt = seen[1], seen[2]
        elif run["status"] != "queued" or run["continuation"]:
            try:
                with run_store_copy(db, run["run_id"]) as store:
                    found = read_run(store, run["run_id"]) if store is not None else None
            except DatabaseProblem:
                found = None  # one damaged run store leaves its row without an attempt, the list still shows
            if found is not None:
                phase, attempt = run["phase"] or found.row.phase, found.row.attempt
        self._seen[run["run_id"]] = (run["updated"], phase, attempt)
        worker = f"team {run['worker']}" if run["worker"] else "team"
        return RunRow(run["run_id"], run["title"], run["status"], phase, attempt, worker, run["created"], run["updated"], run["repo"],
                      run["reason"], run["message"], None, team=self.shown)


def audit_markdown(entries: list[dict[str, Any]]) -> str:
    """The "Team audit" section of a run's report: one line an entry, whoever wrote its words (a
    request's command is the executor's, a deny's message a person's): a line break or a control
    in them shows as a visible escape, so no entry can draw another's line."""
    lines = ["", "## Team audit", ""]
    for entry in entries:
        detail = ", ".join(f"{k}: {v}" for k, v in entry["detail"].items() if k not in ("diffs", "notes"))
        lines.append(neutralise(f"- {_when(entry['at'])} {entry['kind']} by {entry['actor']}" + (f" ({detail})" if detail else ""), keep_layout=False))
    return "\n".join(lines) + "\n"


def _when(at: float) -> str:
    import time

    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(at))
