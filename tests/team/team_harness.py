"""A team scenario: a git repository holding the calc project, two-phase plans, the scripts each
session replays, and waiting on the team database."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from blueprint_harness import CALC, CHECK, EVIDENCE, PHASE_FIX, blueprint_text, edit, read, verdict, write_scripts
from team_processes import cli

from konstruct_tui.team import DatabaseTarget, TeamDatabase

PHASE_DOC = """
[[phases]]
id = "p2"
title = "Document mul"
goal = "mul() has a docstring"
relevant = ["calc.py"]
verify = ["python check_calc.py"]

[[phases.tasks]]
id = "t1"
text = "a docstring for mul"
"""
DOC = ("def mul(a, b):\n", "def mul(a, b):\n    \"\"\"The product of a and b.\"\"\"\n")
DOC_EVIDENCE = "calc.py line 6: mul() now opens with a docstring saying it returns the product"


def git(*args: str, cwd: Path) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


def make_repo(folder: Path, extra: dict[str, str] | None = None) -> Path:
    folder.mkdir(parents=True)
    git("init", "-q", "-b", "main", cwd=folder)
    for name, text in {"calc.py": CALC, "check_calc.py": CHECK, **(extra or {})}.items():
        (folder / name).write_text(text)
    git("add", "-A", cwd=folder)
    git("commit", "-qm", "start", cwd=folder)
    return folder


def two_phase_plan(folder: Path, *, p2_delay_s: float = 0.0, p1_first: list[dict[str, Any]] | None = None, phases: int = 2) -> tuple[Path, Path]:
    """The plan and its scripts; `p2_delay_s` makes phase p2's executor turn take that long
    (`phases=1`: phase p1 alone, for the scenarios about one question)."""
    slow = {"text": " ".join(["thinking"] * 20), "delay_s": p2_delay_s / 20} if p2_delay_s else None
    scripts = write_scripts(folder / "scripts", {
        "executor-p1": [*(p1_first or []), read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
        "executor-p2": [*([slow] if slow else []), read("calc.py"), edit("calc.py", *DOC)],
        "adjudicator-p2": [verdict("complete", {"t1": DOC_EVIDENCE})],
    })
    plan = folder / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX, PHASE_DOC) if phases == 2 else blueprint_text(PHASE_FIX))
    return plan, scripts


def database(url: str) -> TeamDatabase:
    return TeamDatabase.open(DatabaseTarget(url), create=False)


def wait_for(what: Callable[[], Any], timeout: float = 120, every: float = 0.2, why: str = "", state: Callable[[], Any] | None = None) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = what()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting: {why}" + (f"; state: {state()}" if state else ""))


# A worker that beats often and is taken for dead soon: recovery within seconds.
FAST = ("--heartbeat", "0.3", "--dead-after", "2")


def submit_scripted(plan: Path, scripts: Path, repo: Path, url: str) -> str:
    """`konstruct blueprint submit` of a scripted plan: the run id."""
    done = cli("blueprint", "submit", str(plan), "--repo", str(repo), "--provider", "scripted", "--script", str(scripts), "--database", url)
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["run"])


def finished_once(url: str, repo: Path, run_id: str) -> None:
    """The run is done, each phase closed once, and its branch pushed with both phases' work."""
    status = json.loads(cli("blueprint", "status", run_id, "--json", "--database", url).stdout)
    assert status["status"] == "done", status
    # Each phase closed once: once in the team's record (its key says so) and once in the run's own gate.
    assert sorted(c["phase_id"] for c in status["closed"]) == ["p1", "p2"]
    assert [(p["id"], p["status"], p["verdict"]) for p in status["phases"]] == [("p1", "closed", "complete"), ("p2", "closed", "complete")]
    report = cli("blueprint", "report", run_id, "--database", url).stdout
    assert report.count("**close**") == 2, report
    pushed = git("show", f"konstruct/{run_id}:calc.py", cwd=repo)
    assert "return a + b" in pushed and DOC[1].splitlines()[1] in pushed


def slow_first_phase(tmp_path: Path, seconds: float) -> tuple[Path, Path]:
    """The two-phase plan whose first executor turn takes `seconds` (streamed in 20 pieces)."""
    return two_phase_plan(tmp_path, p1_first=[{"text": " ".join(["thinking"] * 20), "delay_s": seconds / 20}])
