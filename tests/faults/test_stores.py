"""Every store of ours × the same faults (issue #30, item 4), through the CLI as a person meets them.

Stores: the code graph index (SQLite, a cache), a session file (JSON lines), config.toml, trust.json
and the blueprint run store (SQLite). Faults: cut in half, overwritten with random bytes, emptied,
a newer or foreign layout, unreadable, a folder where the file should be. Each answer is either the
store working (a cache rebuilt, a torn line cut off, a damaged trust file moved aside — each said in
one line) or one line on stderr naming the file, exit 2, and nothing on disk changed. Never
`internal error`, never a traceback.

Tests run as root, where `chmod 000` changes nothing: "unreadable" is simulated where the store is
opened (Path.open for the JSON and TOML files, sqlite3.connect for the databases), with the error
the kernel gives a process without read permission.
"""

from __future__ import annotations

import errno
import json
import os
import pathlib
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from konstruct_tui.cli import main

FAULTS = ("truncated", "garbage", "empty", "newer", "unreadable", "directory")


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def files_under(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder under `folder` (None for a folder), leaving out lock files and SQLite's
    -wal/-shm companions, which come and go with any open connection."""
    found: dict[str, bytes | None] = {}
    for path in sorted(folder.rglob("*")):
        if path.name.endswith((".lock", "-wal", "-shm")):
            continue
        if path.is_dir():
            found[path.relative_to(folder).as_posix()] = None
        else:
            with open(path, "rb") as handle:  # not Path.open: the unreadable fault patches that
                found[path.relative_to(folder).as_posix()] = handle.read()
    return found


def unreadable(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """Opening `target` fails as it does without read permission (as root, chmod would not)."""
    real_open = pathlib.Path.open
    real_connect = sqlite3.connect

    def path_open(self: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.path.realpath(self) == os.path.realpath(target):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    def connect(database, *args, **kwargs):  # type: ignore[no-untyped-def]
        name = str(database).removeprefix("file:").split("?", 1)[0]
        if name.startswith("//"):
            name = name[2:]
        if os.path.realpath(name) == os.path.realpath(target):
            raise sqlite3.OperationalError("unable to open database file")
        return real_connect(database, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "open", path_open)
    monkeypatch.setattr(sqlite3, "connect", connect)


def damage(path: Path, fault: str, newer: Callable[[Path], None]) -> None:
    healthy = path.read_bytes()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    if fault == "truncated":
        path.write_bytes(healthy[: len(healthy) // 2])
    elif fault == "garbage":
        path.write_bytes(os.urandom(max(len(healthy), 4096)))
    elif fault == "empty":
        path.write_bytes(b"")
    elif fault == "newer":
        newer(path)
    elif fault == "directory":
        path.unlink()
        path.mkdir()
        (path / "something").write_text("kept\n")


def notes(recorded: pytest.WarningsRecorder) -> list[str]:
    """Our own notes (warnings). The CLI prints each as one `konstruct: warning: ...` line on stderr
    (cli._one_line_warnings); in-process, pytest records them instead."""
    return [str(w.message) for w in recorded if type(w.message).__module__.startswith("konstruct_tui")]


def one_line(code: int, err: str, path: Path) -> None:
    assert "internal error" not in err and "Traceback" not in err
    assert code == 2, err
    assert err.count("\n") == 1 and str(path) in err, err


@dataclass
class Case:
    root: Path  # the user dirs: everything a store of ours lives in
    project: Path
    tmp: Path


@pytest.fixture
def case(private_user_dirs: Path, tmp_path: Path) -> Case:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (project / "main.py").write_text("from calc import add\n\nprint(add(1, 2))\n")
    return Case(private_user_dirs, project, tmp_path)


def script(case: Case, name: str = "script.json") -> Path:
    path = case.tmp / name
    path.write_text(json.dumps({"turns": [{"text": "Nothing to change."}] * 3}))  # a resume asks for turn 2
    return path


# -- the code graph index ---------------------------------------------------------------------


def _foreign_index(path: Path) -> None:
    path.unlink()
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE meta (name TEXT, other TEXT)")  # someone else's layout at our path
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()


@pytest.mark.parametrize("fault", FAULTS)
def test_the_index(case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, recwarn: pytest.WarningsRecorder,
                   fault: str) -> None:
    from konstruct_tui.graph import index_path

    assert run_cli(capsys, "index", "--root", str(case.project))[0] == 0
    path = index_path(case.project)
    damage(path, fault, _foreign_index)
    if fault == "unreadable":
        unreadable(monkeypatch, path)
    before = files_under(case.root)
    code, out, err = run_cli(capsys, "index", "--root", str(case.project))
    assert "internal error" not in err and "Traceback" not in err
    if fault in ("unreadable", "directory"):  # not damage: named, and left exactly as it was
        one_line(code, err, path)
        assert "konstruct index" in err and files_under(case.root) == before
        return
    # Damage: it is a cache, built again from the sources (with a note when it was damaged).
    assert code == 0 and "Indexed 2 files" in out
    if fault in ("truncated", "garbage"):
        [note] = notes(recwarn)
        assert str(path) in note and "was damaged" in note and "rebuilt from the sources" in note
    code, out, _ = run_cli(capsys, "graph", "export", "--root", str(case.project), "--format", "json")
    assert code == 0 and ["main.py", "calc.py"] in json.loads(out)["edges"]


# -- a session file ---------------------------------------------------------------------------


def _foreign_session(path: Path) -> None:
    path.write_text(json.dumps({"format": "someone else's", "version": 99}) + "\n")


@pytest.mark.parametrize("fault", FAULTS)
def test_a_session_file(case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                        recwarn: pytest.WarningsRecorder, fault: str) -> None:
    from konstruct_tui.agent import sessions_dir

    code, out, err = run_cli(capsys, "run", "--root", str(case.project), "--provider", "scripted", "--script", str(script(case)), "look")
    assert code == 0, err
    session_id = json.loads(out.splitlines()[0])["session_id"]
    path = sessions_dir() / f"{session_id}.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    if fault == "truncated":  # a crash mid-write: the last line torn, every line before it whole
        path.write_bytes(b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
    else:
        damage(path, fault, _foreign_session)
    if fault == "unreadable":
        unreadable(monkeypatch, path)
    before = files_under(case.root)
    resume = ("run", "--resume", session_id, "--provider", "scripted", "--script", str(script(case, "again.json")), "go on")
    code, out, err = run_cli(capsys, *resume)
    if fault != "truncated":
        one_line(code, err, path)
        assert "start a new session" in err and files_under(case.root) == before
        return
    # Repaired, not refused: the torn piece is cut off, every line before it kept, and said so.
    assert code == 0, err
    assert "internal error" not in err and str(path) in err and "torn by a crash" in err  # what load left out
    [note] = notes(recwarn)
    assert str(path) in note and "cut off and every line before it kept" in note
    kept = path.read_bytes()
    assert kept.startswith(b"".join(lines[:-1])) and lines[-1][: len(lines[-1]) // 2] not in kept
    assert all(json.loads(line) for line in kept.splitlines())  # no line glued to the torn piece
    events = [json.loads(line) for line in out.splitlines()]
    assert events[0]["session_id"] == session_id and events[-1]["reason"] == "done"


# -- config.toml ------------------------------------------------------------------------------


def _config_with_a_wrong_type(path: Path) -> None:
    path.write_text('turn_deadline_s = "soon"\n')


@pytest.mark.parametrize("fault", FAULTS)
def test_the_config_file(case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    from konstruct_tui.providers import config_path

    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('# my settings\nprovider = "openai"\n\n[openai]\nmodel = "gpt-4o-mini"\nbase_url = "http://127.0.0.1:9/v1"\n')
    damage(path, fault, _config_with_a_wrong_type)
    if fault == "truncated":
        path.write_text('provider = "open')  # cut inside a string, as a crash mid-save leaves it
    if fault == "unreadable":
        unreadable(monkeypatch, path)
    before = files_under(case.root)
    code, out, err = run_cli(capsys, "run", "--root", str(case.project), "--provider", "scripted", "--script", str(script(case)), "look")
    if fault == "empty":  # every key is optional: an empty file is a valid one
        assert code == 0, err
        return
    one_line(code, err, path)
    assert files_under(case.root) == before
    if fault in ("truncated", "newer"):
        assert "line 1" in err or "turn_deadline_s" in err  # the line (or key) to fix
    assert "move the file aside" in err or "move it aside" in err or "must be" in err


# -- trust.json -------------------------------------------------------------------------------


def _newer_trust(path: Path) -> None:
    path.write_text(json.dumps({"version": 99, "projects": {}}))


@pytest.mark.parametrize("fault", FAULTS)
def test_the_trust_store(case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    from konstruct_tui.trust import TrustStore

    assert run_cli(capsys, "trust", "grant", "edit", "--root", str(case.project))[0] == 0
    path = TrustStore().path
    damage(path, fault, _newer_trust)
    if fault == "unreadable":
        unreadable(monkeypatch, path)
    code, out, err = run_cli(capsys, "trust", "list", "--root", str(case.project))
    # The documented move-aside: kept as trust.json.corrupt-<time>, failing closed (no grants, and
    # allowlist mode with nothing allowed) until the person repairs it or runs `trust reset`.
    assert code == 0 and "internal error" not in err
    assert json.loads(out)["grants"] == []
    assert err.count("\n") == 1 and str(path) in err and "konstruct trust reset" in err
    [aside] = path.parent.glob("trust.json.corrupt-*")
    assert aside.exists()
    code, out, _ = run_cli(capsys, "policy", "show", "--root", str(case.project))
    assert code == 0 and json.loads(out)["allowlist_mode"] is True and json.loads(out)["locked"] is True  # never more permissive


def test_a_trust_store_that_cannot_be_written_is_one_line_and_unchanged(
        case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """An immutable trust.json (or a read-only folder): the grant fails in one line, the old file stays."""
    from konstruct_tui.trust import TrustStore

    assert run_cli(capsys, "trust", "grant", "edit", "--root", str(case.project))[0] == 0
    path = TrustStore().path
    before = files_under(case.root)
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.path.realpath(dst) == os.path.realpath(path):
            raise PermissionError(errno.EPERM, "Operation not permitted")
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    code, _, err = run_cli(capsys, "trust", "grant", "commands", "--root", str(case.project))
    one_line(code, err, path)
    assert "Operation not permitted" in err and files_under(case.root) == before  # no temp file left either


def test_a_locked_trust_store_waits_says_so_and_gives_up_in_one_line(
        case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, recwarn: pytest.WarningsRecorder) -> None:
    """Another process granting: we say we wait, wait a bounded time, then say who holds it."""
    import fcntl

    from konstruct_tui.trust import TrustStore

    assert run_cli(capsys, "trust", "grant", "edit", "--root", str(case.project))[0] == 0
    path = TrustStore().path
    before = files_under(case.root)
    monkeypatch.setenv("KONSTRUCT_LOCK_WAIT_S", "0.3")
    holder = os.open(f"{path}.lock", os.O_RDWR)
    fcntl.flock(holder, fcntl.LOCK_EX)  # flock locks belong to the open file: this one blocks ours
    try:
        code, _, err = run_cli(capsys, "trust", "grant", "commands", "--root", str(case.project))
    finally:
        os.close(holder)
    one_line(code, err, path)
    assert "held by another konstruct" in err and "waited 0.3 s" in err
    [waiting] = notes(recwarn)  # said before waiting, not only after
    assert "waiting up to 0.3 s" in waiting and str(path) in waiting
    assert files_under(case.root) == before
    assert run_cli(capsys, "trust", "grant", "commands", "--root", str(case.project))[0] == 0  # free again: it lands


# -- the blueprint run store ------------------------------------------------------------------


def _newer_runs(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()


@pytest.mark.parametrize("fault", FAULTS)
def test_the_run_store(case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    from konstruct_tui.blueprint import RunStore, default_path

    store = RunStore(default_path())  # a store as the first run leaves it: the schema, no run yet
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    path = default_path()
    damage(path, fault, _newer_runs)
    if fault == "unreadable":
        unreadable(monkeypatch, path)
    before = files_under(case.root)
    for argv in (("blueprint", "status"), ("blueprint", "status", "--json"), ("blueprint", "report", "20260101-000000-abcdef")):
        code, out, err = run_cli(capsys, *argv)
        one_line(code, err, path)
        if fault in ("truncated", "garbage", "empty"):
            assert "is damaged" in err and "konstruct blueprint run" in err
        elif fault == "newer":
            assert "schema version 99" in err and "move the file aside" in err
        else:
            assert ("is not a file" if fault == "directory" else "cannot be opened") in err, err
    assert files_under(case.root) == before  # the reading commands never repair, move or rewrite


def test_a_session_file_that_cannot_be_written_stops_the_run_in_one_line(
        case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """An immutable session file (or a full disk): the resumed run stops at its first write with one
    line naming the file, and what the session held stays as it was."""
    from konstruct_tui.agent import sessions_dir

    code, out, err = run_cli(capsys, "run", "--root", str(case.project), "--provider", "scripted", "--script", str(script(case)), "look")
    session_id = json.loads(out.splitlines()[0])["session_id"]
    path = sessions_dir() / f"{session_id}.jsonl"
    before = path.read_bytes()
    real_open = os.open

    def refusing_open(name, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.path.realpath(name) == os.path.realpath(path) and flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(errno.EPERM, "Operation not permitted")
        return real_open(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    code, _, err = run_cli(capsys, "run", "--resume", session_id, "--provider", "scripted", "--script", str(script(case, "again.json")), "go on")
    one_line(code, err, path)
    assert "cannot write the session file" in err and "Operation not permitted" in err
    assert path.read_bytes() == before


def test_an_index_another_process_is_writing_is_left_alone(
        case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Locked is not damaged: the index is waited for, then one line; the live file is never deleted."""
    from konstruct_tui.graph import index_path

    assert run_cli(capsys, "index", "--root", str(case.project))[0] == 0
    path = index_path(case.project)
    (case.project / "more.py").write_text("from calc import add\n")  # so the next index must write
    monkeypatch.setenv("KONSTRUCT_LOCK_WAIT_S", "0.3")
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    writer.execute("INSERT OR REPLACE INTO meta VALUES ('being', 'written')")
    try:
        code, _, err = run_cli(capsys, "index", "--root", str(case.project))
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    one_line(code, err, path)
    assert "held by another konstruct" in err and "waited 0.3 s" in err and "damaged" not in err
    code, out, _ = run_cli(capsys, "index", "--root", str(case.project))
    assert code == 0 and "Indexed 3 files" in out and "cold build" not in out  # the same index, kept and refreshed


def test_an_index_that_cannot_be_written_is_one_line(case: Case, capsys: pytest.CaptureFixture[str]) -> None:
    """Read-only (immutable: as root, chmod would not stop a write): named, and not deleted."""
    import subprocess

    from konstruct_tui.graph import index_path

    assert run_cli(capsys, "index", "--root", str(case.project))[0] == 0
    path = index_path(case.project)
    settle = sqlite3.connect(path)
    settle.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    settle.close()
    (case.project / "more.py").write_text("from calc import add\n")
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        before = path.read_bytes()
        code, _, err = run_cli(capsys, "index", "--root", str(case.project))
        one_line(code, err, path)
        assert "readonly" in err and "konstruct index" in err and path.read_bytes() == before
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
