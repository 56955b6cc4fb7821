"""A worker stopped the way a deploy stops it (SIGTERM), on a real PostgreSQL: its phase in flight
finishes and the run is handed over; a phase that outlasts `--drain-timeout` is left as a crashed
worker's and taken up at once by another worker's sweep."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

from team_processes import cli, start_worker
from team_harness import FAST, database, finished_once, make_repo, slow_first_phase, submit_scripted, wait_for


def test_a_worker_stopped_with_sigterm_hands_its_run_over_at_the_end_of_the_phase(pg_url: str, tmp_path: Path) -> None:
    """A deploy restarting the build machines loses no model time: the phase in flight finishes and
    is recorded, the run goes back on the queue, and another worker does the rest."""
    repo = make_repo(tmp_path / "repo")
    plan, scripts = slow_first_phase(tmp_path, 4.0)
    run_id = submit_scripted(plan, scripts, repo, pg_url)
    stopping = start_worker("--database", pg_url, "--workdir", str(tmp_path / "a"), *FAST, log=tmp_path / "a.log")
    db = database(pg_url)
    wait_for(lambda: (db.run(run_id) or {}).get("phase") == "p1", why="phase p1 to start")
    listed = json.loads(cli("workers", "--json", "--database", pg_url).stdout)["workers"]
    assert [(w["state"], w["runs"]) for w in listed] == [("alive", [run_id])]
    stopping.send_signal(signal.SIGTERM)
    assert stopping.wait(60) == 0, (tmp_path / "a.log").read_text()
    row = db.run(run_id)
    assert row["status"] == "queued" and row["continuation"] == 1, row  # p1 recorded, the rest back on the queue
    assert [c["phase_id"] for c in db.closures(run_id)] == ["p1"]
    assert {w["state"] for w in db.workers()} == {"stopped"}  # nothing for a sweep to recover
    other = start_worker("--database", pg_url, "--workdir", str(tmp_path / "b"), "--once", *FAST, log=tmp_path / "b.log")
    assert other.wait(150) == 0, (tmp_path / "b.log").read_text()
    finished_once(pg_url, repo, run_id)
    closed = {c["phase_id"]: c["worker"] for c in db.closures(run_id)}
    assert closed["p1"] != closed["p2"]
    kinds = [e["kind"] for e in db.audit(run_id)]
    assert kinds.count("handed_over") == 1 and "taken_over" not in kinds
    # what each worker told its operator, a line a step
    assert f"run {run_id} handed_over phase p1 closed p1" in (tmp_path / "a.log").read_text()
    assert f"run {run_id} done phase p2 closed p2" in (tmp_path / "b.log").read_text()
    assert f"pushed konstruct/{run_id}" in (tmp_path / "b.log").read_text()


def test_a_phase_that_outlasts_the_drain_is_taken_up_as_a_crashed_workers(pg_url: str, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    plan, scripts = slow_first_phase(tmp_path, 20.0)
    run_id = submit_scripted(plan, scripts, repo, pg_url)
    stopping = start_worker("--database", pg_url, "--workdir", str(tmp_path / "a"), "--drain-timeout", "1", *FAST, log=tmp_path / "a.log")
    db = database(pg_url)
    wait_for(lambda: (db.run(run_id) or {}).get("phase") == "p1", why="phase p1 to start")
    began = time.monotonic()
    stopping.send_signal(signal.SIGTERM)
    assert stopping.wait(30) == 0, (tmp_path / "a.log").read_text()
    assert time.monotonic() - began < 10  # it did not wait for the 20 s phase
    assert "leaving 1 run(s) mid-phase" in (tmp_path / "a.log").read_text()
    assert db.closures(run_id) == [] and db.run(run_id)["status"] == "running"  # nothing recorded: as a crash
    scripts.joinpath("executor-p1.json").write_text(json.dumps({"turns": json.loads(scripts.joinpath("executor-p1.json").read_text())["turns"][1:]}))
    # The leaving worker said so: the next sweep recovers its run without waiting the default 30 s
    # dead-after (given here as it is by default).
    taken = time.monotonic()
    other = start_worker("--database", pg_url, "--workdir", str(tmp_path / "b"), "--once", "--heartbeat", "0.3", "--dead-after", "30",
                         log=tmp_path / "b.log")
    assert other.wait(150) == 0, (tmp_path / "b.log").read_text()
    assert time.monotonic() - taken < 25, "the run waited for the dead-after time"
    finished_once(pg_url, repo, run_id)
    assert [e["kind"] for e in db.audit(run_id)].count("taken_over") == 1
    listed = json.loads(cli("workers", "--json", "--database", pg_url).stdout)["workers"]
    assert sorted(w["state"] for w in listed) == ["dead", "stopped"] and all(w["runs"] == [] for w in listed)
    text = cli("workers", "--database", pg_url).stdout
    assert "dead" in text and "stopped" in text and "last beat" in text
