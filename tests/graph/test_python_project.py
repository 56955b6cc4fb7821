"""The core with the real Python extractor and resolver: a small package, end to end."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_helpers import write_files

from konstruct_tui.graph.answers import OK
from konstruct_tui.graph.code_graph import CodeGraph
from konstruct_tui.graph.export import export_graph
from konstruct_tui.graph.indexer import Indexer
from konstruct_tui.graph.query import GraphQuery
from konstruct_tui.graph.store import IndexStore
from konstruct_tui.workspace import Workspace

python = pytest.importorskip("konstruct_tui.graph.languages.python")

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def compute(x):\n    return x * 2\n\n\nclass Engine:\n    pass\n",
    "pkg/util.py": "from .core import compute\n\n\ndef double_all(xs):\n    return [compute(x) for x in xs]\n",
    "app.py": "import pkg.util\n\nprint(pkg.util.double_all([1]))\n",
    "tests/test_core.py": "from pkg.core import compute\n\n\ndef test_compute():\n    assert compute(2) == 4\n",
    "notes.md": "# notes\n",
}


def python_only() -> dict:
    return {"python": python.SUPPORT}


@pytest.fixture
def package(tmp_path: Path) -> Path:
    root = tmp_path / "pyproj"
    write_files(root, FILES)
    return root


def _index(root: Path, **options) -> Indexer:
    workspace = Workspace(root)
    return Indexer(workspace, IndexStore.for_root(workspace.root, python_only()), supports=python_only(), **options)


def test_a_python_package_end_to_end(package: Path) -> None:
    snapshot = _index(package).refresh()
    query = GraphQuery(lambda: snapshot)
    assert [r["path"] for r in query.dependents("pkg/core.py").results] == ["pkg/util.py", "tests/test_core.py"]
    assert [r["path"] for r in query.dependents("pkg/core.py", depth=3).results][-1] == "app.py"
    assert [r["path"] for r in query.tests_reaching("pkg/util.py").results] == []
    assert [r["path"] for r in query.tests_reaching("pkg/core.py").results] == ["tests/test_core.py"]
    assert query.definitions("compute").results[0]["path"] == "pkg/core.py"
    assert [r["path"] for r in query.references("compute").results] == ["pkg/util.py", "tests/test_core.py"]
    assert query.dependents("notes.md").status == "unsupported_language"
    exported = export_graph(snapshot)
    assert "notes.md" not in exported["nodes"]
    assert ["app.py", "pkg/util.py"] in exported["edges"]
    assert export_graph(snapshot, "directory")["edges"] == [[".", "pkg"], ["tests", "pkg"]]


def test_worker_processes_with_the_real_extractor(package: Path) -> None:
    inline = _index(package).refresh()
    copy = package.parent / "copy"
    write_files(copy, FILES)
    pooled = _index(copy, inline_limit=0, support_factory=python_only).refresh()
    assert pooled.pairs() == inline.pairs()


def test_an_added_import_reaches_queries_through_the_reconciler(package: Path) -> None:
    graph = CodeGraph(Workspace(package), supports=python_only(), warm_neighborhoods=False)
    try:
        assert graph.reconciler.wait_until_current(20)
        assert graph.query.dependents("pkg/core.py").status == OK
        (package / "app.py").write_text("import pkg.util\nfrom pkg.core import Engine\n\nEngine()\n")
        graph.notify(["app.py"])
        assert graph.reconciler.wait_until_current(20)
        found = {r["path"]: r for r in graph.query.dependents("pkg/core.py").results}
        assert "app.py" in found and "Engine" in found["app.py"]["names"]
    finally:
        graph.close()
        graph.workspace.close()
