"""Run state in SQLite (the user data dir), not in a conversation.

Every fact is written in its own committed transaction the moment it happens (WAL, synchronous=FULL),
so a run killed with SIGKILL at any instant keeps everything recorded before the kill, and a phase
close (gate, ledger entry, defects, audit row, phase status) is one transaction: it happened or it
did not. Resume reads the run back from these rows alone.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..userdirs import (SQLITE_BUSY_CODES, StoreProblem, StoreWaiting, data_dir, held_by, lock_wait_s, private_dir, sqlite_code,
                        sqlite_problem)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, source TEXT NOT NULL, blueprint TEXT NOT NULL,
    root TEXT NOT NULL, model TEXT NOT NULL, status TEXT NOT NULL, reason TEXT, message TEXT,
    created REAL NOT NULL, updated REAL NOT NULL, owner TEXT);
CREATE TABLE IF NOT EXISTS phases (
    run_id TEXT NOT NULL, phase_id TEXT NOT NULL, position INTEGER NOT NULL, status TEXT NOT NULL,
    closed_at REAL, PRIMARY KEY (run_id, phase_id));
CREATE TABLE IF NOT EXISTS attempts (
    run_id TEXT NOT NULL, phase_id TEXT NOT NULL, number INTEGER NOT NULL, nudge TEXT NOT NULL,
    started REAL NOT NULL, PRIMARY KEY (run_id, phase_id, number));
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, run_id TEXT NOT NULL, phase_id TEXT NOT NULL, attempt INTEGER NOT NULL,
    role TEXT NOT NULL, started REAL NOT NULL, ended REAL, reason TEXT, last_activity REAL NOT NULL,
    final_text TEXT NOT NULL DEFAULT '', turns INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0, output_tokens INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS tool_calls (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, run_id TEXT NOT NULL,
    phase_id TEXT NOT NULL, role TEXT NOT NULL, tool TEXT NOT NULL, arguments TEXT NOT NULL,
    ok INTEGER NOT NULL, result TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS verifications (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, phase_id TEXT NOT NULL,
    attempt INTEGER NOT NULL, command TEXT NOT NULL, after_call INTEGER NOT NULL, exit_code INTEGER,
    outcome TEXT NOT NULL, output TEXT NOT NULL, failing TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS gates (
    run_id TEXT NOT NULL, phase_id TEXT NOT NULL, attempt INTEGER NOT NULL, decision TEXT NOT NULL,
    tier TEXT NOT NULL, verdict TEXT, outstanding TEXT NOT NULL, detail TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (run_id, phase_id, attempt));
CREATE TABLE IF NOT EXISTS defects (
    run_id TEXT NOT NULL, phase_id TEXT NOT NULL, text TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS ledger (
    run_id TEXT NOT NULL, phase_id TEXT NOT NULL, summary TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (run_id, phase_id));
CREATE TABLE IF NOT EXISTS report_sections (
    run_id TEXT NOT NULL, key TEXT NOT NULL, position INTEGER NOT NULL, markdown TEXT NOT NULL,
    at REAL NOT NULL, PRIMARY KEY (run_id, key));
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, phase_id TEXT, kind TEXT NOT NULL,
    tier TEXT, verdict TEXT, evidence TEXT NOT NULL, defects TEXT NOT NULL, detail TEXT NOT NULL,
    at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS tool_calls_phase ON tool_calls (run_id, phase_id);
CREATE TABLE IF NOT EXISTS phase_starts (
    run_id TEXT NOT NULL, phase_id TEXT NOT NULL, taken_ns INTEGER NOT NULL, pinned TEXT NOT NULL,
    PRIMARY KEY (run_id, phase_id));
CREATE TABLE IF NOT EXISTS phase_files (
    run_id TEXT NOT NULL, phase_id TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, revision TEXT NOT NULL, content BLOB,
    PRIMARY KEY (run_id, phase_id, path));
CREATE TABLE IF NOT EXISTS changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, phase_id TEXT NOT NULL, path TEXT NOT NULL,
    how TEXT NOT NULL, detail TEXT NOT NULL, at REAL NOT NULL);
"""


SCHEMA_VERSION = 2
_FIX = "check that you can read and write it and its folder, and run the command again"
_MIGRATIONS = {1: "ALTER TABLE runs ADD COLUMN owner TEXT"}  # from version N to N + 1


