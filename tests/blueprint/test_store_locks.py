"""Locks are locks, not damage (issue #30, item 5): a run store another process is writing is waited
for, with a word and a bound, and never moved aside; `status` reads a store it may not write; a
second driver of one run (or of one session) is refused with the holder's pid."""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from blueprint_harness import EVIDENCE, PHASE_FIX, blueprint_text, edit, read, verdict, write_scripts

from konstruct_tui.blueprint.store import default_path


def _args(project: Path, tmp_path: Path) -> list[str]:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX))
    return ["blueprint", "run", str(plan), "--root", str(project), "--provider", "scripted", "--script", str(scripts)]


def _run_once(project: Path, tmp_path: Path, konstruct) -> str:
    (project / "calc.py").write_text((project / "calc.py").read_text().replace("a + b", "a - b"))
    code, out, err = konstruct(*_args(project, tmp_path))
    assert code == 0, err
    return out.split("run ", 1)[1].split(" ", 1)[0]


def _notes(recorded: pytest.WarningsRecorder) -> list[str]:
    return [str(w.message) for w in recorded if type(w.message).__module__.startswith("konstruct_tui")]


def test_a_store_another_process_is_writing_is_waited_for_and_never_moved_aside(
        project: Path, tmp_path: Path, konstruct, monkeypatch: pytest.MonkeyPatch, recwarn: pytest.WarningsRecorder) -> None:
    first = _run_once(project, tmp_path, konstruct)
    path = default_path()
    monkeypatch.setenv("KONSTRUCT_LOCK_WAIT_S", "0.5")
    writer = subprocess.Popen([sys.executable, "-c", (  # another konstruct in the middle of a write
        "import sqlite3, sys\n"
        f"db = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
        "db.execute('BEGIN EXCLUSIVE')\n"
        "db.execute(\"UPDATE runs SET updated = updated\")\n"
        "print('writing', flush=True)\n"
        "sys.stdin.read()\n")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "writing\n"
        (project / "calc.py").write_text((project / "calc.py").read_text().replace("a + b", "a - b"))
        code, _, err = konstruct(*_args(project, tmp_path))
        # A reader is not blocked by a writer (WAL): status answers while the run writes.
        status_code, status, _ = konstruct("blueprint", "status", first, "--json")
    finally:
        writer.communicate("")  # its stdin closes: it rolls back and exits
    assert code == 2 and "internal error" not in err and err.count("\n") == 1, err
    assert str(path) in err and "damaged" not in err
    assert f"held by another konstruct (pid {writer.pid})" in err  # who holds it, from /proc/locks
    assert any("waiting up to 0.5 s" in note and str(path) in note for note in _notes(recwarn))
    assert list(path.parent.glob("runs.sqlite3.damaged-*")) == []  # a live store is never set aside
    assert status_code == 0 and status["status"] == "done"
    assert _run_once(project, tmp_path, konstruct) != first  # free again: runs start and the first is kept
    assert konstruct("blueprint", "status", first, "--json")[1]["status"] == "done"


def test_a_store_that_checks_sound_is_not_moved_aside(project: Path, tmp_path: Path, konstruct, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is set aside unless PRAGMA integrity_check says it is damaged: an error on opening
    that the check does not confirm leaves the store in place, with one line."""
    from konstruct_tui.blueprint import store as store_module

    first = _run_once(project, tmp_path, konstruct)
    path = default_path()
    real_check = store_module.RunStore.check

    def flaky_check(self) -> None:  # type: ignore[no-untyped-def]
        raise store_module.StoreDamaged(store_module.damaged_message(self.path, "disk I/O error"))

    monkeypatch.setattr(store_module.RunStore, "check", flaky_check)
    (project / "calc.py").write_text((project / "calc.py").read_text().replace("a + b", "a - b"))
    code, _, err = konstruct(*_args(project, tmp_path))
    assert code == 2 and "integrity_check" in err and "left in place" in err and err.count("\n") == 1
    assert list(path.parent.glob("runs.sqlite3.damaged-*")) == []
    monkeypatch.setattr(store_module.RunStore, "check", real_check)
    assert konstruct("blueprint", "status", first, "--json")[1]["status"] == "done"


def test_status_and_report_read_a_store_they_cannot_write(project: Path, tmp_path: Path, konstruct) -> None:
    """As root, chmod cannot make a file read-only: the immutable attribute does (skipped where the
    file system or the container does not allow it)."""
    first = _run_once(project, tmp_path, konstruct)
    path = default_path()
    settle = sqlite3.connect(path)
    settle.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    settle.close()
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        with pytest.raises(PermissionError):
            path.open("ab").close()
        before = path.read_bytes()
        code, status, err = konstruct("blueprint", "status", first, "--json")
        assert code == 0 and status["status"] == "done", err
        code, listing, err = konstruct("blueprint", "status", "--json")
        assert code == 0 and [r["run_id"] for r in listing["runs"]] == [first], err
        code, report, err = konstruct("blueprint", "report", first)
        assert code == 0 and "## Audit trail" in report, err
        assert path.read_bytes() == before
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def _hold(lock: Path) -> int:
    """Hold `lock` as another konstruct would: locked, its pid inside."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def test_a_second_resume_of_one_run_is_refused_with_the_holders_pid(project: Path, tmp_path: Path, konstruct) -> None:
    run_id = _run_once(project, tmp_path, konstruct)
    db = sqlite3.connect(default_path())
    db.execute("UPDATE runs SET status = 'parked' WHERE id = ?", (run_id,))
    db.commit()
    db.close()
    holder = _hold(default_path().parent / "locks" / f"{run_id}.lock")
    try:
        code, _, err = konstruct("blueprint", "resume", run_id, "--provider", "scripted", "--script", str(tmp_path / "s"))
    finally:
        os.close(holder)
    assert code == 2 and err.count("\n") == 1 and "internal error" not in err
    assert f"run {run_id} is running in another process (pid {os.getpid()})" in err
    code, status, _ = konstruct("blueprint", "status", run_id, "--json")
    assert status["status"] == "parked"  # the refused resume changed nothing


def test_a_second_resume_of_one_session_is_refused_with_the_holders_pid(project: Path, tmp_path: Path, konstruct) -> None:
    from konstruct_tui.agent import sessions_dir

    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": [{"text": "Nothing to change."}] * 3}))
    code, out, err = konstruct("run", "--root", str(project), "--provider", "scripted", "--script", str(script), "look")
    assert code == 0, err
    session_id = (out if isinstance(out, str) else json.dumps(out)).split('"session_id": "', 1)[1].split('"', 1)[0]
    path = sessions_dir() / f"{session_id}.jsonl"
    before = path.read_bytes()
    holder = _hold(sessions_dir() / f"{session_id}.lock")
    try:
        code, _, err = konstruct("run", "--resume", session_id, "--provider", "scripted", "--script", str(script), "again")
    finally:
        os.close(holder)
    assert code == 2 and err.count("\n") == 1 and "internal error" not in err
    assert f"session {session_id} is being continued by another konstruct (pid {os.getpid()})" in err
    assert path.read_bytes() == before  # nothing of the second run interleaved into the session
    code, _, err = konstruct("run", "--resume", session_id, "--provider", "scripted", "--script", str(script), "again")
    assert code == 0, err  # released: the next resume goes ahead
