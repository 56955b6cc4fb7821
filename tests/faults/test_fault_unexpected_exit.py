"""An exception no entry expected (Ctrl-C in a caller that does not wait for the batch, a bug) is
settled on the spot, as the next start would: the process that goes on is never blocked by a batch
it left open itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from fault_harness import changed, make_project, revision, temp_files, tree

from konstruct_tui.workspace import EditRequest, UndoRefused, Workspace, WriteJournal, apply_edits, undo_last


@pytest.mark.parametrize("atomic", [True, False])
def test_keyboard_interrupt_mid_batch_is_settled_before_it_propagates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, atomic: bool) -> None:
    import konstruct_tui.workspace.batch as batch

    root = tmp_path / "project"
    root.mkdir()
    make_project(root)
    before = tree(root)
    real_apply = batch._apply
    calls = {"n": 0}

    def interrupted_at_the_fifth(workspace, plan, *keep):
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return real_apply(workspace, plan, *keep)

    monkeypatch.setattr(batch, "_apply", interrupted_at_the_fifth)
    paths = [p for p in sorted(before) if p.endswith(".py")][:8]
    requests = [EditRequest(p, "replace", revision(root, p), replacements=((f"def f1():", "def f1_renamed():"),)) for p in paths]
    with Workspace(root) as workspace:
        journal = WriteJournal(root)
        with pytest.raises(KeyboardInterrupt):
            apply_edits(workspace, requests, atomic=atomic, journal=journal)
        landed = changed(before, tree(root))
        assert journal.interrupted() == []  # settled here, not left locked by this very process
        if atomic:
            assert landed == set()
            with pytest.raises(UndoRefused, match="nothing to undo"):
                undo_last(workspace, journal)
        else:
            assert landed == set(paths[:4])
            assert {e["path"] for e in undo_last(workspace, journal)["results"]} == landed
            assert tree(root) == before
    assert temp_files(root) == []
