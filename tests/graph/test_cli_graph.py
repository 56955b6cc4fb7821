"""`konstruct index` and `konstruct graph export` as a user runs them."""

from __future__ import annotations

from pathlib import Path

import pytest
from mini_language import mini_languages

from konstruct_tui.graph import code_graph
from konstruct_tui.graph.store import index_path


@pytest.fixture(autouse=True)
def mini_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(code_graph, "languages", mini_languages)


def test_index_prints_a_summary(project: Path, konstruct) -> None:
    code, out, err = konstruct("index", "--root", str(project))
    assert code == 0, err
    assert "Indexed 6 files" in out
    assert "mini" in out and "text" in out
    assert "Edges: 8 (imports 3, references 5)" in out
    assert "Neighborhoods:" in out
    code, out, _ = konstruct("index", "--root", str(project))
    assert "0 re-parsed, 6 unchanged" in out


def test_export_file_level(project: Path, konstruct) -> None:
    code, data, err = konstruct("graph", "export", "--root", str(project), "--format", "json")
    assert code == 0, err
    assert data["nodes"] == sorted(["app/main.mini", "app/views.mini", "lib/util.mini", "lib/models.mini",
                                    "tests/test_util.mini"])
    assert data["edges"] == [
        ["app/main.mini", "lib/models.mini"], ["app/main.mini", "lib/util.mini"],
        ["app/views.mini", "app/main.mini"], ["app/views.mini", "lib/models.mini"],
        ["lib/models.mini", "lib/util.mini"], ["tests/test_util.mini", "lib/util.mini"],
    ]


def test_export_directory_level(project: Path, konstruct) -> None:
    (project / "top.mini").write_text("use helper\n")
    code, data, err = konstruct("graph", "export", "--root", str(project), "--level", "directory", "--format", "json")
    assert code == 0, err
    assert data == {"nodes": [".", "app", "lib", "tests"],
                    "edges": [[".", "lib"], ["app", "lib"], ["tests", "lib"]]}


def test_export_refreshes_the_index_first(project: Path, konstruct) -> None:
    konstruct("graph", "export", "--root", str(project), "--format", "json")
    (project / "lib/util.mini").unlink()
    _, data, _ = konstruct("graph", "export", "--root", str(project), "--format", "json")
    assert "lib/util.mini" not in data["nodes"]
    assert all("lib/util.mini" not in edge for edge in data["edges"])


@pytest.mark.parametrize("argv", [
    ("index", "--root", "{missing}"),
    ("graph", "export", "--root", "{missing}", "--format", "json"),
    ("graph", "export", "--root", "{root}", "--format", "xml"),
    ("graph", "export", "--root", "{root}", "--level", "module", "--format", "json"),
    ("graph",),
])
def test_bad_input_is_one_line_and_exit_2_with_nothing_written(project: Path, tmp_path: Path, konstruct, argv) -> None:
    args = [a.format(missing=str(tmp_path / "nope"), root=str(project)) for a in argv]
    code, out, err = konstruct(*args)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("konstruct: error:")
    assert out is None
    assert not index_path(project).exists()
