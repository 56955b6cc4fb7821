"""enumerate: each collection, its filters, and what an empty answer means."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from konstruct_tui.tools import ToolError


def test_files_with_target_and_glob(tool) -> None:
    every = tool("enumerate", collection="files")
    paths = [f["path"] for f in every["results"]]
    assert "app/util.py" in paths and "ignored/secret.py" not in paths  # .gitignore honored
    assert {"path": "web/api.ts", "language": "typescript"} in every["results"]
    in_app = tool("enumerate", collection="files", target="app", glob="cycle_*")
    assert [f["path"] for f in in_app["results"]] == ["app/cycle_a.py", "app/cycle_b.py"]
    limited = tool("enumerate", collection="files", limit=2)
    assert len(limited["results"]) == 2 and limited["truncated"] is True and limited["total"] == len(paths)
    assert tool("enumerate", collection="files", target="nowhere")["status"] == "not_indexed"


def test_directories_with_file_counts(tool, project: Path) -> None:
    found = {d["path"]: d["files"] for d in tool("enumerate", collection="directories")["results"]}
    assert found == {"app": 6, "docs": 1, "tests": 1, "web": 2}
    (project / "app/sub").mkdir()
    (project / "app/sub/deep.py").write_text("")
    nested = {d["path"]: d["files"] for d in tool("enumerate", collection="directories", target="app")["results"]}
    assert nested == {"app/sub": 1}


def test_languages_count_files(tool) -> None:
    found = {item["language"]: item for item in tool("enumerate", collection="languages")["results"]}
    assert found["python"]["files"] == 8 and found["python"]["structural"] is True
    assert found["typescript"]["files"] == 2
    assert found["text"]["structural"] is False


def test_symbols_of_a_file_or_folder(tool) -> None:
    util = tool("enumerate", collection="symbols", target="app/util.py")
    assert [s["symbol"] for s in util["results"]] == ["compute_total", "unused_helper", "_local"]
    assert util["results"][0] == {"path": "app/util.py", "symbol": "compute_total", "kind": "function",
                                  "start_line": 4, "end_line": 6}
    folder = tool("enumerate", collection="symbols", target="app")
    assert {"OrderBook", "OrderBook.total", "render_report"} <= {s["symbol"] for s in folder["results"]}
    assert tool("enumerate", collection="symbols", target="docs/notes.md")["status"] == "unsupported_language"
    assert tool("enumerate", collection="symbols", target="app/__init__.py")["status"] == "no_references"
    assert tool("enumerate", collection="symbols", target="gone.py")["status"] == "not_indexed"


def test_neighborhoods_have_names_members_and_bridges(tool) -> None:
    found = tool("enumerate", collection="neighborhoods")
    assert found["status"] == "ok"
    members = [m for hood in found["results"] for m in hood["members"]]
    assert "app/util.py" in members and "web/api.ts" in members
    assert all({"name", "size", "members", "bridges"} <= set(h) for h in found["results"])
    of_file = tool("enumerate", collection="neighborhoods", target="web/api.ts")
    assert [h["members"] for h in of_file["results"]] == [["web/api.ts", "web/client.ts"]]


def test_scripts_come_from_the_project(tool, project: Path) -> None:
    (project / "package.json").write_text(json.dumps({"scripts": {"lint": "eslint ."}}))
    names = {s["qualified"] for s in tool("enumerate", collection="scripts")["results"]}
    assert {"npm:lint", "python:test"} <= names


def test_targets_outside_the_workspace_are_refused(tool) -> None:
    with pytest.raises(ToolError, match="workspace-relative"):
        tool("enumerate", collection="files", target="../")
