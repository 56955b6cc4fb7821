"""traverse_graph: every mode answers with its own bounds; every status means what it says."""

from __future__ import annotations

from pathlib import Path

import pytest

from konstruct_tui.tools import ToolError
from konstruct_tui.tools.traverse_modes import MODES

ANSWER_KEYS = {"mode", "status", "results", "bounds", "truncated", "stale", "ahead_of_index"}


def _paths(answer: dict) -> list[str]:
    return [r["path"] for r in answer["results"]]


def _bounds(answer: dict, direction: str, depth: int | None, limit: int) -> None:
    assert ANSWER_KEYS <= set(answer)
    bounds = answer["bounds"]
    assert (bounds["direction"], bounds["depth"], bounds["limit"]) == (direction, depth, limit)


def test_the_mode_table_has_the_fifteen_modes() -> None:
    assert list(MODES) == [
        "impact", "directory_impact", "rename_symbol", "rename_file", "move_directory", "dependents",
        "dependencies", "transitive_dependencies", "callers", "definition", "path", "cycles",
        "neighborhood", "unreferenced", "tests",
    ]


def test_impact_is_inbound_ranked_by_distance(tool) -> None:
    answer = tool("traverse_graph", mode="impact", target="app/util.py")
    _bounds(answer, "inbound", 3, 200)
    assert answer["status"] == "ok"
    assert [(r["path"], r["distance"]) for r in answer["results"]] == [
        ("app/orders.py", 1), ("app/report.py", 2), ("tests/test_orders.py", 2), ("cli.py", 3),
    ]


def test_impact_of_a_symbol_starts_at_its_callers(tool) -> None:
    answer = tool("traverse_graph", mode="impact", symbol="compute_total")
    assert answer["results"][0] == {**answer["results"][0], "path": "app/orders.py", "distance": 1}
    assert "cli.py" in _paths(answer)


def test_directory_impact_lists_only_files_outside_the_folder(tool) -> None:
    answer = tool("traverse_graph", mode="directory_impact", target="app")
    _bounds(answer, "inbound", 10, 500)
    assert _paths(answer) == ["cli.py", "tests/test_orders.py"]


def test_rename_symbol_gives_every_file_and_line_naming_it(tool) -> None:
    answer = tool("traverse_graph", mode="rename_symbol", symbol="compute_total")
    _bounds(answer, "references", None, 500)
    places = {(r["path"], r["role"]): r["lines"] for r in answer["results"]}
    assert places == {("app/util.py", "definition"): [4, 14], ("app/orders.py", "reference"): [1, 6]}


def test_rename_file_and_move_directory_follow_imports_one_hop(tool) -> None:
    renamed = tool("traverse_graph", mode="rename_file", target="app/orders.py")
    _bounds(renamed, "inbound imports", 1, 500)
    assert _paths(renamed) == ["app/report.py", "tests/test_orders.py"]
    assert all(r["kinds"] == ["imports"] for r in renamed["results"])
    moved = tool("traverse_graph", mode="move_directory", target="app")
    _bounds(moved, "inbound imports", 1, 500)
    assert _paths(moved) == ["cli.py", "tests/test_orders.py"]


def test_dependents_and_dependencies_are_one_hop(tool) -> None:
    dependents = tool("traverse_graph", mode="dependents", target="app/orders.py")
    _bounds(dependents, "inbound", 1, 200)
    assert _paths(dependents) == ["app/report.py", "tests/test_orders.py"]
    dependencies = tool("traverse_graph", mode="dependencies", target="app/report.py")
    _bounds(dependencies, "outbound", 1, 200)
    assert _paths(dependencies) == ["app/orders.py"]


def test_transitive_dependencies_walk_outbound(tool) -> None:
    answer = tool("traverse_graph", mode="transitive_dependencies", target="cli.py")
    _bounds(answer, "outbound", 10, 500)
    assert [(r["path"], r["distance"]) for r in answer["results"]] == [
        ("app/report.py", 1), ("app/orders.py", 2), ("app/util.py", 3),
    ]


def test_callers_and_definition(tool) -> None:
    callers = tool("traverse_graph", mode="callers", symbol="compute_total")
    _bounds(callers, "inbound references", 1, 200)
    assert _paths(callers) == ["app/orders.py"]
    definition = tool("traverse_graph", mode="definition", symbol="OrderBook")
    _bounds(definition, "none", None, 20)
    assert definition["results"] == [
        {"path": "app/orders.py", "symbol": "OrderBook", "kind": "class", "start_line": 4, "end_line": 6}
    ]


def test_path_finds_the_shortest_chain(tool) -> None:
    answer = tool("traverse_graph", mode="path", source="cli.py", target="app/util.py")
    _bounds(answer, "outbound", 12, 3)
    assert answer["results"] == [{"path": ["cli.py", "app/report.py", "app/orders.py", "app/util.py"], "length": 3}]
    none = tool("traverse_graph", mode="path", source="app/util.py", target="cli.py")
    assert none["status"] == "no_references"