class StoreUnusable(RuntimeError):
    """The run store was written by a different version of konstruct."""


class StoreDamaged(RuntimeError):
    """The run store (or one run's record in it) cannot be read. `str()` is one line naming the file
    and what to do."""


def default_path() -> Path:
    return data_dir() / "blueprint" / "runs.sqlite3"


@dataclass(frozen=True)
class RunRecord:
    id: str
    title: str
    source: str
    blueprint: str
    root: str
    model: dict[str, Any]
    status: str  # running, parked, stalled, done
    reason: str | None
    message: str | None
    created: float
    updated: float
    owner: str | None = None  # "pid:start_ticks@host" of the process driving it (see owner.py)


@dataclass(frozen=True)
class PhaseRecord:
    phase_id: str
    position: int
    status: str  # pending, running, closed, stalled, parked


@dataclass(frozen=True)
class ToolCallRecord:
    seq: int
    session_id: str
    role: str
    tool: str
    arguments: dict[str, Any]
    ok: bool
    result: dict[str, Any]
    at: float


@dataclass(frozen=True)
class GateRecord:
    phase_id: str
    attempt: int
    decision: str  # close, retry, stalled, exhausted, no_verdict
    tier: str
    verdict: str | None
    outstanding: tuple[str, ...]
    detail: dict[str, Any]


class RunStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        private_dir(self.path.parent)
        wal = f"{self.path}-wal"
        if self.path.is_file() and self.path.stat().st_size == 0 and not (os.path.exists(wal) and os.path.getsize(wal) > 0):
            # We never leave an empty store (the schema is written at once): this one was truncated.
            raise StoreDamaged(damaged_message(self.path, "it is empty: truncated to nothing"))
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=0.2, check_same_thread=False)
            self._prepare()
        except sqlite3.DatabaseError as error:
            if sqlite_code(error) not in SQLITE_BUSY_CODES:
                raise self._problem(error) from None
            # Another process is writing it (a live run): a lock, not damage. Say so, wait, bounded.
            warnings.warn(f"another konstruct{held_by(self.path, f'{self.path}-shm')} is writing the blueprint run store "
                          f"{self.path}; waiting up to {lock_wait_s():g} s", StoreWaiting, stacklevel=2)
            try:
                self.db = sqlite3.connect(self.path, isolation_level=None, timeout=lock_wait_s(), check_same_thread=False)
                self._prepare()
            except sqlite3.DatabaseError as again:
                raise self._problem(again) from None
        self.db.execute("PRAGMA busy_timeout=10000")  # a run's writes wait for a reader's moment, as before

    def _problem(self, error: sqlite3.DatabaseError) -> Exception:
        """A lock or an access problem as one line that moves nothing; anything else is damage."""
        return sqlite_problem(self.path, "the blueprint run store", error, _FIX) or StoreDamaged(damaged_message(self.path, str(error)))

    def _prepare(self) -> None:
        """Migrate and check the schema (raises sqlite3 errors; StoreUnusable for a newer store)."""
        self.db.row_factory = sqlite3.Row
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, *_MIGRATIONS, SCHEMA_VERSION):
                self.db.close()
                raise StoreUnusable(f"the blueprint run store {self.path} has schema version {version}; this konstruct reads {SCHEMA_VERSION}: use the konstruct that wrote it, "
                                    "or move the file aside to start afresh (nothing was changed)")
            if version in _MIGRATIONS:
                with self.transaction() as db:
                    for step in range(version, SCHEMA_VERSION):
                        db.execute(_MIGRATIONS[step])
            self.db.executescript(_SCHEMA)
            self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._check_columns()
        except BaseException:
            self.db.close()
            raise

    def _check_columns(self) -> None:
        """A SQLite file of someone else's (or one overwritten by an older layout) is not our store."""
        have = {row[1] for row in self.db.execute("PRAGMA table_info(runs)")}
        missing = {"id", "blueprint", "status", "owner"} - have
        if missing:
            raise sqlite3.DatabaseError(f"its runs table lacks {', '.join(sorted(missing))}")

    def check(self) -> None:
        """A full read of every page (before a run starts writing into it): damage found now is
        reported now, not as a failure in the middle of a phase."""
        try:
            problems = [row[0] for row in self.db.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as error:
            raise self._problem(error) from None
        if problems != ["ok"]:
            raise StoreDamaged(damaged_message(self.path, problems[0]))

    @classmethod
    def existing(cls, path: Path | None = None) -> RunStore | None:
        """The store if there is one; None (and nothing created) if no run was ever started."""
        path = path or default_path()
        _not_a_folder(path)
        return cls(path) if path.is_file() else None

    @classmethod
    def read_only(cls, path: Path | None = None) -> RunStore | None:
        """The store opened for reading only (the workbench's runs screen follows runs another
        process drives: it never writes, migrates or creates). None when no run was ever started."""
        path = path or default_path()
        _not_a_folder(path)
        if not path.is_file():
            return None
        store = cls.__new__(cls)
        store.path = path
        try:
            store.db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=10, check_same_thread=False)
        except sqlite3.DatabaseError as error:
            raise store._problem(error) from None
        store.db.row_factory = sqlite3.Row
        try:
            version = store.db.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA_VERSION:
                store.db.close()
                raise StoreUnusable(f"the blueprint run store {path} has schema version {version}; this konstruct reads {SCHEMA_VERSION}: use the konstruct that wrote it, "
                                    "or move the file aside to start afresh (nothing was changed)")
            store._check_columns()
        except sqlite3.DatabaseError as error:
            store.db.close()
            raise store._problem(error) from None
        return store

    @classmethod
    def for_reading(cls, path: Path | None = None) -> RunStore | None:
        """The store for a command that only reads (`status`, `report`): opened read-only, so it
        works on a read-only store and changes nothing; one of an older schema is migrated first
        (that needs a write, as any run would do). None when no run was ever started."""
        path = path or default_path()
        try:
            return cls.read_only(path)
        except StoreUnusable:
            with contextlib.suppress(sqlite3.Error):
                db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
                try:
                    version = db.execute("PRAGMA user_version").fetchone()[0]
                finally:
                    db.close()
                if version in (0, *_MIGRATIONS):
                    return cls(path)
            raise

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # Runs and phases.

    def create_run(self, run_id: str, title: str, source: str, blueprint: str, root: str, model: dict[str, Any], phase_ids: list[str],
                   owner: str | None = None) -> None:
        now = time.time()
        with self.transaction() as db:
            db.execute("INSERT INTO runs (id, title, source, blueprint, root, model, status, reason, message, created, updated, owner) "
                       "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                       (run_id, title, source, blueprint, root, json.dumps(model), "running", None, None, now, now, owner))
            db.executemany("INSERT INTO phases VALUES (?,?,?,?,NULL)", [(run_id, pid, n, "pending") for n, pid in enumerate(phase_ids)])

    def run(self, run_id: str) -> RunRecord | None:
        row = self.db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        try:
            model = json.loads(row["model"])
        except (TypeError, ValueError):
            raise StoreDamaged(f"run {run_id}'s record in {self.path} is damaged (its model settings are not JSON); "
                               f"start the blueprint again with `konstruct blueprint run FILE`") from None
        return RunRecord(row["id"], row["title"], row["source"], row["blueprint"], row["root"], model, row["status"],
                         row["reason"], row["message"], row["created"], row["updated"], row["owner"])

    def runs(self) -> list[RunRecord]:
        ids = [row[0] for row in self.db.execute("SELECT id FROM runs ORDER BY created DESC")]
        return [record for record in map(self.run, ids) if record]

    def set_run(self, run_id: str, status: str, reason: str | None = None, message: str | None = None) -> None:
        self.db.execute("UPDATE runs SET status=?, reason=?, message=?, updated=? WHERE id=?", (status, reason, message, time.time(), run_id))

    def claim_run(self, run_id: str, owner: str) -> None:
        self.db.execute("UPDATE runs SET owner=?, updated=? WHERE id=?", (owner, time.time(), run_id))

    def phases(self, run_id: str) -> list[PhaseRecord]:
        rows = self.db.execute("SELECT phase_id, position, status FROM phases WHERE run_id=? ORDER BY position", (run_id,))
        return [PhaseRecord(r[0], r[1], r[2]) for r in rows]

    def set_phase(self, run_id: str, phase_id: str, status: str) -> None:
        self.db.execute("UPDATE phases SET status=? WHERE run_id=? AND phase_id=?", (status, run_id, phase_id))

    # Attempts and sessions.

    def start_attempt(self, run_id: str, phase_id: str, number: int, nudge: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO attempts VALUES (?,?,?,?,?)", (run_id, phase_id, number, nudge, time.time()))

    def attempts(self, run_id: str, phase_id: str) -> int:
        return int(self.db.execute("SELECT COALESCE(MAX(number), 0) FROM attempts WHERE run_id=? AND phase_id=?", (run_id, phase_id)).fetchone()[0])

    def start_session(self, session_id: str, run_id: str, phase_id: str, attempt: int, role: str) -> None:
        now = time.time()
        self.db.execute("INSERT INTO sessions (id, run_id, phase_id, attempt, role, started, last_activity) VALUES (?,?,?,?,?,?,?)",
                        (session_id, run_id, phase_id, attempt, role, now, now))

    def touch_session(self, session_id: str) -> None:
        self.db.execute("UPDATE sessions SET last_activity=? WHERE id=?", (time.time(), session_id))

    def add_usage(self, session_id: str, input_tokens: int, output_tokens: int) -> None:
        """One model turn's usage (kept per session, so a resumed run's budget counts what it spent)."""
        self.db.execute("UPDATE sessions SET turns=turns+1, input_tokens=input_tokens+?, output_tokens=output_tokens+? WHERE id=?",
                        (input_tokens, output_tokens, session_id))

    def usage(self, run_id: str) -> tuple[int, int, int]:
        row = self.db.execute("SELECT COALESCE(SUM(turns),0), COALESCE(SUM(input_tokens),0), COALESCE(SUM(output_tokens),0) FROM sessions WHERE run_id=?", (run_id,)).fetchone()
        return int(row[0]), int(row[1]), int(row[2])

    def end_session(self, session_id: str, reason: str, final_text: str = "") -> None:
        self.db.execute("UPDATE sessions SET ended=?, reason=?, final_text=? WHERE id=? AND ended IS NULL", (time.time(), reason, final_text[-4000:], session_id))

    def end_open_sessions(self, run_id: str, reason: str) -> int:
        """Sessions a killed process left open: closed as `reason` (their tool calls stay)."""
        return self.db.execute("UPDATE sessions SET ended=?, reason=? WHERE run_id=? AND ended IS NULL", (time.time(), reason, run_id)).rowcount

    def sessions(self, run_id: str, phase_id: str | None = None) -> list[dict[str, Any]]:
        query = "SELECT * FROM sessions WHERE run_id=?" + (" AND phase_id=?" if phase_id else "") + " ORDER BY started"
        return [dict(row) for row in self.db.execute(query, (run_id, phase_id) if phase_id else (run_id,))]

    # What sessions did.

    def record_call(self, session_id: str, run_id: str, phase_id: str, role: str, tool: str, arguments: dict[str, Any], ok: bool, result: dict[str, Any]) -> int:
        cursor = self.db.execute(
            "INSERT INTO tool_calls (session_id, run_id, phase_id, role, tool, arguments, ok, result, at) VALUES (?,?,?,?,?,?,?,?,?)",
            (session_id, run_id, phase_id, role, tool, json.dumps(arguments), int(ok), json.dumps(result), time.time()),
        )
        self.db.execute("UPDATE sessions SET last_activity=? WHERE id=?", (time.time(), session_id))
        return int(cursor.lastrowid or 0)

    def calls(self, run_id: str, phase_id: str, role: str | None = None) -> list[ToolCallRecord]:
        query = "SELECT * FROM tool_calls WHERE run_id=? AND phase_id=?" + (" AND role=?" if role else "") + " ORDER BY seq"
        rows = self.db.execute(query, (run_id, phase_id, role) if role else (run_id, phase_id))
        return [ToolCallRecord(r["seq"], r["session_id"], r["role"], r["tool"], json.loads(r["arguments"]), bool(r["ok"]), json.loads(r["result"]), r["at"]) for r in rows]

    def call_counts(self, run_id: str) -> dict[str, tuple[int, str, str, bool]]:
        """phase id -> (tool calls so far, and the last one's role, tool and ok): one cheap query for
        a screen that looks twice a second (the calls themselves are never decoded)."""
        rows = self.db.execute(
            "SELECT t.phase_id, c.n, t.role, t.tool, t.ok FROM tool_calls t JOIN "
            "(SELECT phase_id, COUNT(*) AS n, MAX(seq) AS last FROM tool_calls WHERE run_id=? GROUP BY phase_id) c "
            "ON t.seq = c.last", (run_id,))
        return {r[0]: (int(r[1]), r[2], r[3], bool(r[4])) for r in rows}

    def last_call_seq(self) -> int:
        return int(self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM tool_calls").fetchone()[0])

    def record_verification(self, run_id: str, phase_id: str, attempt: int, command: str, after_call: int, exit_code: int | None, outcome: str, output: str, failing: list[str]) -> None:
        self.db.execute(
            "INSERT INTO verifications (run_id, phase_id, attempt, command, after_call, exit_code, outcome, output, failing, at) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (run_id, phase_id, attempt, command, after_call, exit_code, outcome, output[-8000:], json.dumps(failing), time.time()),
        )

    def verifications(self, run_id: str, phase_id: str | None = None) -> list[dict[str, Any]]:
        query = "SELECT * FROM verifications WHERE run_id=?" + (" AND phase_id=?" if phase_id else "") + " ORDER BY seq"
        rows = [dict(r) for r in self.db.execute(query, (run_id, phase_id) if phase_id else (run_id,))]
        for row in rows:
            row["failing"] = json.loads(row["failing"])
        return rows

    # Gates, ledger, defects, audit.

    def record_gate(self, run_id: str, gate: GateRecord, *, summary: str | None = None, defects: tuple[str, ...] = (), audit: dict[str, Any] | None = None, phase_status: str | None = None) -> None:
        """One gate decision and everything that follows from it, atomically."""
        now = time.time()
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO gates VALUES (?,?,?,?,?,?,?,?,?)",
                (run_id, gate.phase_id, gate.attempt, gate.decision, gate.tier, gate.verdict, json.dumps(list(gate.outstanding)), json.dumps(gate.detail), now),
            )
            if summary is not None:
                db.execute("INSERT OR REPLACE INTO ledger VALUES (?,?,?,?)", (run_id, gate.phase_id, summary, now))
            db.executemany("INSERT INTO defects VALUES (?,?,?,?)", [(run_id, gate.phase_id, text, now) for text in defects])
            if audit is not None:
                self._audit(db, run_id, gate.phase_id, audit, now)
            if phase_status:
                db.execute("UPDATE phases SET status=?, closed_at=? WHERE run_id=? AND phase_id=?", (phase_status, now if phase_status == "closed" else None, run_id, gate.phase_id))

    def gates(self, run_id: str, phase_id: str | None = None) -> list[GateRecord]:
        query = "SELECT * FROM gates WHERE run_id=?" + (" AND phase_id=?" if phase_id else "") + " ORDER BY at, attempt"
        rows = self.db.execute(query, (run_id, phase_id) if phase_id else (run_id,))
        return [GateRecord(r["phase_id"], r["attempt"], r["decision"], r["tier"], r["verdict"], tuple(json.loads(r["outstanding"])), json.loads(r["detail"])) for r in rows]

    def ledger(self, run_id: str) -> list[tuple[str, str]]:
        rows = self.db.execute("SELECT l.phase_id, l.summary FROM ledger l JOIN phases p ON p.run_id=l.run_id AND p.phase_id=l.phase_id WHERE l.run_id=? ORDER BY p.position", (run_id,))
        return [(r[0], r[1]) for r in rows]

    def defects(self, run_id: str) -> list[tuple[str, str]]:
        return [(r[0], r[1]) for r in self.db.execute("SELECT phase_id, text FROM defects WHERE run_id=? ORDER BY rowid", (run_id,))]

    def add_audit(self, run_id: str, phase_id: str | None, entry: dict[str, Any]) -> None:
        self._audit(self.db, run_id, phase_id, entry, time.time())

    @staticmethod
    def _audit(db: sqlite3.Connection, run_id: str, phase_id: str | None, entry: dict[str, Any], now: float) -> None:
        db.execute(
            "INSERT INTO audit (run_id, phase_id, kind, tier, verdict, evidence, defects, detail, at) VALUES (?,?,?,?,?,?,?,?,?)",
            (run_id, phase_id, entry["kind"], entry.get("tier"), entry.get("verdict"), json.dumps(entry.get("evidence", [])), json.dumps(entry.get("defects", [])), json.dumps(entry.get("detail", {})), now),
        )

    def audit(self, run_id: str) -> list[dict[str, Any]]:
        rows = [dict(r) for r in self.db.execute("SELECT * FROM audit WHERE run_id=? ORDER BY seq", (run_id,))]
        for row in rows:
            for key in ("evidence", "defects", "detail"):
                row[key] = json.loads(row[key])
        return rows

    # The report, in pieces.

    def put_section(self, run_id: str, key: str, position: int, markdown: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO report_sections VALUES (?,?,?,?,?)", (run_id, key, position, markdown, time.time()))

    def sections(self, run_id: str) -> list[tuple[str, str]]:
        return [(r[0], r[1]) for r in self.db.execute("SELECT key, markdown FROM report_sections WHERE run_id=? ORDER BY position, key", (run_id,))]

    # What the disk held when each phase began (its snapshot and its pinned files' bytes).

    def put_phase_start(self, run_id: str, phase_id: str, taken_ns: int, files: dict[str, tuple[int, int, int, str]],
                        pinned: dict[str, bytes]) -> None:
        """path -> (size, mtime_ns, inode, revision), and the bytes of every pinned file; one transaction."""
        with self.transaction() as db:
            db.execute("DELETE FROM phase_files WHERE run_id=? AND phase_id=?", (run_id, phase_id))
            db.executemany("INSERT INTO phase_files VALUES (?,?,?,?,?,?,?,?)",
                           [(run_id, phase_id, path, *state, pinned.get(path)) for path, state in files.items()])
            db.execute("INSERT OR REPLACE INTO phase_starts VALUES (?,?,?,?)", (run_id, phase_id, taken_ns, json.dumps(sorted(pinned))))

    def phase_start(self, run_id: str, phase_id: str) -> tuple[int, dict[str, tuple[int, int, int, str]], dict[str, bytes]] | None:
        row = self.db.execute("SELECT taken_ns, pinned FROM phase_starts WHERE run_id=? AND phase_id=?", (run_id, phase_id)).fetchone()
        if row is None:
            return None
        pinned_paths = set(json.loads(row[1]))
        files, pinned = {}, {}
        for r in self.db.execute("SELECT path, size, mtime_ns, inode, revision, content FROM phase_files WHERE run_id=? AND phase_id=?", (run_id, phase_id)):
            files[r[0]] = (r[1], r[2], r[3], r[4])
            if r[0] in pinned_paths and r[5] is not None:
                pinned[r[0]] = bytes(r[5])
        return int(row[0]), files, pinned

    def record_change(self, run_id: str, phase_id: str, path: str, how: str, detail: str) -> None:
        self.db.execute("INSERT INTO changes (run_id, phase_id, path, how, detail, at) VALUES (?,?,?,?,?,?)",
                        (run_id, phase_id, path, how, detail, time.time()))

    def change_origins(self, run_id: str, phase_id: str) -> dict[str, tuple[str, str]]:
        """path -> (how, detail) of the last thing seen changing it in this phase; `verification` only
        for a path nothing else changed. The row with the empty path marks verification in progress."""
        rows = self.db.execute("SELECT path, how, detail FROM changes WHERE run_id=? AND phase_id=? ORDER BY seq", (run_id, phase_id))
        origins: dict[str, tuple[str, str]] = {}
        for path, how, detail in rows:
            if how != "verification" or origins.get(path, ("verification",))[0] == "verification":
                origins[path] = (how, detail)
        return origins


def _not_a_folder(path: Path) -> None:
    """Something other than a file where the store belongs is not "no run yet": say so."""
    if path.exists() and not path.is_file():
        raise StoreProblem(f"the blueprint run store {path} is not a file: move it aside (nothing was changed)")


def damaged_message(path: Path, why: str) -> str:
    return (f"the blueprint run store {path} is damaged ({why}); move it aside to start afresh "
            f"(`konstruct blueprint run` does that itself, keeping every run it can still read)")
