"""Our tables in the team database, beside the DBOS system tables (one URL): the runs a team
submitted, each run's store (today's run store, checkpointed after every step), the approvals a
parked run waits on, each phase close (once: the primary key says so), the audit of who answered
what, and the workers' heartbeats.

The schema carries a version in `meta`; a database at another version, or one holding other
tables and none of ours, is refused (`TeamDatabase.open`), never written to.
"""

from __future__ import annotations

import getpass
import json
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa

from .database import SCHEMA, DatabaseProblem, DatabaseTarget, scrub

VERSION = "1"
# DBOS's own tables when it keeps them in the same SQLite file (PostgreSQL: its `dbos` schema).
DBOS_TABLES = frozenset({"application_versions", "dbos_migrations", "notifications", "operation_outputs", "queues", "streams",
                         "workflow_events", "workflow_events_history", "workflow_input", "workflow_output", "workflow_schedules",
                         "workflow_status"})
meta = sa.MetaData(schema=SCHEMA)

runs = sa.Table(
    "konstruct_runs", meta,
    sa.Column("run_id", sa.String, primary_key=True),
    sa.Column("title", sa.String, nullable=False),
    sa.Column("source", sa.String, nullable=False),
    sa.Column("blueprint", sa.Text, nullable=False),
    sa.Column("repo", sa.String, nullable=False),
    sa.Column("ref", sa.String),
    sa.Column("base", sa.String, nullable=False),  # the commit the run starts from, resolved at submit
    sa.Column("model", sa.Text, nullable=False),  # JSON: provider, model, base_url, script (never a key)
    sa.Column("options", sa.Text, nullable=False),  # JSON: retries, turns, grants given up front, ...
    sa.Column("approval_timeout", sa.Float),
    sa.Column("status", sa.String, nullable=False),
    sa.Column("reason", sa.String),
    sa.Column("message", sa.Text),
    sa.Column("phase", sa.String),
    sa.Column("worker", sa.String),
    sa.Column("last_output", sa.Text),
    sa.Column("checkpoint", sa.String),  # the commit of the work tree at the last completed step
    sa.Column("branch", sa.String),
    sa.Column("continuation", sa.Integer, nullable=False, default=0),
    sa.Column("stop_requested", sa.Integer, nullable=False, default=0),
    sa.Column("parked_at", sa.Float),
    sa.Column("submitted_by", sa.String, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)
stores = sa.Table(
    "konstruct_stores", meta,
    sa.Column("run_id", sa.String, primary_key=True),
    sa.Column("data", sa.LargeBinary, nullable=False),  # the run's SQLite run store, serialized, zlib-compressed (pack/unpack)
    sa.Column("updated", sa.Float, nullable=False),
)
approvals = sa.Table(
    "konstruct_approvals", meta,
    sa.Column("run_id", sa.String, primary_key=True),
    sa.Column("request_id", sa.String, primary_key=True),
    sa.Column("request", sa.Text, nullable=False),  # JSON: what a trust prompt shows
    sa.Column("status", sa.String, nullable=False),  # pending | granted | denied
    sa.Column("scope", sa.String),
    sa.Column("asked_at", sa.Float, nullable=False),
    sa.Column("answered_role", sa.String),
    sa.Column("answered_user", sa.String),
    sa.Column("answered_at", sa.Float),
)
closures = sa.Table(
    "konstruct_closures", meta,
    sa.Column("run_id", sa.String, primary_key=True),
    sa.Column("phase_id", sa.String, primary_key=True),
    sa.Column("verdict", sa.String),
    sa.Column("worker", sa.String, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
audit = sa.Table(
    "konstruct_audit", meta,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("run_id", sa.String, nullable=False, index=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("kind", sa.String, nullable=False),
    sa.Column("actor", sa.String, nullable=False),  # database role and OS user, or the worker
    sa.Column("detail", sa.Text, nullable=False),
)
workers = sa.Table(
    "konstruct_workers", meta,
    sa.Column("executor_id", sa.String, primary_key=True),
    sa.Column("host", sa.String, nullable=False),
    sa.Column("pid", sa.Integer, nullable=False),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("heartbeat", sa.Float, nullable=False),
    sa.Column("state", sa.String, nullable=False),  # alive | stopped | dead (recovered by a sweep)
)
info = sa.Table("konstruct_meta", meta, sa.Column("key", sa.String, primary_key=True), sa.Column("value", sa.String, nullable=False))


class Superseded(Exception):
    """The step belongs to a continuation of the run that a later one replaced."""


class TeamDatabase:
    def __init__(self, target: DatabaseTarget, engine: Any) -> None:
        self.target = target
        self.engine = engine

    @classmethod
    def open(cls, target: DatabaseTarget, *, create: bool) -> TeamDatabase:
        """Connect and check the schema; `create`: make our tables in a database that has none of
        anybody's (submit, worker). Reading commands never create."""
        engine = target.engine()
        try:
            with engine.connect() as connection:
                inspector = sa.inspect(connection)
                schema = None if target.is_sqlite else SCHEMA
                ours = set(inspector.get_table_names(schema=schema))
                if "konstruct_meta" in ours:
                    version = connection.execute(sa.select(info.c.value).where(info.c.key == "schema_version")).scalar()
                    if version != VERSION:
                        raise DatabaseProblem(f"database {target.shown} holds konstruct runs at schema version {version!r}; "
                                              f"this konstruct reads version {VERSION}: use the konstruct that made it")
                    return cls(target, engine)
                foreign = _foreign_tables(inspector, target)
        except DatabaseProblem:
            engine.dispose()
            raise
        except sa.exc.SQLAlchemyError as error:
            engine.dispose()
            raise DatabaseProblem(f"database {target.shown} cannot be used: {scrub(_first_line(error), target.url)}") from None
        if foreign:
            engine.dispose()
            raise DatabaseProblem(f"database {target.shown} is not a konstruct team database (it holds {', '.join(sorted(foreign)[:3])}); "
                                  "give an empty database or one konstruct made")
        if not create:
            engine.dispose()
            raise DatabaseProblem(f"database {target.shown} has no konstruct runs yet (`konstruct blueprint submit` starts one)")
        try:
            with engine.begin() as connection:
                if not target.is_sqlite:
                    connection.execute(sa.text(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}"))
                meta.create_all(connection)
                connection.execute(info.insert().values(key="schema_version", value=VERSION))
        except sa.exc.IntegrityError:
            pass  # another process made them first
        except sa.exc.SQLAlchemyError as error:
            engine.dispose()
            raise DatabaseProblem(f"database {target.shown}: cannot create konstruct's tables: {scrub(_first_line(error), target.url)}") from None
        return cls(target, engine)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def transaction(self, *, flushed_later: bool = False) -> Iterator[Any]:
        """One transaction. `flushed_later` (PostgreSQL): commit without waiting for the write-ahead
        log to reach the disk (`synchronous_commit` off; a disk flush is most of a small commit's
        time). Only for writes a durable commit always follows before anything rests on them: a
        step's start and end (DBOS records the step's result next), progress and heartbeats. The
        log is flushed in order, so once DBOS's record is on disk so is this; a server crash before
        it loses both, and the step runs again from the checkpoint before, as after a worker killed
        just before its last write."""
        try:
            with self.engine.begin() as connection:
                if flushed_later and not self.target.is_sqlite:
                    connection.execute(sa.text("SET LOCAL synchronous_commit TO OFF"))
                yield connection
        except sa.exc.ProgrammingError as error:  # PostgreSQL: permission denied (a watcher role)
            raise DatabaseProblem(f"database {self.target.shown}: {scrub(_first_line(error), self.target.url)}") from None
        except sa.exc.OperationalError as error:
            raise DatabaseProblem(f"database {self.target.shown} cannot be used: {scrub(_first_line(error), self.target.url)}") from None

    def role(self) -> str:
        """Who this connection is, for the audit: the database role (PostgreSQL) and the OS user."""
        role = "sqlite"
        if not self.target.is_sqlite:
            with self.transaction() as connection:
                role = str(connection.execute(sa.text("SELECT current_user")).scalar())
        return f"{role} ({_os_user()})"

    # Runs.

    def add_run(self, values: dict[str, Any]) -> None:
        now = time.time()
        with self.transaction() as connection:
            connection.execute(runs.insert().values(**values, created=now, updated=now, submitted_by=_os_user()))
            _audit(connection, values["run_id"], "submitted", f"{_os_user()}", {"repo": values["repo"], "base": values["base"]})

    def run(self, run_id: str) -> dict[str, Any] | None:
        with self.transaction() as connection:
            row = connection.execute(sa.select(runs).where(runs.c.run_id == run_id)).mappings().first()
        return dict(row) if row else None

    def runs(self) -> list[dict[str, Any]]:
        with self.transaction() as connection:
            return [dict(r) for r in connection.execute(sa.select(runs).order_by(runs.c.created.desc())).mappings()]

    def waiting(self) -> list[dict[str, Any]]:
        """Runs parked for an answer: id, when, and how long they may wait."""
        query = sa.select(runs.c.run_id, runs.c.parked_at, runs.c.approval_timeout).where(runs.c.status == "waiting_approval")
        with self.transaction() as connection:
            return [dict(r) for r in connection.execute(query).mappings()]

    def queued(self, quiet_s: float) -> list[dict[str, Any]]:
        """Runs queued and unchanged for `quiet_s`: id and continuation."""
        query = sa.select(runs.c.run_id, runs.c.continuation).where(runs.c.status == "queued", runs.c.updated < time.time() - quiet_s)
        with self.transaction() as connection:
            return [dict(r) for r in connection.execute(query).mappings()]

    def update_run(self, run_id: str, *, when_status: tuple[str, ...] | None = None, **values: Any) -> bool:
        """Change a run's row; with `when_status`, only from one of those statuses (True when it did)."""
        statement = runs.update().where(runs.c.run_id == run_id)
        if when_status is not None:
            statement = statement.where(runs.c.status.in_(when_status))
        with self.transaction() as connection:
            return bool(connection.execute(statement.values(**values, updated=time.time())).rowcount)

    def requeue(self, run_id: str, from_statuses: tuple[str, ...], *, clear_stop: bool = True) -> int | None:
        """Send a run back to the queue (status `queued`, a new continuation number) if it is in one
        of `from_statuses`; the number, or None when another process did it or it is elsewhere.
        `clear_stop`: a person's resume or answer; a worker handing a run over keeps a stop asked for."""
        values: dict[str, Any] = {"status": "queued", "worker": None, "continuation": runs.c.continuation + 1, "updated": time.time()}
        if clear_stop:
            values["stop_requested"] = 0
        with self.transaction() as connection:
            done = connection.execute(runs.update().where(runs.c.run_id == run_id, runs.c.status.in_(from_statuses)).values(**values)).rowcount
            if not done:
                return None
            return int(connection.execute(sa.select(runs.c.continuation).where(runs.c.run_id == run_id)).scalar_one())

    def put_store(self, run_id: str, data: bytes) -> None:
        packed = pack(data)
        with self.transaction() as connection:
            if connection.execute(stores.update().where(stores.c.run_id == run_id).values(data=packed, updated=time.time())).rowcount == 0:
                connection.execute(stores.insert().values(run_id=run_id, data=packed, updated=time.time()))

    def store(self, run_id: str) -> bytes | None:
        """The run's store as a SQLite database file's bytes (write them to a file and open it), or
        None before its first step."""
        with self.transaction() as connection:
            return unpack(connection.execute(sa.select(stores.c.data).where(stores.c.run_id == run_id)).scalar(), run_id)

    def begin_step(self, run_id: str, worker: str, continuation: int | None = None) -> tuple[dict[str, Any], bytes | None, list[dict[str, Any]]] | None:
        """What a step starts from, read in one transaction: the run's row (marked running on this
        worker, or stopped when a stop was asked for before the step), its store image, and the
        answers people gave. A run another worker was driving (it died) says so in its audit
        (`taken_over`). None when the run is not in the database; Superseded (nothing written)
        when the run has gone on as a later continuation than the caller's: a run is driven by
        its latest workflow only, whatever an older one recovered somewhere tries."""
        now = time.time()
        with self.transaction(flushed_later=True) as connection:
            row = connection.execute(sa.select(runs).where(runs.c.run_id == run_id)).mappings().first()
            if row is None:
                return None
            if continuation is not None and row["continuation"] != continuation:
                raise Superseded(f"run {run_id} has gone on as continuation {row['continuation']}; this is continuation {continuation}")
            if row["stop_requested"]:
                values = {"status": "stopped", "reason": "stopped", "message": "stopped before this step", "worker": None}
            else:
                values = {"status": "running", "worker": worker, "parked_at": None}
            connection.execute(runs.update().where(runs.c.run_id == run_id).values(**values, updated=now))
            if row["status"] == "running" and row["worker"] and row["worker"] != worker:  # its worker died mid-run
                _audit(connection, run_id, "taken_over", worker, {"from_worker": row["worker"], "phase": row["phase"], "checkpoint": row["checkpoint"]})
            data = unpack(connection.execute(sa.select(stores.c.data).where(stores.c.run_id == run_id)).scalar(), run_id)
            asked = connection.execute(sa.select(approvals).where(approvals.c.run_id == run_id).order_by(approvals.c.asked_at)).mappings()
            answers = [{**dict(r), "request": json.loads(r["request"])} for r in asked]
            if any(a["status"] == "denied" for a in answers):  # a deny's message is kept with it in the audit
                messages = _deny_messages(connection, run_id)
                answers = [{**a, "message": messages.get(a["request_id"], "")} for a in answers]
        return {**dict(row), **values}, data, answers

    def progress(self, run_id: str, **values: Any) -> bool:
        """The run's phase and last output, written; True when a stop was asked for (one transaction)."""
        with self.transaction(flushed_later=True) as connection:
            connection.execute(runs.update().where(runs.c.run_id == run_id).values(**values, updated=time.time()))
            return bool(connection.execute(sa.select(runs.c.stop_requested).where(runs.c.run_id == run_id)).scalar())

    def stop_requested(self, run_id: str) -> bool:
        with self.transaction() as connection:
            return bool(connection.execute(sa.select(runs.c.stop_requested).where(runs.c.run_id == run_id)).scalar())

    def record_step(self, run_id: str, data: bytes | None, closed: list[tuple[str, str]], by: str, *,
                    audit_detail: dict[str, Any] | None = None, **values: Any) -> list[str]:
        """What one step of a run left, in one transaction: its run store (None: unchanged, not
        written again), the phases it closed (a phase already recorded closed is not closed again:
        returned are the ones new here), the run's row (status, checkpoint, ...) and the step's own
        audit entry."""
        now = time.time()
        new: list[tuple[str, str]] = []
        packed = None if data is None else pack(data)
        with self.transaction(flushed_later=True) as connection:
            if packed is not None and connection.execute(stores.update().where(stores.c.run_id == run_id).values(data=packed, updated=now)).rowcount == 0:
                connection.execute(stores.insert().values(run_id=run_id, data=packed, updated=now))
            entries = []
            if closed:
                known = set(connection.execute(sa.select(closures.c.phase_id).where(closures.c.run_id == run_id)).scalars())
                new = [(phase_id, verdict) for phase_id, verdict in closed if phase_id not in known]
                if new:
                    connection.execute(closures.insert(), [{"run_id": run_id, "phase_id": p, "verdict": v, "worker": by, "at": now} for p, v in new])
                    entries = [("phase_closed", {"phase": p, "verdict": v}) for p, v in new]
            connection.execute(runs.update().where(runs.c.run_id == run_id).values(**values, updated=now))
            if audit_detail is not None:
                entries.append(("step", audit_detail))
            if entries:  # one statement for all of them
                connection.execute(audit.insert(), [{"run_id": run_id, "at": now, "kind": kind, "actor": by, "detail": json.dumps(detail)}
                                                    for kind, detail in entries])
        return [phase_id for phase_id, _ in new]

    # Phase closes: once each, whatever a recovered step does again.

    def close_phase(self, run_id: str, phase_id: str, verdict: str, worker: str) -> bool:
        try:
            with self.transaction() as connection:
                connection.execute(closures.insert().values(run_id=run_id, phase_id=phase_id, verdict=verdict, worker=worker, at=time.time()))
                _audit(connection, run_id, "phase_closed", worker, {"phase": phase_id, "verdict": verdict})
            return True
        except sa.exc.IntegrityError:
            return False

    def closures(self, run_id: str) -> list[dict[str, Any]]:
        with self.transaction() as connection:
            return [dict(r) for r in connection.execute(sa.select(closures).where(closures.c.run_id == run_id).order_by(closures.c.at)).mappings()]

    # Approvals.

    def ask(self, run_id: str, request_id: str, request: dict[str, Any], worker: str) -> None:
        with self.transaction() as connection:
            exists = connection.execute(sa.select(approvals.c.status).where(approvals.c.run_id == run_id, approvals.c.request_id == request_id)).scalar()
            if exists is None:
                connection.execute(approvals.insert().values(run_id=run_id, request_id=request_id, request=json.dumps(request), status="pending", asked_at=time.time()))
                _audit(connection, run_id, "approval_requested", worker, {"request": request_id, **request})

    def approvals(self, run_id: str | None = None) -> list[dict[str, Any]]:
        query = sa.select(approvals).order_by(approvals.c.asked_at)
        if run_id is not None:
            query = query.where(approvals.c.run_id == run_id)
        with self.transaction() as connection:
            return [{**dict(r), "request": json.loads(r["request"])} for r in connection.execute(query).mappings()]

    def answer(self, run_id: str, request_id: str, status: str, scope: str, message: str = "") -> str:
        """Record a grant or deny (with the denier's message, for the executor) of a pending request,
        in one transaction. Returns who answered; raises DatabaseProblem when it is not pending."""
        who = self.role()
        now = time.time()
        with self.transaction() as connection:
            current = connection.execute(sa.select(approvals.c.status).where(approvals.c.run_id == run_id, approvals.c.request_id == request_id)).scalar()
            if current is None:
                raise DatabaseProblem(f"run {run_id} has no approval request {request_id!r} (see `konstruct approvals list`)")
            if current != "pending":
                raise DatabaseProblem(f"request {request_id} of run {run_id} was already answered: {current} (an answer is final)")
            role, _, user = who.partition(" (")
            connection.execute(approvals.update().where(approvals.c.run_id == run_id, approvals.c.request_id == request_id, approvals.c.status == "pending")
                               .values(status=status, scope=scope, answered_role=role, answered_user=user.rstrip(")"), answered_at=now))
            detail = {"request": request_id, "scope": scope, **({"message": message[:2000]} if message else {})}
            _audit(connection, run_id, "approval_" + status, who, detail)
        return who

    # Audit and workers.

    def add_audit(self, run_id: str, kind: str, actor: str, detail: dict[str, Any]) -> None:
        with self.transaction() as connection:
            _audit(connection, run_id, kind, actor, detail)

    def audit(self, run_id: str) -> list[dict[str, Any]]:
        with self.transaction() as connection:
            rows = connection.execute(sa.select(audit).where(audit.c.run_id == run_id).order_by(audit.c.seq)).mappings()
            return [{**dict(r), "detail": json.loads(r["detail"])} for r in rows]

    def beat(self, executor_id: str, host: str, pid: int, state: str = "alive") -> None:
        now = time.time()
        with self.transaction(flushed_later=True) as connection:
            if connection.execute(workers.update().where(workers.c.executor_id == executor_id).values(heartbeat=now, state=state)).rowcount == 0:
                connection.execute(workers.insert().values(executor_id=executor_id, host=host, pid=pid, started=now, heartbeat=now, state=state))

    def abandon(self, executor_id: str) -> None:
        """A worker leaving with runs mid-phase: its heartbeat set to long ago, so the next sweep claims it."""
        with self.transaction() as connection:
            connection.execute(workers.update().where(workers.c.executor_id == executor_id, workers.c.state == "alive").values(heartbeat=0.0))

    def claim_dead_workers(self, silent_s: float) -> list[str]:
        """Workers whose heartbeat stopped `silent_s` ago, each claimed by one sweeper only."""
        cutoff = time.time() - silent_s
        claimed = []
        with self.transaction() as connection:
            stale = connection.execute(sa.select(workers.c.executor_id).where(workers.c.state == "alive", workers.c.heartbeat < cutoff)).scalars().all()
        for executor_id in stale:
            with self.transaction() as connection:
                done = connection.execute(workers.update().where(workers.c.executor_id == executor_id, workers.c.state == "alive")
                                          .values(state="dead")).rowcount
            if done:
                claimed.append(executor_id)
        return claimed

    def workers(self) -> list[dict[str, Any]]:
        with self.transaction() as connection:
            return [dict(r) for r in connection.execute(sa.select(workers).order_by(workers.c.started)).mappings()]


_SQLITE_MAGIC = b"SQLite format 3\x00"


def pack(image: bytes) -> bytes:
    """A run store's image as kept: zlib at its fastest level (a store is mostly empty pages: about a
    twentieth of the bytes to write, in under a millisecond)."""
    return zlib.compress(image, 1)


def unpack(data: bytes | None, run_id: str) -> bytes | None:
    """The image back; one kept as it was (raw SQLite, before compression) is read as it is."""
    if data is None or data.startswith(_SQLITE_MAGIC):
        return data
    try:
        return zlib.decompress(data)
    except zlib.error:
        raise DatabaseProblem(f"run {run_id}'s store in the team database is damaged (not a compressed run store); "
                              "its run cannot be resumed or reported: submit the blueprint again") from None


def _deny_messages(connection: Any, run_id: str) -> dict[str, str]:
    rows = connection.execute(sa.select(audit.c.detail).where(audit.c.run_id == run_id, audit.c.kind == "approval_denied")).scalars()
    found = {}
    for text in rows:
        detail = json.loads(text)
        if detail.get("message"):
            found[str(detail.get("request"))] = str(detail["message"])
    return found


def _first_line(error: Exception) -> str:
    """The driver's own words (SQLAlchemy wraps them with the statement, which may be long)."""
    text = str(getattr(error, "orig", None) or error)
    return (text.splitlines() or [type(error).__name__])[0]


def _audit(connection: Any, run_id: str, kind: str, actor: str, detail: dict[str, Any]) -> None:
    connection.execute(audit.insert().values(run_id=run_id, at=time.time(), kind=kind, actor=actor, detail=json.dumps(detail)))


def _os_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return f"uid {__import__('os').getuid()}"


def _foreign_tables(inspector: Any, target: DatabaseTarget) -> set[str]:
    """Tables that are neither ours nor DBOS's: a database somebody else uses. (PostgreSQL keeps
    ours and DBOS's in schemas of their own, so anything in `public` is somebody else's.)"""
    if target.is_sqlite:
        return {n for n in inspector.get_table_names() if not n.startswith("konstruct_") and n not in DBOS_TABLES}
    return set(inspector.get_table_names(schema="public"))
