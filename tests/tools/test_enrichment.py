"""Enrichment at no extra call: read_code gains importers and same-neighborhood files, write_code and
delete_code gain each changed file's dependents; a missing graph never blocks, and says so."""

from __future__ import annotations

from pathlib import Path

from konstruct_tui.graph import build_index
from konstruct_tui.graph import Freshness
from konstruct_tui.graph import GraphQuery
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import Workspace


class CountingGraph:
    """A ready graph that counts readiness checks (snapshot reads) and the writes it hears of."""

    def __init__(self, workspace: Workspace) -> None:
        self._snapshot, _ = build_index(workspace)
        self.freshness = Freshness(workspace)
        self.query = GraphQuery(lambda: self._snapshot, self.freshness)
        self.checks = 0
        self.notified: list[str] = []

    @property
    def snapshot(self):
        self.checks += 1
        return self._snapshot

    def notify(self, paths) -> None:
        self.notified.extend(paths)


def _context(project: Path, graph=None) -> ToolContext:
    return ToolContext(Workspace(project), graph=graph)


def _by_path(payload: dict) -> dict[str, dict]:
    return {entry["path"]: entry for entry in payload["results"]}


def test_read_code_entries_gain_importers_and_neighborhood_in_one_check(project: Path) -> None:
    context = _context(project)
    graph = context.graph = CountingGraph(context.workspace)
    payload = call("read_code", {"paths": ["app/util.py", "app/orders.py", "docs/notes.md", "gone.py",
                                           {"path": "web/client.ts", "start_line": 1, "end_line": 1}]}, context).payload
    assert graph.checks == 1  # five files, one readiness check
    entries = _by_path(payload)
    util = entries["app/util.py"]
    assert util["content"].startswith('"""Small helpers') and util["revision"].startswith("sha256:")
    assert util["importers"] == ["app/orders.py"]
    assert set(util["same_neighborhood"]) >= {"app/orders.py"} and "app/util.py" not in util["same_neighborhood"]
    assert entries["app/orders.py"]["importers"] == ["app/report.py", "tests/test_orders.py"]
    assert entries["web/client.ts"]["importers"] == ["web/api.ts"]
    assert entries["docs/notes.md"]["importers"] is None  # text only: the graph cannot say
    assert entries["gone.py"]["status"] == "not_found" and "importers" not in entries["gone.py"]
    assert payload["graph"]["status"] == "ok"


def test_read_code_without_an_index_reads_anyway_and_says_the_graph_had_nothing(project: Path) -> None:
    context = _context(project)  # headless, no index built yet: enrichment must not build one
    payload = call("read_code", {"paths": ["app/util.py"]}, context).payload
    entry = payload["results"][0]
    assert entry["status"] == "ok" and entry["content"]
    assert entry["importers"] is None and entry["same_neighborhood"] is None
    assert payload["graph"]["status"] == "undeterminable"
    assert "nothing to add" in payload["graph"]["reason"]


def test_a_graph_that_is_building_never_blocks_a_write(project: Path) -> None:
    class Building:
        snapshot = None
        notified: list[str] = []

        def notify(self, paths) -> None:
            self.notified.extend(paths)

    context = _context(project, Building())
    read = call("read_code", {"paths": ["app/util.py"]}, context).payload["results"][0]
    payload = call("write_code", {"edits": [{"path": "app/util.py", "revision": read["revision"],
                                             "replacements": [{"old": "42", "new": "43"}]}]}, context).payload
    assert payload["results"][0]["status"] == "written"
    assert payload["results"][0]["dependents"] is None
    assert "nothing to add" in payload["graph"]["reason"]
    assert context.graph.notified == ["app/util.py"]


def test_write_code_entries_gain_dependents_and_the_graph_hears_of_them(project: Path) -> None:
    context = _context(project)
    graph = context.graph = CountingGraph(context.workspace)
    reads = _by_path(call("read_code", {"paths": ["app/util.py", "app/orders.py"]}, context).payload)
    graph.checks = 0
    payload = call("write_code", {"edits": [
        {"path": "app/util.py", "revision": reads["app/util.py"]["revision"], "replacements": [{"old": "42", "new": "43"}]},
        {"path": "app/orders.py", "revision": reads["app/orders.py"]["revision"],
         "replacements": [{"old": "total(self, items)", "new": "total(self, items)  # sum"}]},
        {"path": "app/new.py", "create": True, "content": "X = 1\n"},
        {"path": "app/util.py", "revision": "sha256:" + "0" * 64, "content": "stale\n"},
    ]}, context).payload
    assert graph.checks == 1
    entries = payload["results"]
    assert [e["status"] for e in entries] == ["written", "written", "created", "conflict"], entries
    assert [e["status"] for e in entries] == ["written", "written", "created", "conflict"]
    assert entries[0]["dependents"] == ["app/orders.py"]
    assert entries[1]["dependents"] == ["app/report.py", "tests/test_orders.py"]
    assert entries[2]["dependents"] is None  # not in the index yet
    assert "dependents" not in entries[3]
    assert graph.notified == ["app/util.py", "app/orders.py", "app/new.py"]


def test_delete_code_reports_the_blast_radius_of_the_deleted_file(project: Path) -> None:
    context = _context(project)
    context.graph = CountingGraph(context.workspace)
    read = call("read_code", {"paths": ["app/orders.py"]}, context).payload["results"][0]
    payload = call("delete_code", {"paths": [{"path": "app/orders.py", "revision": read["revision"]}]}, context).payload
    entry = payload["results"][0]
    assert entry["status"] == "deleted" and not (project / "app/orders.py").exists()
    assert entry["dependents"] == ["app/report.py", "tests/test_orders.py"]
    assert context.graph.notified == ["app/orders.py"]


def test_headless_enrichment_uses_an_existing_index(project: Path) -> None:
    build_index(Workspace(project))  # as `konstruct index` would
    payload = call("read_code", {"paths": ["app/util.py"]}, _context(project)).payload
    assert payload["results"][0]["importers"] == ["app/orders.py"]


def test_the_session_graph_plugs_in_as_it_is(project: Path) -> None:
    """The agent hands tools a `CodeGraph` (background reconciler): not ready yet -> answers that
    say so without waiting; ready -> enriched reads, and a write is heard by the reconciler."""
    from konstruct_tui.graph import CodeGraph

    workspace = Workspace(project)
    waiting = CodeGraph(workspace, start=False)
    context = ToolContext(workspace, graph=waiting)
    answer = call("traverse_graph", {"mode": "dependents", "target": "app/util.py"}, context).payload
    assert answer["status"] == "undeterminable" and "still being built" in answer["reason"]
    assert call("read_code", {"paths": ["app/util.py"]}, context).payload["results"][0]["importers"] is None

    graph = CodeGraph(workspace)
    try:
        assert graph.reconciler.wait_until_current(30)
        context = ToolContext(workspace, graph=graph)
        read = call("read_code", {"paths": ["app/util.py"]}, context).payload["results"][0]
        assert read["importers"] == ["app/orders.py"]
        call("write_code", {"edits": [{"path": "app/extra.py", "create": True,
                                       "content": "from app.util import compute_total\n"}]}, context)
        assert graph.reconciler.wait_until_current(30)
        answer = call("traverse_graph", {"mode": "dependents", "target": "app/util.py"}, context).payload
        assert "app/extra.py" in [r["path"] for r in answer["results"]]
    finally:
        graph.close()
