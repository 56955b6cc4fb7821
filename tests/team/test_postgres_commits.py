"""Which writes wait for PostgreSQL's disk flush. A person's acts (submit, an answer, a stop) are on
disk when the command returns; a step's own start and end, its progress and a worker's heartbeat
commit without waiting, because DBOS's record of the step, flushed, follows them and carries them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from konstruct_tui.team import DatabaseTarget, TeamDatabase

LAZY = "synchronous_commit TO OFF"


def _statements(db: TeamDatabase, act: Callable[[], Any]) -> list[str]:
    seen: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        seen.append(statement)

    sa.event.listen(db.engine, "before_cursor_execute", note)
    try:
        act()
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", note)
    return seen


def _run(db: TeamDatabase, run_id: str) -> None:
    db.add_run({"run_id": run_id, "title": "t", "source": "plan.toml", "blueprint": "", "repo": "/r", "ref": None, "base": "abc",
                "model": "{}", "options": "{}", "approval_timeout": None, "status": "queued", "continuation": 0, "stop_requested": 0})


def test_a_persons_acts_wait_for_the_disk_and_a_steps_own_writes_do_not(pg_url: str) -> None:
    db = TeamDatabase.open(DatabaseTarget(pg_url), create=True)
    durable = {
        "submit": lambda: _run(db, "r1"),
        "ask": lambda: db.ask("r1", "q1", {"capability": "commands"}, "w"),
        "answer": lambda: db.answer("r1", "q1", "denied", "once", "no"),
        "stop": lambda: db.update_run("r1", stop_requested=1),
        "requeue": lambda: db.requeue("r1", ("queued",)),
    }
    for name, act in durable.items():
        statements = _statements(db, act)
        assert statements and not any(LAZY in s for s in statements), name
    lazy = {
        "step start": lambda: db.begin_step("r1", "w"),
        "progress": lambda: db.progress("r1", phase="p1"),
        "step end": lambda: db.record_step("r1", b"SQLite format 3\x00", [("p1", "complete")], "w", audit_detail={}, status="running"),
        "heartbeat": lambda: db.beat("w", "host", 1),
    }
    for name, act in lazy.items():
        statements = _statements(db, act)
        assert any(LAZY in s for s in statements), name
    # what the step wrote is read back as written
    assert [c["phase_id"] for c in db.closures("r1")] == ["p1"] and db.store("r1") == b"SQLite format 3\x00"
    assert [e["kind"] for e in db.audit("r1")][-2:] == ["phase_closed", "step"]
    db.close()
