"""The runs screen's reading of the run store: read-only (nothing created, migrated or written),
newest first and per project, and stop/resume that touch only the process that drives the run."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from konstruct_tui.app import list_runs, open_run_store, read_run, start_resume, stop_run
from konstruct_tui.blueprint import RunStore, StoreDamaged, StoreUnusable, owner_token, render_report
from konstruct_tui.blueprint.failures import FailureImplication
from konstruct_tui.blueprint.gate import executable
from konstruct_tui.blueprint.store import GateRecord
from konstruct_tui.blueprint.verification import VerifyResult, output_excerpt

PLAN = 'title = "T"\n\n[[phases]]\nid = "p1"\ntitle = "One"\ngoal = "g"\n\n[[phases.tasks]]\nid = "t1"\ntext = "do it"\n'


def _store(path: Path, *runs: tuple[str, Path, str | None]) -> None:
    store = RunStore(path)
    for run_id, root, owner in runs:
        store.create_run(run_id, f"title {run_id}", "plan.toml", PLAN, str(root), {"provider": "scripted"}, ["p1"], owner=owner)
    store.close()


def test_no_store_is_none_and_nothing_is_created(tmp_path: Path) -> None:
    path = tmp_path / "blueprint" / "runs.sqlite3"
    assert open_run_store(path) is None
    assert not path.exists()


def test_runs_are_listed_newest_first_for_this_project_only(tmp_path: Path) -> None:
    path, mine, other = tmp_path / "runs.sqlite3", tmp_path / "mine", tmp_path / "other"
    mine.mkdir(), other.mkdir()
    _store(path, ("bp-1", mine, None), ("bp-2", other, None), ("bp-3", mine, owner_token()))
    store = open_run_store(path)
    assert store is not None
    assert [r.run_id for r in list_runs(store, mine)] == ["bp-3", "bp-1"]
    assert [r.run_id for r in list_runs(store, None)] == ["bp-3", "bp-2", "bp-1"]
    row = list_runs(store, mine)[0]
    assert (row.status, row.phase, row.worker) == ("running", "p1", "this workbench")
    view = read_run(store, "bp-1")
    assert view is not None and [p.title for p in view.phases] == ["One"] and read_run(store, "bp-9") is None


def test_reading_never_writes_nor_migrates(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    _store(path, ("bp-1", tmp_path, None))
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=1")  # an older konstruct's store: `blueprint run` would migrate it, reading must not
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreUnusable, match="schema version 1"):
        open_run_store(path)
    assert path.read_bytes() == before
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=2")
    db.close()
    store = open_run_store(path)
    assert store is not None
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        store.db.execute("UPDATE runs SET status='done'")


def test_a_damaged_store_is_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    path.write_bytes(b"not a database at all, just some bytes " * 200)
    with pytest.raises(StoreDamaged) as caught:
        open_run_store(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_stop_signals_only_the_process_that_drives_the_run(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        real = owner_token(sleeper.pid)
        pid_part, host = real.split("@")
        reused = f"{sleeper.pid}:1@{host}"  # the same pid, another start time: a different process
        _store(path, ("bp-live", tmp_path, real), ("bp-reused", tmp_path, reused), ("bp-far", tmp_path, f"{sleeper.pid}:5@elsewhere"))
        store = open_run_store(path)
        assert store is not None
        rows = {r.run_id: r for r in list_runs(store)}
        assert rows["bp-reused"].status == "interrupted"
        assert "not running (interrupted)" in stop_run(rows["bp-reused"])
        assert "another host" in stop_run(rows["bp-far"])
        assert sleeper.poll() is None  # neither touched it
        assert "asked process" in stop_run(rows["bp-live"])
        assert sleeper.wait(10) != 0
    finally:
        if sleeper.poll() is None:
            sleeper.kill()


def test_resume_is_refused_for_a_running_or_done_run(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    _store(path, ("bp-run", tmp_path, owner_token()), ("bp-done", tmp_path, None))
    writer = RunStore(path)
    writer.set_run("bp-done", "done", "done", "all phases closed")
    writer.close()
    store = open_run_store(path)
    assert store is not None
    rows = {r.run_id: r for r in list_runs(store)}
    assert "only a parked, stalled or interrupted run resumes" in str(start_resume(rows["bp-run"]))
    assert "is done" in str(start_resume(rows["bp-done"]))
    assert rows["bp-done"].next_step is None


def test_a_failing_checks_own_output_is_in_its_veto_and_the_report(tmp_path: Path) -> None:
    output = "\n".join(f"line {n}" for n in range(40)) + "\nREADME lacks a Usage section"
    result = VerifyResult("python check_doc.py", "failed", 1, output, FailureImplication((), (), ()), 0, True)
    [veto] = executable([result])
    assert veto.message.startswith("`python check_doc.py` failed (exit 1): the output names no file")
    assert "line 0" in veto.message and "README lacks a Usage section" in veto.message  # head and tail
    assert "more lines" in veto.message and "line 20" not in veto.message  # the middle is cut, and says so
    assert output_excerpt("") == []

    path = tmp_path / "runs.sqlite3"
    _store(path, ("bp-1", tmp_path, None))
    store = RunStore(path)
    store.record_verification("bp-1", "p1", 1, "python check_doc.py", 0, 1, "failed", output, [])
    store.record_gate("bp-1", GateRecord("p1", 1, "stalled", "executable", "incomplete", ("veto:verify_failed",),
                                         {"vetoes": [{"rung": "executable", "code": "verify_failed", "message": veto.message}]}),
                      audit={"kind": "gate", "tier": "executable", "detail": {"attempt": 1, "decision": "stalled",
                                                                             "vetoes": [{"message": veto.message}]}})
    from konstruct_tui.blueprint import parse_blueprint
    from konstruct_tui.blueprint.report import write_final_sections, write_phase_section

    blueprint = parse_blueprint(PLAN)
    write_phase_section(store, "bp-1", blueprint, blueprint.phases[0], "stalled")
    write_final_sections(store, "bp-1", blueprint, "stalled", "stalled", "phase p1 stalled")
    report = render_report(store, "bp-1")
    assert report.count("README lacks a Usage section") == 3  # the phase's last gate, the verification, the audit trail
    assert "```text" in report and "- veto: `python check_doc.py` failed (exit 1)" in report
    assert os.path.exists(path)


def test_an_attached_run_counts_each_phases_tool_calls_and_names_the_last(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    _store(path, ("bp-1", tmp_path, None))
    store = RunStore(path)
    store.start_session("s1", "bp-1", "p1", 1, "executor")
    store.record_call("s1", "bp-1", "p1", "executor", "read_code", {"paths": ["a.py"]}, True, {"results": []})
    store.record_call("s1", "bp-1", "p1", "executor", "write_code", {"edits": []}, False, {"error": "conflict"})
    store.close()
    reader = open_run_store(path)
    assert reader is not None
    view = read_run(reader, "bp-1")
    assert view is not None
    [phase] = view.phases
    assert (phase.calls, phase.last_call) == (2, "executor write_code failed")
    assert phase.sessions == (("executor", 1, "s1", "open"),)
