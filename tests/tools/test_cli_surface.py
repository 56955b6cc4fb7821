"""The tool surface from the shell: `konstruct tools` lists every tool with its schema, and
`konstruct tool NAME --json` answers (bad input: one line on stderr, exit 2)."""

from __future__ import annotations

from pathlib import Path


def test_tools_lists_every_intent_with_a_schema(konstruct) -> None:
    code, payload, _ = konstruct("tools")
    assert code == 0
    tools = {t["name"]: t for t in payload["tools"]}
    for name in ("search", "enumerate", "traverse_graph", "git_diff", "read_code", "write_code", "delete_code"):
        assert tools[name]["description"] and tools[name]["input_schema"]["type"] == "object"
    assert tools["search"]["input_schema"]["properties"]["match"]["enum"] == ["text", "regex", "glob", "symbol", "meaning"]
    assert tools["traverse_graph"]["mutating"] is False and tools["write_code"]["mutating"] is True
    collections = tools["enumerate"]["input_schema"]["properties"]["collection"]["enum"]
    assert collections == ["files", "directories", "symbols", "neighborhoods", "languages", "scripts"]
    # a tool's description is its docstring as one line: the model reads no line breaks or indents
    assert tools["read_code"]["description"].startswith("Read files or line ranges in one batch. Each entry has a status")
    assert tools["search"]["mutating"] is False and tools["run_command"]["mutating"] is True
    for tool in tools.values():
        assert "\n" not in tool["description"] and "  " not in tool["description"], tool["name"]


def test_a_structural_question_from_the_shell_builds_the_index_first(konstruct, project: Path) -> None:
    code, answer, _ = konstruct("tool", "traverse_graph", "--root", str(project), "--json",
                                '{"mode": "dependents", "target": "app/util.py"}')
    assert code == 0
    assert answer["status"] == "ok" and [r["path"] for r in answer["results"]] == ["app/orders.py"]
    code, found, _ = konstruct("tool", "search", "--root", str(project), "--json",
                               '{"query": "render_report", "match": "symbol"}')
    assert found["results"][0]["path"] == "app/report.py" and found["results"][0]["neighborhood"]


def test_bad_input_is_one_line_and_exit_2(konstruct, project: Path) -> None:
    code, out, err = konstruct("tool", "search", "--root", str(project), "--json", '{"query": "x", "match": "fuzzy"}')
    assert code == 2 and out is None
    assert err.count("\n") == 1 and "match" in err
    code, _, err = konstruct("tool", "traverse_graph", "--root", str(project), "--json", '{"mode": "path"}')
    assert code == 2 and "needs a source and a target" in err
