"""Team runs written straight into a real team database (SQLite, or PostgreSQL from tests/team), for
the workbench's runs and approvals screens: a run a worker is on (with the run store it
checkpointed), one parked on an approval request as a trust prompt shows it, one queued. Times are
fixed so the pictures hold still."""

from __future__ import annotations

import sqlite3
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "blueprint"))
from blueprint_harness import EVIDENCE, PHASE_FIX, blueprint_text  # noqa: E402

from konstruct_tui.team import DatabaseTarget, TeamDatabase  # noqa: E402

RUNNING = "bp-20260101-100000-team01"
WAITING = "bp-20260101-110000-team02"
QUEUED = "bp-20260101-120000-team03"
REQUEST = "r0123456789"
DIFF = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
ASKED = {"capability": "commands", "detail": "python check_calc.py --fix", "paths": [], "command": "python check_calc.py --fix",
         "rule": "needs_grant", "reason": "an arbitrary command: it runs only with the user's 'commands' grant",
         "diffs": [["calc.py", DIFF]], "blast_radius": ["cli.py"], "notes": []}


def store_image(folder: Path, run_id: str, root: str, provider: str = "scripted") -> bytes:
    """A run store holding one run at phase p1, attempt 2, after a failing verification (also the
    docs' pictures: docs/screenshots/team_screens.py)."""
    from konstruct_tui.blueprint import RunStore
    from konstruct_tui.blueprint.store import GateRecord

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{run_id}.sqlite3"
    store = RunStore(path)
    store.create_run(run_id, "Calc fixes", "plan.toml", blueprint_text(PHASE_FIX), root, {"provider": provider}, ["p1"])
    store.start_attempt(run_id, "p1", 1, "")
    store.record_verification(run_id, "p1", 1, "python check_calc.py", 0, 1, "failed",
                              "Traceback (most recent call last):\n  File \"check_calc.py\", line 3, in <module>\nAssertionError: add is wrong", [])
    store.record_gate(run_id, GateRecord("p1", 1, "retry", "executable", "incomplete", ("t1", "veto:verify_failed"), {
        "evidence": [{"id": "t1", "evidence": EVIDENCE}], "defects": [],
        "vetoes": [{"rung": "executable", "code": "verify_failed", "message": "`python check_calc.py` failed (exit 1)\n    AssertionError: add is wrong"}]}))
    store.start_attempt(run_id, "p1", 2, "")
    store.close()
    connection = sqlite3.connect(path)
    try:
        return connection.serialize()
    finally:
        connection.close()


def team_database(url: str, folder: Path, *, now: float | None = None) -> TeamDatabase:
    """Three team runs and one pending request, created `now` less a few hours (fixed for pictures)."""
    from konstruct_tui.team import prepare

    db = TeamDatabase.open(DatabaseTarget(url), create=True)
    prepare(db.target)  # DBOS's tables, as `blueprint submit` makes them: a resume or an answer enqueues
    stamp = (now or time.time()) - 3 * 3600
    for run_id, status, worker, phase, offset in ((RUNNING, "running", "build-1", "p1", 0), (WAITING, "waiting_approval", None, "p1", 600),
                                                  (QUEUED, "queued", None, None, 1200)):
        db.add_run({"run_id": run_id, "title": "Calc fixes", "source": "plan.toml", "blueprint": blueprint_text(PHASE_FIX),
                    "repo": "/srv/git/calc.git", "ref": None, "base": "0" * 40, "model": '{"provider": "scripted"}', "options": "{}",
                    "approval_timeout": None, "status": status, "continuation": 0, "stop_requested": 0})
        db.update_run(run_id, worker=worker, phase=phase)
        with db.transaction() as connection:
            connection.execute(__import__("sqlalchemy").text(
                "UPDATE " + ("" if db.target.is_sqlite else "konstruct.") + "konstruct_runs SET created=:t, updated=:t WHERE run_id=:r"),
                {"t": stamp + offset, "r": run_id})
        if status != "queued":
            db.put_store(run_id, store_image(folder, run_id, "/srv/work/" + run_id))
    db.ask(WAITING, REQUEST, ASKED, "build-1")
    with db.transaction() as connection:
        connection.execute(__import__("sqlalchemy").text(
            "UPDATE " + ("" if db.target.is_sqlite else "konstruct.") + "konstruct_approvals SET asked_at=:t"), {"t": stamp + 900})
    return db
