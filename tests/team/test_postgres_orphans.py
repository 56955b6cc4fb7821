"""A run whose row says `queued` but whose workflow never reached DBOS's queue (the database went
away between the two writes of a submit, a resume or an answer) is not stranded: the command says
so in one line, and a worker's sweep puts it on the queue, where it is served as any other."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from konstruct_tui.cli import main
from konstruct_tui.team import engine
from konstruct_tui.team.records import runs

from team_processes import start_worker
from team_harness import database, git, make_repo, two_phase_plan


class _Refusing:
    """DBOS's client when the database hangs up between our row and its queue."""

    def __init__(self, **_: object) -> None:
        raise sa.exc.OperationalError("INSERT INTO dbos.workflow_status", {}, Exception("server closed the connection unexpectedly"))


def test_a_submit_whose_enqueue_failed_is_still_served(pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path, phases=1)
    with monkeypatch.context() as patched:
        patched.setattr(engine, "DBOSClient", _Refusing)
        code = main(["blueprint", "submit", str(plan), "--repo", str(repo), "--provider", "scripted", "--script", str(scripts), "--database", pg_url])
    printed = json.loads(capsys.readouterr().out)
    assert code == 0 and printed["status"] == "queued"
    assert "could not be put on the queue" in printed["note"] and "a worker queues it" in printed["note"]
    run_id = printed["run"]
    db = database(pg_url)
    assert db.run(run_id)["status"] == "queued"
    with db.transaction() as connection:  # as the row looks a while later
        connection.execute(runs.update().where(runs.c.run_id == run_id).values(updated=time.time() - 3600))

    worker = start_worker("--database", pg_url, "--workdir", str(tmp_path / "w"), "--once", "--heartbeat", "0.3", log=tmp_path / "w.log")
    assert worker.wait(150) == 0, (tmp_path / "w.log").read_text()
    assert db.run(run_id)["status"] == "done"
    assert "return a + b" in git("show", f"konstruct/{run_id}:calc.py", cwd=repo)
    kinds = [e["kind"] for e in db.audit(run_id)]
    assert kinds.count("requeued") == 1 and kinds.count("phase_closed") == 1


def test_a_queued_run_on_the_queue_is_not_enqueued_twice(pg_url: str, tmp_path: Path) -> None:
    """The sweep leaves a run alone whose workflow is on the queue, however long it has waited."""
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path, phases=1)
    assert main(["blueprint", "submit", str(plan), "--repo", str(repo), "--provider", "scripted", "--script", str(scripts), "--database", pg_url]) == 0
    db = database(pg_url)
    run_id = db.runs()[0]["run_id"]
    with db.transaction() as connection:
        connection.execute(runs.update().where(runs.c.run_id == run_id).values(updated=time.time() - 3600))
    worker = start_worker("--database", pg_url, "--workdir", str(tmp_path / "w"), "--once", "--heartbeat", "0.3", log=tmp_path / "w.log")
    assert worker.wait(150) == 0, (tmp_path / "w.log").read_text()
    assert db.run(run_id)["status"] == "done"
    assert "requeued" not in [e["kind"] for e in db.audit(run_id)]
