"""What a trust prompt shows, worked out by the write's own planner: the diff of an edit that would
apply, and the write's own words for one that would not."""

from __future__ import annotations

from pathlib import Path

from konstruct_tui.app import build_preview
from konstruct_tui.workspace import Workspace, revision_of

CORE = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n\n\ndef neg(a):\n    return -a\n"


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "calc").mkdir(parents=True)
    (root / "calc/core.py").write_text(CORE)
    return root


def _edit(root: Path, old: str, new: str, revision: str | None = None) -> dict:
    with Workspace(root) as workspace:
        edit = {"path": "calc/core.py", "replacements": [{"old": old, "new": new}]}
        if revision is not None:
            edit["revision"] = revision
        return build_preview(workspace, "write_code", "edit", "change calc/core.py", {"edits": [edit]})


def test_command_preview_names_the_policy_rule(tmp_path: Path) -> None:
    with Workspace(_project(tmp_path)) as workspace:
        preview = build_preview(workspace, "run_command", "commands", "run the command 'pytest -q'", {"command": "pytest -q"})
    assert preview.command == "pytest -q"
    assert preview.rule and preview.reason


def test_an_edit_that_applies_is_shown_as_its_diff(tmp_path: Path) -> None:
    root = _project(tmp_path)
    preview = _edit(root, "a - b", "a + b", revision_of(CORE.encode()))
    [(path, diff)] = preview.diffs
    assert path == "calc/core.py" and "-    return a - b\n+    return a + b\n" in diff
    assert (root / "calc/core.py").read_text() == CORE  # a preview writes nothing


def test_an_edit_the_guard_would_refuse_is_said_so(tmp_path: Path) -> None:
    preview = _edit(_project(tmp_path), CORE, "x = 1\n", revision_of(CORE.encode()))
    assert preview.diffs == ()
    assert any("rejected" in note and "limit 50% per edit" in note for note in preview.notes)


def test_a_replacement_that_does_not_match_is_said_in_the_writes_words(tmp_path: Path) -> None:
    preview = _edit(_project(tmp_path), "nowhere", "x", revision_of(CORE.encode()))
    assert preview.diffs == ()
    assert any("`old` does not occur in the file" in note for note in preview.notes)


def test_an_edit_built_on_a_stale_read_is_said_to_conflict(tmp_path: Path) -> None:
    preview = _edit(_project(tmp_path), "a - b", "a + b", revision_of(b"an older version\n"))
    assert preview.diffs == ()
    assert any("conflict" in note and "changed since your read" in note for note in preview.notes)


def test_an_edit_without_a_revision_is_refused_as_the_write_would(tmp_path: Path) -> None:
    preview = _edit(_project(tmp_path), "a - b", "a + b")
    assert preview.diffs == ()
    assert any("must carry the revision" in note for note in preview.notes)
