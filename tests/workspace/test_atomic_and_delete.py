"""Atomic batches are all-or-nothing, byte for byte; delete_code follows the same revision rules."""

from __future__ import annotations

from pathlib import Path

import pytest


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_failure_on_the_last_entry_restores_everything_byte_for_byte(tool, project: Path, revision_of, monkeypatch) -> None:
    import konstruct_tui.workspace.batch as batch

    (project / "b.py").write_bytes(b"one\r\ntwo\r\nthree\r\nfour\r\n")
    before = snapshot(project)
    edits = [
        {"path": "pkg/util.py", "revision": revision_of("pkg/util.py"), "replacements": [{"old": "return 4\n", "new": "return 44\n"}]},
        {"path": "fresh/new.py", "create": True, "content": "created = True\n"},
        {"path": "b.py", "revision": revision_of("b.py"), "replacements": [{"old": "two", "new": "2"}]},
        {"path": "README.md", "revision": revision_of("README.md"), "content": "# demo\nmore\n"},
    ]
    real_apply = batch._apply
    calls = []

    def failing_last(workspace, plan, keep=False):  # the disk fills up on the last file
        calls.append(plan.resolved)
        if plan.resolved == "README.md":
            raise batch.EntryFailed("rejected", "could not write 'README.md': No space left on device")
        return real_apply(workspace, plan, keep)

    monkeypatch.setattr(batch, "_apply", failing_last)
    result = tool("write_code", {"edits": edits, "atomic": True})
    assert calls == ["pkg/util.py", "fresh/new.py", "b.py", "README.md"]  # three really were written first
    assert [e["status"] for e in result["results"]] == ["rolled_back", "rolled_back", "rolled_back", "rejected"]
    assert all("entry 4" in e["reason"] for e in result["results"][:3])
    assert snapshot(project) == before
    assert not (project / "fresh").exists()


def test_atomic_batch_with_a_conflict_writes_nothing(tool, project: Path, revision_of) -> None:
    before = snapshot(project)
    result = tool("write_code", {"atomic": True, "edits": [
        {"path": "pkg/util.py", "revision": revision_of("pkg/util.py"), "replacements": [{"old": "return 4\n", "new": "return 44\n"}]},
        {"path": "README.md", "revision": "sha256:" + "0" * 64, "content": "# x\n"},
    ]})
    assert [e["status"] for e in result["results"]] == ["rolled_back", "conflict"]
    assert snapshot(project) == before
    assert result["journal"] is None


def test_non_atomic_batch_keeps_the_entries_that_succeeded(tool, project: Path, revision_of) -> None:
    result = tool("write_code", {"edits": [
        {"path": "pkg/util.py", "revision": revision_of("pkg/util.py"), "replacements": [{"old": "return 4\n", "new": "return 44\n"}]},
        {"path": "README.md", "revision": "sha256:" + "0" * 64, "content": "# x\n"},
    ]})
    assert [e["status"] for e in result["results"]] == ["written", "conflict"]
    assert "return 44" in (project / "pkg/util.py").read_text()


def test_delete_needs_the_current_revision(tool, project: Path, revision_of) -> None:
    (project / "gone.py").write_text("x = 1\n")
    (project / "kept.py").write_text("y = 2\n")
    stale = revision_of("kept.py")
    (project / "kept.py").write_text("y = 3\n")
    result = tool("delete_code", {"paths": [
        {"path": "gone.py", "revision": revision_of("gone.py")},
        {"path": "kept.py", "revision": stale},
        "README.md",
        {"path": "missing.py", "revision": stale},
        {"path": "../outside.txt", "revision": stale},
    ]})
    assert [e["status"] for e in result["results"]] == ["deleted", "conflict", "rejected", "conflict", "refused"]
    assert not (project / "gone.py").exists()
    assert (project / "kept.py").read_text() == "y = 3\n"
    assert (project / "README.md").exists()


def test_atomic_delete_rolls_back(tool, project: Path, revision_of) -> None:
    (project / "a.py").write_text("a\n")
    before = snapshot(project)
    result = tool("delete_code", {"atomic": True, "paths": [
        {"path": "a.py", "revision": revision_of("a.py")},
        {"path": "README.md", "revision": "sha256:" + "1" * 64},
    ]})
    assert [e["status"] for e in result["results"]] == ["rolled_back", "conflict"]
    assert snapshot(project) == before


@pytest.mark.parametrize("arguments", [
    {"paths": []},
    {"paths": "a.py"},
    {"paths": ["a.py"], "unknown": 1},
    {"paths": [{"path": "a.py", "start_line": 0}]},
    {"paths": [{"path": "a.py", "start_line": 9, "end_line": 3}]},
])
def test_malformed_read_input_is_exit_2(konstruct, project: Path, arguments) -> None:
    import json

    code, payload, err = konstruct("tool", "read_code", "--root", str(project), "--json", json.dumps(arguments))
    assert code == 2 and payload is None
    assert err.count("\n") == 1 and err.startswith("konstruct: error:")


def _killed_after(n: int):
    asked = {"count": 0}

    def killed() -> bool:
        asked["count"] += 1
        return asked["count"] > n

    return killed


@pytest.mark.parametrize("atomic", [False, True])
def test_a_kill_mid_batch_applies_nothing_more_and_says_what_landed(project: Path, atomic: bool) -> None:
    from konstruct_tui.tools import ToolContext, call
    from konstruct_tui.workspace import Workspace

    with Workspace(project) as ws:
        before = snapshot(project)
        context = ToolContext(ws, killed=_killed_after(2))
        edits = [{"path": f"n{i}.py", "create": True, "content": f"x = {i}\n"} for i in range(4)]
        result = call("write_code", {"edits": edits, "atomic": atomic}, context).payload
    statuses = [e["status"] for e in result["results"]]
    if atomic:
        assert statuses == ["rolled_back"] * 4
        assert snapshot(project) == before
    else:
        assert statuses == ["created", "created", "rejected", "rejected"]
        assert "killed" in result["results"][2]["reason"]
        assert sorted(p.name for p in project.glob("n*.py")) == ["n0.py", "n1.py"]
