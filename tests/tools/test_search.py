"""search: every match type, the engine that answered, ranges, neighborhoods, containment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from konstruct_tui.tools import ToolError


def test_text_hits_carry_line_text_range_and_engine(tool) -> None:
    found = tool("search", query="compute_total(", match="text")
    assert found["engine"] == "ripgrep"
    assert found["status"] == "ok"
    assert [(h["path"], h["line"]) for h in found["results"]] == [
        ("app/orders.py", 6), ("app/util.py", 4), ("app/util.py", 14),
    ]
    first = found["results"][0]
    assert first["text"].strip() == "return compute_total(items)"
    # the file has 6 lines: the suggested range is clipped to it
    assert first["suggested_range"] == {"start_line": 1, "end_line": 6}
    assert "neighborhood" in first


def test_text_is_literal_and_honors_gitignore(tool, project: Path) -> None:
    found = tool("search", query="compute_total = ", match="text")
    assert found["results"] == []  # only ignored/secret.py says that, and .gitignore hides it
    assert tool("search", query="sum(prices", match="text")["results"][0]["path"] == "app/util.py"


def test_regex_match_and_path_glob(tool) -> None:
    found = tool("search", query=r"def \w+\(self", match="regex")
    assert [(h["path"], h["line"]) for h in found["results"]] == [("app/orders.py", 5)]
    scoped = tool("search", query="compute_total", match="text", path_glob="docs/**")
    assert [h["path"] for h in scoped["results"]] == ["docs/notes.md"]
    assert scoped["path_glob"] == "docs/**"


def test_bad_regex_is_a_tool_error(tool) -> None:
    with pytest.raises(ToolError, match="ripgrep refused the pattern"):
        tool("search", query="a(b", match="regex")


def test_limit_truncates_in_path_order(tool) -> None:
    found = tool("search", query="import", match="text", limit=2)
    assert len(found["results"]) == 2
    assert found["truncated"] is True
    paths = [h["path"] for h in found["results"]]
    assert paths == sorted(paths)


def test_glob_lists_files_with_a_range_from_the_top(tool) -> None:
    found = tool("search", query="*.ts", match="glob")
    assert found["engine"] == "glob"
    assert [h["path"] for h in found["results"]] == ["web/api.ts", "web/client.ts"]
    assert found["results"][0]["suggested_range"] == {"start_line": 1, "end_line": 2}
    anchored = tool("search", query="app/*.py", match="glob", path_glob="**/cycle_*")
    assert [h["path"] for h in anchored["results"]] == ["app/cycle_a.py", "app/cycle_b.py"]
    # a slash pattern that matches nothing at the root is tried at any depth
    assert [h["path"] for h in tool("search", query="web/*.ts", match="glob")["results"]] == ["web/api.ts", "web/client.ts"]


def test_symbol_search_uses_the_index(tool) -> None:
    found = tool("search", query="OrderBook", match="symbol")
    assert found["engine"] == "index"
    hit = found["results"][0]
    assert (hit["path"], hit["symbol"], hit["kind"], hit["line"]) == ("app/orders.py", "OrderBook", "class", 4)
    cluster = tool("traverse_graph", mode="neighborhood", target="app/orders.py")["results"][0]
    assert hit["neighborhood"] == cluster["name"] and "app/orders.py" in cluster["members"]
    assert hit["suggested_range"]["start_line"] == 1
    partial = tool("search", query="total", match="symbol")
    assert {h["symbol"] for h in partial["results"]} >= {"compute_total", "OrderBook.total"}
    assert tool("search", query="no_such_thing", match="symbol")["status"] == "not_indexed"


def test_meaning_ranks_by_words_split_from_identifiers_and_docstrings(tool) -> None:
    found = tool("search", query="add up the prices in a cart", match="meaning")
    assert found["engine"] == "bm25"
    top = found["results"][0]
    assert (top["path"], top.get("symbol")) == ("app/util.py", "compute_total")
    assert top["score"] > 0
    by_name = tool("search", query="order book", match="meaning")
    assert by_name["results"][0]["path"] == "app/orders.py"
    assert tool("search", query="zebra quantum", match="meaning")["status"] == "not_indexed"


def test_graph_match_types_say_undeterminable_when_no_graph(tool) -> None:
    class Building:
        snapshot = None

        def _why_not_ready(self) -> str:
            return "the code graph is still being built"

    tool.context.graph = Building()
    found = tool("search", query="OrderBook", match="symbol")
    assert found["status"] == "undeterminable"
    assert "still being built" in found["reason"]
    # text search never needs the graph: it answers, with no neighborhood
    text = tool("search", query="OrderBook", match="text")
    assert text["results"] and all(h["neighborhood"] is None for h in text["results"])


def test_symlinks_out_of_the_root_are_never_searched(tool, project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "leak.py").write_text("TOP_SECRET = 1\n")
    os.symlink(outside, project / "linked")
    os.symlink(outside / "leak.py", project / "leak.py")
    assert tool("search", query="TOP_SECRET", match="text")["results"] == []
    listed = tool("search", query="*", match="glob", limit=1000)["results"]
    assert all(not h["path"].startswith(("linked", "leak")) for h in listed)


def test_results_never_show_the_absolute_root(tool, project: Path) -> None:
    for match in ("text", "glob", "symbol", "meaning"):
        assert str(project) not in repr(tool("search", query="compute_total", match=match))


def test_a_negated_path_glob_leaves_paths_out(tool) -> None:
    for match in ("text", "symbol", "meaning"):
        found = tool("search", query="compute_total", match=match, path_glob="!app/**")
        assert all(not h["path"].startswith("app/") for h in found["results"]), match
    kept = tool("search", query="*.ts", match="glob", path_glob="!web/api.ts")["results"]
    assert [h["path"] for h in kept] == ["web/client.ts"]
