"""A run is driven by its latest workflow only. A resume, an answer or a worker handing a run over
starts continuation N+1; a step of an older continuation (recovered somewhere after its worker
died, or never cancelled) writes nothing and ends, so no two workers drive one run."""

from __future__ import annotations

from pathlib import Path

import pytest

from konstruct_tui.team import DatabaseTarget, TeamDatabase
from konstruct_tui.team.records import Superseded
from konstruct_tui.team.step import advance


def _db(tmp_path: Path) -> TeamDatabase:
    db = TeamDatabase.open(DatabaseTarget(f"sqlite:///{tmp_path / 'team.sqlite3'}"), create=True)
    db.add_run({"run_id": "bp-1", "title": "t", "source": "plan.toml", "blueprint": "", "repo": "/nowhere", "ref": None, "base": "abc",
                "model": "{}", "options": "{}", "approval_timeout": None, "status": "stopped", "continuation": 0, "stop_requested": 0})
    return db


def test_an_older_continuations_step_writes_nothing(tmp_path: Path) -> None:
    db = _db(tmp_path)
    assert db.requeue("bp-1", ("stopped",)) == 1  # a person resumed it: continuation 1
    before = (db.run("bp-1"), db.audit("bp-1"))
    with pytest.raises(Superseded):
        db.begin_step("bp-1", "old-worker", continuation=0)
    assert (db.run("bp-1"), db.audit("bp-1")) == before
    # the engine's step ends at once, before any checkout (the repository does not even exist)
    assert advance(db, "bp-1", tmp_path / "work", "old-worker", continuation=0) == {"state": "superseded"}
    assert not (tmp_path / "work").exists() and db.run("bp-1") == before[0]
    row, _, _ = db.begin_step("bp-1", "new-worker", continuation=1)
    assert row["status"] == "running" and row["worker"] == "new-worker"


def test_a_hand_over_keeps_a_stop_asked_for_and_a_resume_clears_it(tmp_path: Path) -> None:
    db = _db(tmp_path)
    db.update_run("bp-1", status="running", stop_requested=1)
    assert db.requeue("bp-1", ("running",), clear_stop=False) == 1
    row, _, _ = db.begin_step("bp-1", "w", continuation=1)
    assert row["status"] == "stopped"  # the stop reached the run after the hand-over
    assert db.requeue("bp-1", ("stopped",)) == 2 and db.run("bp-1")["stop_requested"] == 0
