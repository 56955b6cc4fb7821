"""A run's store as the team database keeps it: compressed, read back byte for byte by any reader
(`TeamDatabase.store`), an image kept before compression still read, a damaged one refused in one
line, and a step that changed nothing in the store does not write it again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from konstruct_tui.blueprint import RunStore
from konstruct_tui.team import DatabaseProblem, DatabaseTarget, TeamDatabase
from konstruct_tui.team.records import stores


def _team(tmp_path: Path) -> TeamDatabase:
    db = TeamDatabase.open(DatabaseTarget(f"sqlite:///{tmp_path / 'team.sqlite3'}"), create=True)
    db.add_run({"run_id": "bp-1", "title": "t", "source": "plan.toml", "blueprint": "", "repo": "/r", "ref": None, "base": "0" * 40,
                "model": "{}", "options": "{}", "approval_timeout": None, "status": "queued", "continuation": 0, "stop_requested": 0})
    return db


def _image(tmp_path: Path) -> bytes:
    store = RunStore(tmp_path / "runs.sqlite3")
    store.create_run("bp-1", "Calc fixes", "plan.toml", "title = 'x'", str(tmp_path), {"provider": "scripted"}, ["p1", "p2"])
    store.close()
    connection = sqlite3.connect(tmp_path / "runs.sqlite3")
    try:
        return connection.serialize()
    finally:
        connection.close()


def _kept(db: TeamDatabase) -> bytes:
    with db.transaction() as connection:
        return bytes(connection.execute(sa.select(stores.c.data).where(stores.c.run_id == "bp-1")).scalar_one())


def test_readers_get_the_run_store_back_as_it_was_and_it_is_kept_small(tmp_path: Path) -> None:
    db = _team(tmp_path)
    image = _image(tmp_path)
    db.record_step("bp-1", image, [("p1", "complete")], "w1", status="running")
    assert db.store("bp-1") == image
    assert len(_kept(db)) * 5 < len(image)  # mostly empty pages: far smaller as kept
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(db.store("bp-1") or b"")
    reopened = RunStore.read_only(copy)
    assert reopened is not None and reopened.run("bp-1") is not None and [p.phase_id for p in reopened.phases("bp-1")] == ["p1", "p2"]
    reopened.close()
    assert [c["phase_id"] for c in db.closures("bp-1")] == ["p1"]


def test_a_step_that_left_the_store_as_it_was_does_not_write_it_again(tmp_path: Path) -> None:
    db = _team(tmp_path)
    image = _image(tmp_path)
    db.record_step("bp-1", image, [], "w1", status="running")
    with db.transaction() as connection:
        before = connection.execute(sa.select(stores.c.updated).where(stores.c.run_id == "bp-1")).scalar_one()
    db.record_step("bp-1", None, [], "w1", status="waiting_approval")
    with db.transaction() as connection:
        assert connection.execute(sa.select(stores.c.updated).where(stores.c.run_id == "bp-1")).scalar_one() == before
    assert db.store("bp-1") == image and db.run("bp-1")["status"] == "waiting_approval"


def test_an_image_kept_before_compression_is_read_and_a_damaged_one_is_one_line(tmp_path: Path) -> None:
    db = _team(tmp_path)
    image = _image(tmp_path)
    with db.transaction() as connection:
        connection.execute(stores.insert().values(run_id="bp-1", data=image, updated=0.0))
    assert db.store("bp-1") == image
    begun = db.begin_step("bp-1", "w1")
    assert begun is not None and begun[1] == image
    with db.transaction() as connection:
        connection.execute(stores.update().values(data=b"\x78\x01 not zlib at all"))
    with pytest.raises(DatabaseProblem) as problem:
        db.store("bp-1")
    assert "bp-1" in str(problem.value) and "damaged" in str(problem.value) and "\n" not in str(problem.value)


def test_scratch_stores_of_dead_workers_are_cleared_and_live_ones_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import subprocess
    import sys

    from konstruct_tui.team import step

    monkeypatch.setattr(step, "_scratch_root", lambda: str(tmp_path))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    dead = tmp_path / f"konstruct-store-{gone.stdout.strip()}-bp-1-abc"
    alive = tmp_path / f"konstruct-store-{os.getpid()}-bp-2-def"
    other = tmp_path / "konstruct-store-notapid-x"
    for folder in (dead, alive, other):
        folder.mkdir()
        (folder / "runs.sqlite3").write_bytes(b"x")
    step.clear_stale_scratch()
    assert not dead.exists() and alive.exists() and other.exists()
