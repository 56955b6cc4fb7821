"""A headless run killed with SIGKILL mid-phase resumes with `konstruct blueprint resume` and loses
nothing that was recorded: the closed phase stays closed, the cut-off attempt is re-run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from blueprint_harness import (
    DOC,
    EVIDENCE,
    PHASE_DOC,
    PHASE_FIX,
    blueprint_text,
    edit,
    engine_record,
    read,
    verdict,
    write_scripts,
)

def _konstruct(*args: str, env: dict[str, str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "konstruct_tui", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_sigkill_mid_run_then_resume(project: Path, tmp_path: Path, konstruct) -> None:
    env = dict(os.environ)
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
        "executor-p2": [read("calc.py"), {"text": "Let me think about mul", "hang": True}],
        "adjudicator-p2": [verdict("complete", {"t1": DOC})],
    })
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX, PHASE_DOC))
    child = _konstruct("blueprint", "run", str(plan), "--root", str(project), "--provider", "scripted",
                       "--script", str(scripts), "--headless", env=env, cwd=tmp_path)
    events = []
    deadline = time.monotonic() + 30
    assert child.stdout is not None
    while time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        events.append(json.loads(line))
        if events[-1]["event"] == "tool_finished" and events[-1]["tool"] == "read_code" and any(e["event"] == "phase_started" and e["phase"] == "p2" for e in events):
            break
    run_id = events[0]["session_id"]
    code, _, err = konstruct("blueprint", "resume", run_id)  # while it still runs: refused, nothing touched
    assert code == 2 and "is running in another process" in err
    child.send_signal(signal.SIGKILL)
    child.wait(10)
    assert events[0]["event"] == "session_started"
    run_id = events[0]["session_id"]
    assert any(e["event"] == "phase_closed" and e["phase"] == "p1" for e in events)

    from konstruct_tui.blueprint import default_path

    # The engine's record of the cut-off run: its workflow pending, the units it finished recorded.
    [(_, status, _, steps)] = engine_record(default_path(), run_id)
    assert status == "PENDING" and [s[1]["unit"] for s in steps][:4] == ["baseline p1", "attempt p1.1", "verify p1.1", "adjudicate p1.1"]
    # Another run starting in another process never takes the cut-off run up by itself: only the
    # person's `resume` does (each process is an executor of its own).
    other = tmp_path / "other"
    other.mkdir()
    (other / "calc.py").write_text((project / "calc.py").read_text())
    (other / "check_calc.py").write_text((project / "check_calc.py").read_text())
    quick = tmp_path / "quick.toml"
    quick.write_text(blueprint_text(PHASE_FIX))
    code, _, err = konstruct("blueprint", "run", str(quick), "--root", str(other), "--provider", "scripted", "--script",
                             str(write_scripts(tmp_path / "s2", {"executor-p1": [read("calc.py")]})), "--headless", "--max-retries", "0")
    assert code in (1, 3), err
    assert [w[1] for w in engine_record(default_path(), run_id)] == ["PENDING"]

    code, before, _ = konstruct("blueprint", "status", run_id, "--json")
    assert code == 0
    assert [(p["id"], p["status"]) for p in before["phases"]] == [("p1", "closed"), ("p2", "running")]

    (scripts / "executor-p2.json").write_text(json.dumps({"turns": [
        read("calc.py"), edit("calc.py", "def mul(a, b):\n", "def mul(a, b):\n    \"\"\"The product.\"\"\"\n")]}))
    resumed = subprocess.run([sys.executable, "-m", "konstruct_tui", "blueprint", "resume", run_id, "--headless"],
                             env=env, capture_output=True, text=True, timeout=60, check=False)
    assert resumed.returncode == 0, resumed.stderr
    lines = [json.loads(line) for line in resumed.stdout.splitlines()]
    assert lines[0]["event"] == "session_started" and lines[0]["resumed"] is True and lines[0]["session_id"] == run_id
    assert [e["phase"] for e in lines if e["event"] == "phase_started"] == ["p2"]  # p1 stayed closed
    assert lines[-1]["event"] == "finished" and lines[-1]["reason"] == "done"
    assert '"""The product."""' in (project / "calc.py").read_text() and "a + b" in (project / "calc.py").read_text()

    code, report, _ = konstruct("blueprint", "report", run_id)
    assert code == 0 and isinstance(report, str)
    assert "## Phase p1: Fix add" in report and "## Phase p2: Document mul" in report
    assert "Not written yet" not in report
    assert report.count("**close**") == 2  # the audit trail: both phase closes
    from konstruct_tui.blueprint import RunStore

    store = RunStore()  # what the killed process recorded is still there, beside what the resume added
    interrupted = [x["id"] for x in store.sessions(run_id, "p2") if x["reason"] == "interrupted"]
    assert len(interrupted) == 1
    assert [c.tool for c in store.calls(run_id, "p2") if c.session_id == interrupted[0]] == ["read_code"]
    code, after, _ = konstruct("blueprint", "status", run_id, "--json")
    assert after["status"] == "done" and [p["status"] for p in after["phases"]] == ["closed", "closed"]
    # The resume was the run's next workflow; the cut-off one is cancelled, none stays pending.
    record = engine_record(default_path(), run_id)
    assert [(w, s) for w, s, _, _ in record] == [(run_id, "CANCELLED"), (f"{run_id}~1", "SUCCESS")]
    assert record[1][2]["reason"] == "done" and [s[1]["unit"] for s in record[1][3]] == ["baseline p2", "attempt p2.1", "adjudicate p2.1"]
