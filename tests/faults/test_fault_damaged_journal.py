"""Undo checks what it restores: a pre-image or manifest that does not verify makes it refuse in one
line (exit 2) and change nothing; a journal that cannot be written stops a batch before it starts."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_harness import journal_folder, revision, temp_files, tree


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text("".join(f"line_{n} = {n}\n" for n in range(40)))
    (root / "other.py").write_text("".join(f"other_{n} = {n}\n" for n in range(40)))
    return root


def edit(konstruct, root: Path, path: str, old: str, new: str) -> dict:
    arguments = {"edits": [{"path": path, "revision": revision(root, path), "replacements": [{"old": old, "new": new}]}]}
    code, payload, err = konstruct("tool", "write_code", "--root", str(root), "--json", json.dumps(arguments))
    assert code == 0, err
    return payload


def newest_batch() -> Path:
    batches = sorted(p for p in journal_folder().glob("*/*") if p.is_dir())
    return batches[-1]


def refused_in_one_line(konstruct, root: Path, *words: str) -> str:
    before = tree(root)
    code, payload, err = konstruct("undo", "--root", str(root))
    assert code == 2 and payload is None
    assert err.count("\n") == 1 and "internal error" not in err
    for word in words:
        assert word in err, err
    assert tree(root) == before, "a refused undo changed the workspace"
    return err


def test_a_truncated_pre_image_is_not_restored(konstruct, project: Path) -> None:
    edit(konstruct, project, "app.py", "line_3 = 3\n", "line_3 = 33\n")
    intent = newest_batch() / "intent"  # one line of JSON, then the pre-images
    raw = intent.read_bytes()
    pack_start = raw.index(b"\n") + 1
    intent.write_bytes(raw[: pack_start + (len(raw) - pack_start) // 2])
    err = refused_in_one_line(konstruct, project, "app.py", "does not match its hash", "konstruct undo --drop")
    assert "line_3 = 33" in (project / "app.py").read_text() and err


def test_a_pre_image_changed_in_place_is_not_restored(konstruct, project: Path) -> None:
    edit(konstruct, project, "app.py", "line_3 = 3\n", "line_3 = 33\n")
    intent = newest_batch() / "intent"
    data = bytearray(intent.read_bytes())
    data[data.index(b"\n") + 10] ^= 0x20  # one flipped bit in a pre-image, same length
    intent.write_bytes(bytes(data))
    refused_in_one_line(konstruct, project, "does not match its hash")


@pytest.mark.parametrize("damage", ["garbage", "truncated", "edited", "missing", "empty"])
def test_a_damaged_manifest_is_refused_by_name(konstruct, project: Path, damage: str) -> None:
    edit(konstruct, project, "app.py", "line_3 = 3\n", "line_3 = 33\n")
    manifest = newest_batch() / "manifest.json"
    text = manifest.read_text()
    if damage == "garbage":
        manifest.write_bytes(os.urandom(300))
    elif damage == "truncated":
        manifest.write_text(text[: len(text) // 2])
    elif damage == "edited":  # valid JSON, but not what was written: the checksum catches it
        manifest.write_text(text.replace('"app.py"', '"other.py"'))
    elif damage == "missing":
        manifest.unlink()
    else:
        manifest.write_text("")
    refused_in_one_line(konstruct, project, "manifest.json", newest_batch().name)


def test_a_manifest_less_batch_folder_blocks_undo_until_dropped(konstruct, project: Path) -> None:
    edit(konstruct, project, "app.py", "line_3 = 3\n", "line_3 = 33\n")
    real = newest_batch()
    stray = real.with_name("99999999999999999999-abcdef")  # newer than any real batch, and empty
    stray.mkdir()
    err = refused_in_one_line(konstruct, project, "99999999999999999999-abcdef", "is missing")
    # What the line says to do works: forget the damaged batch, and undo reaches the real one.
    code, payload, _ = konstruct("undo", "--root", str(project), "--drop", "99999999999999999999-abcdef")
    assert code == 0 and payload == {"dropped": "99999999999999999999-abcdef"} and err
    code, payload, err = konstruct("undo", "--root", str(project))
    assert code == 0, err
    assert "line_3 = 3\n" in (project / "app.py").read_text()


def test_drop_of_an_unknown_batch_is_bad_input(konstruct, project: Path) -> None:
    code, _, err = konstruct("undo", "--root", str(project), "--drop", "../../etc")
    assert code == 2 and "no such batch" in err


@pytest.fixture
def read_only_journal(private_user_dirs: Path) -> Iterator[Path]:
    """The journal folder on a read-only mount (root ignores permission bits, so chmod cannot make one)."""
    folder = journal_folder()
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        folder.chmod(0o500)
        yield folder
        folder.chmod(0o700)
        return
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("cannot make a read-only folder: running as root without the right to mount")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_journal_that_cannot_be_written_means_the_batch_does_not_start(konstruct, project: Path, read_only_journal: Path) -> None:
    before = tree(project)
    arguments = {"atomic": False, "edits": [
        {"path": "app.py", "revision": revision(project, "app.py"), "replacements": [{"old": "line_3 = 3\n", "new": "line_3 = 33\n"}]},
        {"path": "new.py", "create": True, "content": "x = 1\n"},
    ]}
    code, payload, err = konstruct("tool", "write_code", "--root", str(project), "--json", json.dumps(arguments))
    assert code == 0 and "internal error" not in err
    assert [e["status"] for e in payload["results"]] == ["rejected", "rejected"]
    assert all("undo journal cannot be written" in e["reason"] for e in payload["results"])
    assert "undo journal cannot be written" in payload["reason"] and payload["journal"] is None
    assert tree(project) == before and temp_files(project) == []


def test_undo_with_a_journal_it_cannot_write_restores_nothing(konstruct, project: Path, private_user_dirs: Path) -> None:
    edit(konstruct, project, "app.py", "line_3 = 3\n", "line_3 = 33\n")
    batch = newest_batch()
    workspace_folder = batch.parent
    if os.geteuid() == 0:
        if subprocess.run(["mount", "--bind", "-o", "ro", str(workspace_folder), str(workspace_folder)], capture_output=True).returncode != 0:
            pytest.skip("cannot make a read-only folder: running as root without the right to mount")
    else:
        workspace_folder.chmod(0o500)
    try:
        refused_in_one_line(konstruct, project, "cannot be written", "nothing was restored")
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", str(workspace_folder)], check=True)
        else:
            workspace_folder.chmod(0o700)
    code, _, err = konstruct("undo", "--root", str(project))  # writable again: the same batch undoes
    assert code == 0, err
    assert "line_3 = 3\n" in (project / "app.py").read_text()


def test_a_journal_folder_that_cannot_be_listed_is_said_in_one_line(konstruct, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edit(konstruct, project, "app.py", "line_3 = 3\n", "line_3 = 33\n")
    import konstruct_tui.workspace.journal as journal_module

    real_listdir = os.listdir

    def refused(path=".") -> list[str]:  # root reads any folder, so the refusal is injected
        if str(path).startswith(str(journal_folder())):
            raise PermissionError(13, "Permission denied", str(path))
        return real_listdir(path)

    monkeypatch.setattr(journal_module.os, "listdir", refused)
    refused_in_one_line(konstruct, project, "folder cannot be read", "Permission denied")
