"""Attacks on the journal's own rules: a batch another process is applying is never "recovered",
two edits of one file killed between them still roll back to the first pre-image, and a journal
written by the previous format still undoes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fault_harness import revision, tree

from konstruct_tui.workspace import EditRequest, UndoRefused, Workspace, WriteJournal, apply_edits, recover_interrupted, undo_last
from konstruct_tui.workspace.intent import IntendedFile


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "app.py").write_text("".join(f"line_{n} = {n}\n" for n in range(40)))
    return project


def test_a_batch_being_applied_is_left_to_its_owner(root: Path) -> None:
    with Workspace(root) as workspace:
        journal = WriteJournal(root)
        live = journal.begin("write_code", True, [IntendedFile("app.py", (root / "app.py").read_bytes(), 0o644, ("sha256:" + "1" * 64,))])
        try:
            assert recover_interrupted(workspace, journal) == []
            assert [p.name for p in journal.interrupted()] == [f"{live.batch_id}.open"]
            with pytest.raises(UndoRefused, match="being applied or undone by another konstruct"):
                undo_last(workspace, journal)
        finally:
            live.abandon()
        assert journal.interrupted() == []


def test_two_edits_of_one_file_interrupted_between_them_roll_back_to_the_first_pre_image(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import konstruct_tui.workspace.batch as batch

    before = tree(root)
    real_apply = batch._apply
    calls = {"n": 0}

    def interrupted_at_the_second(workspace, plan, *keep):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real_apply(workspace, plan, *keep)

    monkeypatch.setattr(batch, "_apply", interrupted_at_the_second)
    read = revision(root, "app.py")
    requests = [EditRequest("app.py", "replace", read, replacements=(("line_1 = 1\n", "line_1 = 'one'\n"),)),
                EditRequest("app.py", "replace", read, replacements=(("line_2 = 2\n", "line_2 = 'two'\n"),))]
    with Workspace(root) as workspace:
        with pytest.raises(KeyboardInterrupt):
            apply_edits(workspace, requests, atomic=True, journal=WriteJournal(root))
    assert tree(root) == before


def test_a_batch_journaled_by_the_previous_format_still_undoes(root: Path) -> None:
    journal = WriteJournal(root)
    original = (root / "app.py").read_bytes()
    (root / "app.py").write_text("changed = True\n")
    folder = journal.folder / "00000000000000000001-aaaaaa"
    folder.mkdir(parents=True)
    (folder / "0.pre").write_bytes(original)
    (folder / "manifest.json").write_text(json.dumps({
        "batch": "00000000000000000001-aaaaaa", "tool": "write_code", "created_at": 1.0,
        "entries": [{"path": "app.py", "blob": "0.pre", "mode": 0o644, "after_revision": revision(root, "app.py"), "created_dirs": []}],
    }))
    with Workspace(root) as workspace:
        result = undo_last(workspace, journal)
    assert result["results"] == [{"path": "app.py", "status": "restored"}]
    assert (root / "app.py").read_bytes() == original
