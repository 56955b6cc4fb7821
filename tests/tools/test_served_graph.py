"""The graph behind `konstruct mcp`: the first question waits for the first build, later ones see
edits made behind the server's back (a sweep), and enrichment never waits."""

from __future__ import annotations

from pathlib import Path

from konstruct_tui.graph import CodeGraph
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.tools.served_graph import ServedGraph
from konstruct_tui.workspace import Workspace


def test_a_served_graph_answers_first_and_then_sees_outside_edits(project: Path) -> None:
    workspace = Workspace(project)
    graph = ServedGraph(CodeGraph(workspace), sweep_after=0.0, sweep_wait=30.0)
    try:
        context = ToolContext(workspace, graph=graph)
        first = call("traverse_graph", {"mode": "dependents", "target": "app/util.py"}, context).payload
        assert first["status"] == "ok" and [r["path"] for r in first["results"]] == ["app/orders.py"]
        (project / "app" / "outside.py").write_text("from app.util import compute_total\n")  # not through a tool
        later = call("traverse_graph", {"mode": "dependents", "target": "app/util.py"}, context).payload
        assert [r["path"] for r in later["results"]] == ["app/orders.py", "app/outside.py"]
    finally:
        graph.close()


def test_enrichment_does_not_wait_for_the_first_build(project: Path) -> None:
    workspace = Workspace(project)
    graph = ServedGraph(CodeGraph(workspace, start=False))
    read = call("read_code", {"paths": ["app/util.py"]}, ToolContext(workspace, graph=graph)).payload
    assert read["results"][0]["status"] == "ok" and read["results"][0]["importers"] is None
    assert "still being built" in read["graph"]["reason"]
