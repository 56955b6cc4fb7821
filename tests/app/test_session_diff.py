"""/diff from the write journal and the disk; /undo and /cost behind the workbench."""

from __future__ import annotations

import time
from pathlib import Path

from konstruct_tui.agent import BudgetUpdate, SessionStarted
from konstruct_tui.app.session_commands import CostLedger, undo_last_batch
from konstruct_tui.app.session_diff import session_diff
from konstruct_tui.workspace import EditRequest, EditRun, Workspace, WriteJournal, apply_edits


PADDING = "".join(f"line {i}\n" for i in range(20))  # so one changed line stays under the edit guards


def _write(workspace: Workspace, journal: WriteJournal, path: str, text: str, create: bool = False) -> None:
    if create:
        request = EditRequest(path, "create", None, text)
    else:
        request = EditRequest(path, "rewrite", workspace.read(path).revision, text + PADDING)
    result = apply_edits(workspace, [request], run=EditRun(), journal=journal, tool="write_code")
    assert result["results"][0]["status"] in ("written", "created"), result


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    root.mkdir()
    (root / "a.py").write_text("one\ntwo\n" + PADDING)
    (root / "b.py").write_text("keep\n" + PADDING)
    return root


def test_the_session_diff_runs_from_the_first_pre_image_to_the_disk_now(tmp_path: Path) -> None:
    root = _project(tmp_path)
    journal = WriteJournal(root)
    with Workspace(root) as workspace:
        _write(workspace, journal, "b.py", "before the session\n")
        since = time.time()
        _write(workspace, journal, "a.py", "one\nTWO\n")
        _write(workspace, journal, "a.py", "one\nTWO\nthree\n")
        _write(workspace, journal, "new.py", "fresh\n", create=True)
        diff, changed = session_diff(workspace, since, journal=journal)
    assert changed == ["a.py", "new.py"]  # b.py changed before the session began
    assert "--- a/a.py\n+++ b/a.py\n" in diff and "-two\n+TWO\n+three\n" in diff
    assert "--- /dev/null\n+++ b/new.py\n" in diff and "+fresh\n" in diff
    assert "b.py" not in diff


def test_a_file_put_back_as_it_was_shows_nothing_and_a_path_narrows_the_diff(tmp_path: Path) -> None:
    root = _project(tmp_path)
    journal = WriteJournal(root)
    with Workspace(root) as workspace:
        since = time.time()
        _write(workspace, journal, "a.py", "changed\n")
        _write(workspace, journal, "b.py", "changed too\n")
        (root / "a.py").write_text("one\ntwo\n" + PADDING)  # the person reverted it in the editor
        diff, changed = session_diff(workspace, since, journal=journal)
        only, _ = session_diff(workspace, since, "a.py", journal=journal)
    assert changed == ["b.py"] and "a.py" not in diff
    assert only == ""


def test_undo_follows_konstruct_undo_rules(tmp_path: Path) -> None:
    root = _project(tmp_path)
    journal = WriteJournal(root)
    with Workspace(root) as workspace:
        _write(workspace, journal, "a.py", "agent's\n")
        (root / "a.py").write_text("edited by hand\n" + PADDING)
        undone, lines = undo_last_batch(workspace, journal)
        assert not undone and lines[0].startswith("undo refused:") and "a.py" in lines[0]
        assert (root / "a.py").read_text() == "edited by hand\n" + PADDING
        (root / "a.py").write_text("agent's\n" + PADDING)
        undone, lines = undo_last_batch(workspace, journal)
    assert undone and "restored" in lines[1] and (root / "a.py").read_text() == "one\ntwo\n" + PADDING
    with Workspace(root) as workspace:
        undone, lines = undo_last_batch(workspace, journal)
    assert not undone and "nothing to undo" in lines[0]


def _budget(turns: int, tokens: int, cost: float | None) -> BudgetUpdate:
    return BudgetUpdate(turns, 20, tokens, 10, None, False, cost, None, None, 1.0, None)


def test_cost_adds_up_the_runs_of_the_session_and_starts_over_for_a_new_one() -> None:
    ledger = CostLedger()
    assert "no run" in ledger.lines()[0]
    ledger.note(SessionStarted("s1", "openai", "m"))
    ledger.note(_budget(1, 100, 0.01))
    ledger.note(_budget(2, 300, 0.03))
    ledger.note(SessionStarted("s1", "openai", "m", resumed=True))
    ledger.note(_budget(1, 50, 0.005))
    lines = ledger.lines()
    assert lines[0].startswith("last run: 1 / 20 turns") and "$0.0050" in lines[0]
    assert "this session (2 runs): 3 turns, 370 tokens, $0.0350" == lines[1]
    ledger.note(SessionStarted("s2", "openai", "m"))
    ledger.note(_budget(1, 10, None))
    assert len(ledger.lines()) == 1 and "not counted" in ledger.lines()[0]
