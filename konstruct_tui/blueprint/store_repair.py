"""A damaged run store never stops a fresh run and never loses more than the damaged part.

`status`, `report` and `resume` only read: on a damaged store they fail with one line naming the file
and what to do, and change nothing. `run` is the person starting afresh, so it moves the damaged file
aside (kept, with its WAL, under `runs.sqlite3.damaged-<time>`), starts a new store, and carries over
every row it can still read from the old one, table by table, up to the first unreadable page.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from ..userdirs import StoreProblem, integrity_ok
from .store import RunStore, StoreDamaged, default_path

_TABLES = ("runs", "phases", "attempts", "sessions", "tool_calls", "verifications", "gates", "defects", "ledger",
           "report_sections", "audit", "phase_starts", "phase_files", "changes")


def open_for_run(path: Path | None = None) -> tuple[RunStore, str | None]:
    """The store a new run writes into, and a warning when the old one had to be set aside."""
    path = path or default_path()
    store: RunStore | None = None
    try:
        store = RunStore(path)
        store.check()
        return store, None
    except StoreDamaged as damaged:
        if store is not None:
            store.close()
        if not _damage_confirmed(path, str(damaged)):
            raise StoreProblem(f"the blueprint run store {path} could not be used ({str(damaged).split(' is damaged ', 1)[-1].split(';', 1)[0]}) "
                               "but `PRAGMA integrity_check` finds it sound, so it was left in place: run the command again, "
                               "and if it says so again, move the file aside yourself") from None
        aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(f"{path}{suffix}"):
                os.replace(f"{path}{suffix}", f"{aside}{suffix}")
        store = RunStore(path)
        carried = salvage(aside, store)
        why = str(damaged).split(" is damaged ", 1)[-1].split(";", 1)[0]
        return store, (f"the blueprint run store was damaged {why}: moved aside to {aside}; "
                       f"{carried} earlier run(s) carried over into a new store")


def _damage_confirmed(path: Path, why: str) -> bool:
    """Only a store that is really damaged is moved aside: one that is empty, not laid out as ours,
    or that fails `PRAGMA integrity_check`. A busy store (another process writing) never is."""
    if "it is empty" in why or "its runs table lacks" in why:
        return True
    sound = integrity_ok(path)
    if sound is None:  # locked or out of reach while we looked: a lock is not damage
        raise StoreProblem(f"the blueprint run store {path} is in use or cannot be read ({why.split(' is damaged ', 1)[-1].split(';', 1)[0]}); "
                           "it was left in place: try again when the other konstruct has finished")
    return not sound


def salvage(damaged: Path, into: RunStore) -> int:
    """Copy every readable row of `damaged` into `into`; the number of runs carried over."""
    try:
        source = sqlite3.connect(f"file:{damaged}?mode=ro", uri=True)
    except sqlite3.Error:
        return 0
    try:
        for table in _TABLES:
            _copy(source, into.db, table)
        runs = {row[0] for row in into.db.execute("SELECT id FROM runs")}
    finally:
        source.close()
    return len(runs)


def _copy(source: sqlite3.Connection, target: sqlite3.Connection, table: str) -> None:
    try:
        have = [row[1] for row in target.execute(f"PRAGMA table_info({table})")]
        cursor = source.execute(f"SELECT * FROM {table}")
        columns = [c[0] for c in cursor.description if c[0] in have]
        names = [c[0] for c in cursor.description]
    except sqlite3.Error:
        return  # the table itself is unreadable (or was never there)
    insert = f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    while True:
        try:
            row = cursor.fetchone()
        except sqlite3.Error:
            return  # the first damaged page: what came before it is kept
        if row is None:
            return
        values = dict(zip(names, row, strict=True))
        try:
            target.execute(insert, [values[c] for c in columns])
        except sqlite3.Error:
            continue
