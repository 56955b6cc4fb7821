"""A disk that fills up in the middle of a batch ends it as a result: an atomic batch rolled back
byte for byte, a non-atomic one stopped with exactly what landed, the reason naming the error, never
`internal error`. A small tmpfs is the full disk where the suite may mount one (we run as root in
CI); elsewhere the write of the Nth file is made to fail with ENOSPC in-process."""

from __future__ import annotations

import errno
import json
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fault_harness import changed, journal_folder, revision, temp_files, tree

FILES = 30
PAD = "# padding so the file grows by a few pages\n" * 200  # ~9 KiB, a pure insertion (no guard limit)


def _mount(folder: Path, options: str) -> bool:
    folder.mkdir(parents=True, exist_ok=True)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True).returncode == 0


@pytest.fixture(params=["tmpfs", "injected"])
def full_disk(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Callable[[], None]]]:
    """(a project on a small disk that a batch of FILES growing files fills, what makes room again)."""
    disk = tmp_path / "disk"
    if request.param == "tmpfs":
        if not _mount(disk, "size=256k"):
            pytest.skip("cannot mount a small tmpfs here (not root, or no right to mount); the injected case still runs")
        root = disk / "project"
        _make(root)
        ballast = disk / "ballast.bin"  # leaves room for a few of the batch's files, not all
        free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
        ballast.write_bytes(b"\0" * max(0, free - 6 * 12 * 1024))
        try:
            yield root, ballast.unlink
        finally:
            subprocess.run(["umount", str(disk)], check=True)
        return
    import konstruct_tui.workspace.swap as swap

    real = swap._write_temp
    writes = {"n": 0, "room": False}

    def filling(dir_fd: int, data: bytes, mode: int | None) -> str:
        writes["n"] += 1
        if writes["n"] > 5 and not writes["room"]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(dir_fd, data, mode)

    root = tmp_path / "project"
    _make(root)
    monkeypatch.setattr(swap, "_write_temp", filling)
    yield root, lambda: writes.update(room=True)


def _make(root: Path) -> None:
    root.mkdir(parents=True)
    for n in range(FILES):
        (root / f"m{n:02}.py").write_text(f"VALUE = {n}\n" + "".join(f"x{i} = {i}\n" for i in range(20)))


def _batch(root: Path, atomic: bool) -> dict:
    edits = [{"path": f"m{n:02}.py", "revision": revision(root, f"m{n:02}.py"),
              "replacements": [{"old": f"VALUE = {n}\n", "new": f"VALUE = {n}\n{PAD}"}]} for n in range(FILES)]
    return {"edits": edits, "atomic": atomic}


def _write(konstruct, root: Path, arguments: dict) -> tuple[dict, str]:
    code, payload, err = konstruct("tool", "write_code", "--root", str(root), "--json", json.dumps(arguments))
    assert code == 0 and "internal error" not in err, err
    assert isinstance(payload, dict)
    return payload, err


def test_disk_full_mid_atomic_batch_rolls_it_back(konstruct, full_disk: tuple[Path, Callable[[], None]]) -> None:
    root, _make_room = full_disk
    before = tree(root)
    payload, _ = _write(konstruct, root, _batch(root, atomic=True))
    statuses = [e["status"] for e in payload["results"]]
    failed = [e for e in payload["results"] if e["status"] == "rejected"]
    assert len(failed) == 1 and "No space left on device" in failed[0]["reason"]
    assert statuses.count("rolled_back") == FILES - 1
    assert "No space left on device" in payload["reason"]
    assert any("restored byte for byte" in e["reason"] for e in payload["results"]), "the disk filled before any entry landed"
    assert tree(root) == before and temp_files(root) == []
    assert payload["journal"] is None


def test_disk_full_mid_non_atomic_batch_stops_with_exactly_what_landed(konstruct, full_disk: tuple[Path, Callable[[], None]]) -> None:
    root, make_room = full_disk
    before = tree(root)
    payload, _ = _write(konstruct, root, _batch(root, atomic=False))
    landed = {e["path"] for e in payload["results"] if e["status"] == "written"}
    assert landed and len(landed) < FILES
    assert landed == changed(before, tree(root))
    stopped = [e for e in payload["results"] if e["status"] == "rejected"]
    assert "No space left on device" in stopped[0]["reason"]
    assert all("the batch stopped at entry" in e["reason"] for e in stopped[1:])
    assert "No space left on device" in payload["reason"] and payload["journal"]
    assert temp_files(root) == []
    make_room()  # the person makes room; undo then takes back exactly what landed
    code, result, err = konstruct("undo", "--root", str(root))
    assert code == 0, err
    assert {e["path"] for e in result["results"]} == landed
    assert tree(root) == before


@pytest.fixture
def full_journal(private_user_dirs: Path) -> Iterator[Path]:
    folder = journal_folder()
    if not _mount(folder, "size=16k"):
        pytest.skip("cannot fill the journal's disk: no right to mount a tmpfs here")
    try:
        (folder / "ballast").write_bytes(b"\0" * (os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize))
    except OSError:
        pass  # full
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_full_journal_disk_means_the_batch_does_not_start(konstruct, tmp_path: Path, full_journal: Path) -> None:
    root = tmp_path / "project"
    _make(root)
    before = tree(root)
    payload, _ = _write(konstruct, root, _batch(root, atomic=False))
    assert {e["status"] for e in payload["results"]} == {"rejected"}
    assert "undo journal cannot be written (No space left on device" in payload["reason"]
    assert tree(root) == before and temp_files(root) == []
