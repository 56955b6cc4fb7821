"""Team runs on a real PostgreSQL (a throwaway cluster, see conftest): two workers on one queue,
and a worker SIGKILLed mid-phase and mid-verification whose runs another worker finishes from
their last completed step, each phase closed once."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

from team_processes import cli, start_worker
from team_harness import DOC, database, git, make_repo, two_phase_plan, wait_for

FAST = ("--heartbeat", "0.3", "--dead-after", "2")


def _submit(plan: Path, scripts: Path, repo: Path, url: str) -> str:
    done = cli("blueprint", "submit", str(plan), "--repo", str(repo), "--provider", "scripted", "--script", str(scripts), "--database", url)
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["run"])


def _finished_once(url: str, repo: Path, run_id: str) -> None:
    status = json.loads(cli("blueprint", "status", run_id, "--json", "--database", url).stdout)
    assert status["status"] == "done", status
    # Each phase closed once: once in the team's record (its key says so) and once in the run's own gate.
    assert sorted(c["phase_id"] for c in status["closed"]) == ["p1", "p2"]
    assert [(p["id"], p["status"], p["verdict"]) for p in status["phases"]] == [("p1", "closed", "complete"), ("p2", "closed", "complete")]
    report = cli("blueprint", "report", run_id, "--database", url).stdout
    assert report.count("**close**") == 2, report
    pushed = git("show", f"konstruct/{run_id}:calc.py", cwd=repo)
    assert "return a + b" in pushed and DOC[1].splitlines()[1] in pushed


def test_two_workers_share_one_queue(pg_url: str, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path, p2_delay_s=1.0)
    runs = [_submit(plan, scripts, repo, pg_url) for _ in range(2)]
    workers = [start_worker("--database", pg_url, "--workdir", str(tmp_path / f"w{n}"), "--once", *FAST, log=tmp_path / f"w{n}.log") for n in (1, 2)]
    for worker in workers:
        assert worker.wait(150) == 0, (tmp_path / "w1.log").read_text() + (tmp_path / "w2.log").read_text()
    for run_id in runs:
        _finished_once(pg_url, repo, run_id)
    served = {c["worker"] for run_id in runs for c in database(pg_url).closures(run_id)}
    assert len(served) == 2, served  # both workers took runs off the one queue


def test_a_worker_killed_mid_phase_loses_nothing(pg_url: str, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path, p2_delay_s=3.0)
    run_id = _submit(plan, scripts, repo, pg_url)
    doomed = start_worker("--database", pg_url, "--workdir", str(tmp_path / "a"), *FAST, log=tmp_path / "a.log")
    db = database(pg_url)
    wait_for(lambda: (db.run(run_id) or {}).get("phase") == "p2", why="phase p2 to start")
    time.sleep(random.uniform(0.0, 1.5))  # somewhere in p2's executor turn
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(10)
    assert db.run(run_id)["status"] == "running"  # what the dead worker left
    other = start_worker("--database", pg_url, "--workdir", str(tmp_path / "b"), "--once", *FAST, log=tmp_path / "b.log")
    assert other.wait(150) == 0, (tmp_path / "b.log").read_text()
    _finished_once(pg_url, repo, run_id)
    closed = {c["phase_id"]: c["worker"] for c in db.closures(run_id)}
    assert closed["p1"] != closed["p2"]  # p1 by the dead worker (recorded), p2 by the one that took the run up
    assert any(e["kind"] == "worker_recovered" for e in db.audit("-"))
    # the run's own audit says who took it up, from whom, at which phase
    taken = [e for e in db.audit(run_id) if e["kind"] == "taken_over"]
    assert len(taken) == 1 and taken[0]["detail"]["from_worker"] == closed["p1"] and taken[0]["actor"] == closed["p2"]
    assert taken[0]["detail"]["phase"] == "p2"


def test_a_worker_killed_mid_verification_loses_nothing(pg_url: str, tmp_path: Path) -> None:
    slow_check = "import time\ntime.sleep(2)\nimport calc\nassert calc.add(2, 3) == 5\n"
    repo = make_repo(tmp_path / "repo", {"slow_check.py": slow_check})
    plan, scripts = two_phase_plan(tmp_path)
    plan.write_text(plan.read_text().replace('verify = ["python check_calc.py"]\n\n[[phases.tasks]]\nid = "t1"\ntext = "a docstring',
                                             'verify = ["python slow_check.py"]\n\n[[phases.tasks]]\nid = "t1"\ntext = "a docstring'))
    assert "slow_check" in plan.read_text()
    run_id = _submit(plan, scripts, repo, pg_url)
    doomed = start_worker("--database", pg_url, "--workdir", str(tmp_path / "a"), *FAST, log=tmp_path / "a.log")
    db = database(pg_url)
    wait_for(lambda: (db.run(run_id) or {}).get("phase") == "p2" and _verifying(), why="p2's verification to start")
    time.sleep(random.uniform(0.0, 1.0))
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(10)
    wait_for(lambda: not _verifying(), timeout=10, why="the check to die with its worker")
    other = start_worker("--database", pg_url, "--workdir", str(tmp_path / "b"), "--once", *FAST, log=tmp_path / "b.log")
    assert other.wait(150) == 0, (tmp_path / "b.log").read_text()
    _finished_once(pg_url, repo, run_id)


def _slow_p1(tmp_path: Path, seconds: float) -> tuple[Path, Path]:
    return two_phase_plan(tmp_path, p1_first=[{"text": " ".join(["thinking"] * 20), "delay_s": seconds / 20}])


def test_a_worker_stopped_with_sigterm_hands_its_run_over_at_the_end_of_the_phase(pg_url: str, tmp_path: Path) -> None:
    """A deploy restarting the build machines loses no model time: the phase in flight finishes and
    is recorded, the run goes back on the queue, and another worker does the rest."""
    repo = make_repo(tmp_path / "repo")
    plan, scripts = _slow_p1(tmp_path, 4.0)
    run_id = _submit(plan, scripts, repo, pg_url)
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
    _finished_once(pg_url, repo, run_id)
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
    plan, scripts = _slow_p1(tmp_path, 20.0)
    run_id = _submit(plan, scripts, repo, pg_url)
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
    _finished_once(pg_url, repo, run_id)
    assert [e["kind"] for e in db.audit(run_id)].count("taken_over") == 1
    listed = json.loads(cli("workers", "--json", "--database", pg_url).stdout)["workers"]
    assert sorted(w["state"] for w in listed) == ["dead", "stopped"] and all(w["runs"] == [] for w in listed)
    text = cli("workers", "--database", pg_url).stdout
    assert "dead" in text and "stopped" in text and "last beat" in text


def _verifying() -> bool:
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if b"slow_check.py" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    return True
            except OSError:
                continue
    return False
