"""`konstruct undo` restores the last applied batch, and refuses when a file changed since."""

from __future__ import annotations

from pathlib import Path


def test_undo_restores_writes_creations_and_deletions(tool, konstruct, project: Path, revision_of) -> None:
    original = (project / "pkg/util.py").read_bytes()
    (project / "doomed.txt").write_text("bye\n")
    tool("delete_code", {"paths": [{"path": "doomed.txt", "revision": revision_of("doomed.txt")}]})
    tool("write_code", {"edits": [
        {"path": "pkg/util.py", "revision": revision_of("pkg/util.py"), "replacements": [{"old": "return 5\n", "new": "return 55\n"}]},
        {"path": "made/here.py", "create": True, "content": "z = 1\n"},
    ]})
    code, payload, _ = konstruct("undo", "--root", str(project))
    assert code == 0
    assert {e["path"]: e["status"] for e in payload["results"]} == {"pkg/util.py": "restored", "made/here.py": "removed"}
    assert (project / "pkg/util.py").read_bytes() == original
    assert not (project / "made").exists()
    code, payload, _ = konstruct("undo", "--root", str(project))  # the batch before: the deletion
    assert code == 0 and payload["results"] == [{"path": "doomed.txt", "status": "recreated"}]
    assert (project / "doomed.txt").read_text() == "bye\n"
    code, _, err = konstruct("undo", "--root", str(project))
    assert code == 1 and "nothing to undo" in err


def test_undo_refuses_when_a_file_changed_since(tool, konstruct, project: Path, revision_of) -> None:
    tool("write_code", {"edits": [{"path": "pkg/util.py", "revision": revision_of("pkg/util.py"), "replacements": [{"old": "return 5\n", "new": "return 55\n"}]}]})
    (project / "pkg/util.py").write_text((project / "pkg/util.py").read_text() + "# later edit\n")
    changed = (project / "pkg/util.py").read_bytes()
    code, payload, err = konstruct("undo", "--root", str(project))
    assert code == 1 and payload is None
    assert "pkg/util.py changed since" in err
    assert (project / "pkg/util.py").read_bytes() == changed


def test_journal_is_private_to_the_user(tool, project: Path, revision_of, private_user_dirs: Path) -> None:
    tool("write_code", {"edits": [{"path": "pkg/util.py", "revision": revision_of("pkg/util.py"), "replacements": [{"old": "return 5\n", "new": "return 55\n"}]}]})
    journals = list(private_user_dirs.rglob("journal/*"))
    assert journals and all((p.stat().st_mode & 0o077) == 0 for p in journals)