def test_cycles_neighborhood_unreferenced_tests(tool) -> None:
    cycles = tool("traverse_graph", mode="cycles", target="app")
    _bounds(cycles, "both", 8, 50)
    assert cycles["results"] == [{"cycle": ["app/cycle_a.py", "app/cycle_b.py", "app/cycle_a.py"], "length": 2}]
    hood = tool("traverse_graph", mode="neighborhood", target="app/util.py")
    _bounds(hood, "undirected", None, 100)
    assert "app/util.py" in hood["results"][0]["members"]
    unreferenced = tool("traverse_graph", mode="unreferenced", target="app")
    _bounds(unreferenced, "inbound", 1, 200)
    assert {"path": "app/__init__.py", "kind": "file"} in unreferenced["results"]
    assert "app/util.py" not in [r["path"] for r in unreferenced["results"] if r["kind"] == "file"]
    dead = {r["symbol"] for r in unreferenced["results"] if r.get("symbol")}
    assert "unused_helper" in dead  # defined, named by no other file and never called in its own
    tests = tool("traverse_graph", mode="tests", target="app/util.py")
    _bounds(tests, "inbound, tests only", 5, 100)
    assert _paths(tests) == ["tests/test_orders.py"]


def test_statuses_each_mean_something(tool) -> None:
    assert tool("traverse_graph", mode="callers", symbol="unused_helper")["status"] == "no_references"
    assert tool("traverse_graph", mode="dependents", target="cli.py")["status"] == "no_references"
    unknown = tool("traverse_graph", mode="callers", symbol="no_such_symbol")
    assert unknown["status"] == "not_indexed" and unknown["results"] == []
    assert tool("traverse_graph", mode="impact", target="missing.py")["status"] == "not_indexed"
    text = tool("traverse_graph", mode="impact", target="docs/notes.md")
    assert text["status"] == "unsupported_language" and "reason" in text
    assert tool("traverse_graph", mode="dependents", target="web/client.ts")["results"][0]["path"] == "web/api.ts"


def test_a_graph_that_is_not_ready_is_undeterminable(tool) -> None:
    class Building:
        snapshot = None

        def _why_not_ready(self) -> str:
            return "the code graph is still being built"

    tool.context.graph = Building()
    for mode, extra in (("impact", {"target": "app/util.py"}), ("callers", {"symbol": "compute_total"})):
        answer = tool("traverse_graph", mode=mode, **extra)
        assert answer["status"] == "undeterminable"
        assert answer["results"] == [] and answer["bounds"]["limit"] == MODES[mode].limit


def test_stale_and_ahead_of_index_name_files_to_reread(tool, project: Path) -> None:
    tool("traverse_graph", mode="impact", target="app/util.py")  # the index is built now
    with open(project / "app/orders.py", "a") as handle:
        handle.write("# edited after indexing\n")
    answer = tool("traverse_graph", mode="dependents", target="app/util.py")
    assert answer["ahead_of_index"] == ["app/orders.py"]


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"mode": "callers"}, "needs a symbol"),
        ({"mode": "path", "target": "a.py"}, "needs a source and a target"),
        ({"mode": "impact"}, "needs a target"),
        ({"mode": "impact", "target": "/etc/passwd"}, "workspace-relative"),
        ({"mode": "dependents", "target": "../outside"}, "workspace-relative"),
        ({"mode": "sideways", "target": "a.py"}, "mode"),
    ],
)
def test_bad_input_is_a_clear_tool_error(tool, arguments: dict, message: str) -> None:
    with pytest.raises(ToolError, match=message):
        tool("traverse_graph", **arguments)


def test_callers_are_ranked_by_proximity(tool, project: Path) -> None:
    (project / "zz_far").mkdir()
    (project / "zz_far" / "deep").mkdir()
    (project / "zz_far" / "deep" / "user.py").write_text("from app.util import compute_total\ncompute_total([])\n")
    (project / "app" / "near.py").write_text("from app.util import compute_total\ncompute_total([])\n")
    (project / "a_top.py").write_text("from app.util import compute_total\ncompute_total([])\n")
    answer = tool("traverse_graph", mode="callers", symbol="compute_total")
    assert _paths(answer) == ["app/near.py", "app/orders.py", "a_top.py", "zz_far/deep/user.py"]


def test_targets_are_normalized_inside_the_root(tool) -> None:
    answer = tool("traverse_graph", mode="dependents", target="./web/../app/orders.py")
    assert _paths(answer) == ["app/report.py", "tests/test_orders.py"]
    assert tool("traverse_graph", mode="dependents", target="app/")["status"] == "ok"
