"""A hard link the person made into the workspace is written by replacement, never through: the
file's other names (here one outside the workspace) keep their bytes whatever a batch or undo does."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fault_harness import revision


@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "project"
    root.mkdir()
    outside = tmp_path / "outside.py"
    outside.write_text("".join(f"keep_{n} = {n}\n" for n in range(20)))
    os.link(outside, root / "linked.py")
    return root, outside


def _write(konstruct, root: Path, edits: list[dict], atomic: bool = False) -> dict:
    code, payload, err = konstruct("tool", "write_code", "--root", str(root), "--json", json.dumps({"edits": edits, "atomic": atomic}))
    assert code == 0, err
    return payload


def _edit(root: Path) -> dict:
    return {"path": "linked.py", "revision": revision(root, "linked.py"), "replacements": [{"old": "keep_3 = 3\n", "new": "keep_3 = 'changed'\n"}]}


def test_a_write_replaces_the_link_and_leaves_the_other_name_alone(konstruct, linked: tuple[Path, Path]) -> None:
    root, outside = linked
    original = outside.read_bytes()
    payload = _write(konstruct, root, [_edit(root)])
    assert payload["results"][0]["status"] == "written"
    assert "changed" in (root / "linked.py").read_text()
    assert outside.read_bytes() == original
    assert os.stat(root / "linked.py").st_nlink == 1 and os.stat(outside).st_nlink == 1
    code, _, err = konstruct("undo", "--root", str(root))
    assert code == 0, err
    assert (root / "linked.py").read_bytes() == original and outside.read_bytes() == original


def test_an_atomic_rollback_gives_the_link_back(konstruct, linked: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    import konstruct_tui.workspace.batch as batch

    root, outside = linked
    original, inode = outside.read_bytes(), os.stat(outside).st_ino
    real_apply = batch._apply

    def second_fails(workspace, plan, *keep):  # the second entry fails after the first has landed
        if plan.resolved == "second.py":
            raise batch.EntryFailed("rejected", "could not write 'second.py': Input/output error")
        return real_apply(workspace, plan, *keep)

    monkeypatch.setattr(batch, "_apply", second_fails)
    payload = _write(konstruct, root, [_edit(root), {"path": "second.py", "create": True, "content": "x\n"}], atomic=True)
    assert [e["status"] for e in payload["results"]] == ["rolled_back", "rejected"]
    assert "restored byte for byte" in payload["results"][0]["reason"]
    assert outside.read_bytes() == original
    assert os.stat(root / "linked.py").st_ino == inode  # the very file it was: still the person's link


def test_a_delete_removes_only_the_name_in_the_workspace(konstruct, linked: tuple[Path, Path]) -> None:
    root, outside = linked
    original = outside.read_bytes()
    code, payload, err = konstruct("tool", "delete_code", "--root", str(root), "--json",
                                   json.dumps({"paths": [{"path": "linked.py", "revision": revision(root, "linked.py")}]}))
    assert code == 0 and payload["results"][0]["status"] == "deleted", err
    assert not (root / "linked.py").exists() and outside.read_bytes() == original
