"""git_diff: changed files against a base, the diff text, and the graph impact summary."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from konstruct_tui.tools import ToolContext, ToolError, call
from konstruct_tui.workspace import Workspace


def test_a_clean_tree_has_no_changes(tool) -> None:
    answer = tool("git_diff")
    assert answer["files"] == [] and answer["diff"] == ""
    assert "matches HEAD" in answer["reason"]


def test_changes_untracked_files_and_impact(tool, project: Path) -> None:
    tool("enumerate", collection="symbols")  # the graph as it was before the edits (a session's graph)
    with open(project / "app/util.py", "a") as handle:
        handle.write("\n\ndef new_helper():\n    return 1\n")
    (project / "app/report.py").unlink()
    (project / "NOTES.txt").write_text("one\ntwo\n")
    answer = tool("git_diff", base="HEAD")
    files = {f["path"]: f for f in answer["files"]}
    assert files["app/util.py"]["status"] == "modified" and files["app/util.py"]["additions"] == 4
    assert files["app/report.py"]["status"] == "deleted"
    assert files["NOTES.txt"] == {"path": "NOTES.txt", "status": "added", "additions": 2, "deletions": 0,
                                  "untracked": True}
    assert "+def new_helper():" in answer["diff"] and "+two" in answer["diff"]
    impact = answer["impact"]
    assert impact["status"] == "ok"
    dependents = {d["path"]: d["uses"] for d in impact["dependents"]}
    assert dependents["app/orders.py"] == ["app/util.py"]
    assert dependents["cli.py"] == ["app/report.py"]
    assert impact["neighborhoods"] and all(isinstance(name, str) for name in impact["neighborhoods"])


def test_path_glob_and_byte_cap(tool, project: Path) -> None:
    (project / "app/util.py").write_text("x = 1\n" * 500)
    (project / "web/api.ts").write_text("export const x = 2;\n")
    only_web = tool("git_diff", path_glob="web/**")
    assert [f["path"] for f in only_web["files"]] == ["web/api.ts"]
    assert "app/util.py" not in only_web["diff"]
    capped = tool("git_diff", max_bytes=200)
    assert capped["truncated"] is True and "[diff truncated" in capped["diff"]


def test_an_older_base(tool, project: Path) -> None:
    (project / "cli.py").write_text("print('changed')\n")
    subprocess.run(["git", "-C", str(project), "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qam", "two"],
                   check=True)
    assert [f["path"] for f in tool("git_diff", base="HEAD~1")["files"]] == ["cli.py"]
    assert tool("git_diff")["files"] == []


@pytest.mark.parametrize("base", ["no-such-branch", "--output=/tmp/x", "HEAD;rm"])
def test_a_bad_base_is_a_tool_error(tool, base: str) -> None:
    with pytest.raises(ToolError, match="not a commit"):
        tool("git_diff", base=base)


def test_outside_git_is_a_clear_error(tmp_path: Path, new_project) -> None:
    root = new_project(tmp_path / "plain", git=False)
    with Workspace(root) as workspace, pytest.raises(ToolError, match="not a git work tree"):
        call("git_diff", {}, ToolContext(workspace))


def test_a_deleted_file_unknown_to_a_fresh_index_is_reported_not_indexed(tool, project: Path) -> None:
    (project / "app/report.py").unlink()
    impact = tool("git_diff")["impact"]
    assert impact["not_indexed"] == ["app/report.py"]
    assert impact["dependents"] == []
