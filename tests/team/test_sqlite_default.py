"""One machine, no settings: submit and a worker on the SQLite database in the user data dir."""

from __future__ import annotations

import json
from pathlib import Path

from team_processes import cli
from team_harness import DOC, git, make_repo, two_phase_plan


def test_a_submitted_run_is_served_phase_by_phase_and_pushed_as_a_branch(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path)
    done = cli("blueprint", "submit", str(plan), "--repo", str(repo), "--provider", "scripted", "--script", str(scripts))
    assert done.returncode == 0, done.stderr
    submitted = json.loads(done.stdout)
    run_id = submitted["run"]
    assert submitted == {"run": run_id, "status": "queued"}

    served = cli("worker", "--once", "--workdir", str(tmp_path / "work"), "--heartbeat", "0.3")
    assert served.returncode == 0, served.stdout + served.stderr

    status = json.loads(cli("blueprint", "status", run_id, "--json", "--database", _default_url()).stdout)
    assert status["status"] == "done" and status["branch"] == f"konstruct/{run_id}"
    assert [(p["id"], p["status"]) for p in status["phases"]] == [("p1", "closed"), ("p2", "closed")]
    assert [c["phase_id"] for c in status["closed"]] == ["p1", "p2"]
    # The result is in the repository as a branch; the person's own branch is untouched.
    pushed = git("show", f"konstruct/{run_id}:calc.py", cwd=repo)
    assert "return a + b" in pushed and DOC[1].splitlines()[1] in pushed
    assert "return a - b" in git("show", "main:calc.py", cwd=repo)

    report = cli("blueprint", "report", run_id, "--database", _default_url()).stdout
    assert report.startswith("# Calc fixes") and "## Team audit" in report
    assert report.count("phase_closed") == 2 and "submitted by" in report


def test_without_a_database_setting_the_one_machine_commands_are_unchanged(tmp_path: Path) -> None:
    listing = cli("blueprint", "status", "--json")
    assert listing.returncode == 0 and json.loads(listing.stdout) == {"runs": []}


def _default_url() -> str:
    from konstruct_tui.team.database import default_url

    return default_url()


def test_stop_reaches_a_running_run_and_resume_finishes_it(tmp_path: Path) -> None:
    """p2's executor turn hangs until something closes it: only the stop can end this run, however
    slowly the `stop` command starts (it used to race a timed turn, and lose on a busy machine)."""
    from team_harness import database, wait_for
    from team_processes import start_worker

    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path)
    script = scripts / "executor-p2.json"
    resumable = script.read_text()
    turns = json.loads(resumable)
    turns["turns"].insert(0, {"text": "Thinking it over.", "hang": True})
    script.write_text(json.dumps(turns))
    url = _default_url()
    run_id = json.loads(cli("blueprint", "submit", str(plan), "--repo", str(repo), "--provider", "scripted", "--script", str(scripts)).stdout)["run"]
    worker = start_worker("--workdir", str(tmp_path / "work"), "--heartbeat", "0.3", log=tmp_path / "w.log")
    db = database(url)

    def state() -> str:  # what a timeout shows: the run's row and the worker's last words
        row = {k: v for k, v in (db.run(run_id) or {}).items() if k in ("status", "reason", "message", "phase", "worker", "stop_requested")}
        log = (tmp_path / "w.log").read_text(errors="replace")[-3000:] if (tmp_path / "w.log").exists() else ""
        return f"{row}; audit {[e['kind'] for e in db.audit(run_id)]}; worker log: {log}"

    try:
        wait_for(lambda: db.run(run_id)["phase"] == "p2", why="phase p2 to start", state=state)
        stop = cli("blueprint", "stop", run_id, "--database", url)
        assert json.loads(stop.stdout) == {"run": run_id, "status": "stopping"}, state()
        wait_for(lambda: db.run(run_id)["status"] == "stopped", timeout=60, why="the run to stop", state=state)
        assert [c["phase_id"] for c in db.closures(run_id)] == ["p1"]
        script.write_text(resumable)  # the resumed attempt's model answers at once
        assert json.loads(cli("blueprint", "resume", run_id, "--database", url).stdout) == {"run": run_id, "status": "queued"}
        wait_for(lambda: db.run(run_id)["status"] == "done", timeout=120, why="the resumed run to finish", state=state)
    finally:
        worker.terminate()
        worker.wait(30)
    assert [c["phase_id"] for c in db.closures(run_id)] == ["p1", "p2"]
    assert "stop_requested" in [e["kind"] for e in db.audit(run_id)]
