"""Team runs on a real PostgreSQL (a throwaway cluster, see conftest): two workers on one queue,
and a worker SIGKILLed mid-phase and mid-verification whose runs another worker finishes from
their last completed step, each phase closed once."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

from team_processes import start_worker
from team_harness import FAST, database, finished_once, make_repo, submit_scripted, two_phase_plan, wait_for


def test_two_workers_share_one_queue(pg_url: str, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path, p2_delay_s=1.0)
    runs = [submit_scripted(plan, scripts, repo, pg_url) for _ in range(2)]
    workers = [start_worker("--database", pg_url, "--workdir", str(tmp_path / f"w{n}"), "--once", *FAST, log=tmp_path / f"w{n}.log") for n in (1, 2)]
    for worker in workers:
        assert worker.wait(150) == 0, (tmp_path / "w1.log").read_text() + (tmp_path / "w2.log").read_text()
    for run_id in runs:
        finished_once(pg_url, repo, run_id)
    served = {c["worker"] for run_id in runs for c in database(pg_url).closures(run_id)}
    assert len(served) == 2, served  # both workers took runs off the one queue


def test_a_worker_killed_mid_phase_loses_nothing(pg_url: str, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path, p2_delay_s=3.0)
    run_id = submit_scripted(plan, scripts, repo, pg_url)
    doomed = start_worker("--database", pg_url, "--workdir", str(tmp_path / "a"), *FAST, log=tmp_path / "a.log")
    db = database(pg_url)
    wait_for(lambda: (db.run(run_id) or {}).get("phase") == "p2", why="phase p2 to start")
    time.sleep(random.uniform(0.0, 1.5))  # somewhere in p2's executor turn
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(10)
    assert db.run(run_id)["status"] == "running"  # what the dead worker left
    other = start_worker("--database", pg_url, "--workdir", str(tmp_path / "b"), "--once", *FAST, log=tmp_path / "b.log")
    assert other.wait(150) == 0, (tmp_path / "b.log").read_text()
    finished_once(pg_url, repo, run_id)
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
    run_id = submit_scripted(plan, scripts, repo, pg_url)
    doomed = start_worker("--database", pg_url, "--workdir", str(tmp_path / "a"), *FAST, log=tmp_path / "a.log")
    db = database(pg_url)
    wait_for(lambda: (db.run(run_id) or {}).get("phase") == "p2" and _verifying(), why="p2's verification to start")
    time.sleep(random.uniform(0.0, 1.0))
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(10)
    wait_for(lambda: not _verifying(), timeout=10, why="the check to die with its worker")
    other = start_worker("--database", pg_url, "--workdir", str(tmp_path / "b"), "--once", *FAST, log=tmp_path / "b.log")
    assert other.wait(150) == 0, (tmp_path / "b.log").read_text()
    finished_once(pg_url, repo, run_id)


def _verifying() -> bool:
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if b"slow_check.py" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    return True
            except OSError:
                continue
    return False
