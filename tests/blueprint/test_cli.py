"""`konstruct blueprint` as a person uses it: run, status, report, resume."""

from __future__ import annotations

import json
from pathlib import Path

from blueprint_harness import (
    EVIDENCE,
    PHASE_FIX,
    blueprint_text,
    edit,
    read,
    verdict,
    write_scripts,
)


def test_a_run_reads_as_steps_and_leaves_status_and_a_report(project: Path, tmp_path: Path, konstruct) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX))
    code, out, err = konstruct("blueprint", "run", str(plan), "--root", str(project), "--provider", "scripted", "--script", str(scripts))
    assert code == 0, err
    assert "phase p1 attempt 1: Fix add" in out and "gate: close (adjudicator, verdict complete)" in out and "phase p1 closed: complete" in out
    run_id = out.split("run ", 1)[1].split(" ", 1)[0]

    code, listing, _ = konstruct("blueprint", "status", "--json")
    assert code == 0 and listing["runs"][0]["run_id"] == run_id and listing["runs"][0]["status"] == "done"
    code, status, _ = konstruct("blueprint", "status", run_id)
    assert code == 0 and f"Calc fixes ({run_id}): done" in status and "p1           closed" in status
    code, report, _ = konstruct("blueprint", "report", run_id)
    assert report.startswith("# Calc fixes") and "## Audit trail" in report and "## Verification" in report

    code, _, err = konstruct("blueprint", "resume", run_id)
    assert code == 2 and "is done; nothing to resume" in err


def test_the_watchdog_tick_is_set_from_the_command_line(project: Path, tmp_path: Path, konstruct) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [{"text": "Thinking", "hang": True}],
        "adjudicator-p1": [verdict("incomplete", {"t1": "calc.py line 2 still returns a - b, so add is still wrong"}, outstanding=("t1",))],
    })
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX))
    code, out, _ = konstruct("blueprint", "run", str(plan), "--root", str(project), "--provider", "scripted", "--script", str(scripts),
                             "--headless", "--max-retries", "0", "--watchdog-tick", "0.05", "--silent-after", "0.3")
    events = [json.loads(line) for line in out.splitlines()]
    assert code == 3 and events[-1]["reason"] == "stalled"
    assert [e["kind"] for e in events if e["event"] == "watchdog"] == ["silent"]
