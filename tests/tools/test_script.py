"""The Starlark `script` tool: reads through the read-only tools, computes, and cannot get out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from konstruct_tui.tools import ToolContext, ToolError, call
from konstruct_tui.workspace import Workspace


@pytest.fixture
def ws(tmp_path: Path):
    root = tmp_path / "project"
    root.mkdir()
    (root / "a.py").write_text("def f(x):\n    return x\n\nf(None)\nf(1)\n")
    (root / "b.py").write_text("from a import f\nf(None)\n")
    (tmp_path / "secret.txt").write_text("OUTSIDE\n")
    with Workspace(root) as workspace:
        yield workspace


def run(ws: Workspace, program: str, **extra) -> dict:
    return call("script", {"program": program, **extra}, ToolContext(ws)).payload


def test_reads_and_computes_over_results_in_one_call(ws: Workspace) -> None:
    program = """
hits = []
for entry in read_code(["a.py", "b.py"])["results"]:
    for number, line in enumerate(entry["content"].splitlines()):
        if "(None)" in line:
            hits.append({"path": entry["path"], "line": number + 1})
print("found", len(hits))
hits
"""
    result = run(ws, program)
    assert result["result"] == [{"path": "a.py", "line": 4}, {"path": "b.py", "line": 2}]
    assert result["printed"] == ["found 2"]
    assert result["tool_calls"] == 1
    json.dumps(result)


def test_reads_from_a_script_still_refuse_outside_paths(ws: Workspace) -> None:
    result = run(ws, 'read_code(["../secret.txt", "/etc/passwd"])["results"]')
    assert [e["status"] for e in result["result"]] == ["refused", "refused"]
    assert "OUTSIDE" not in json.dumps(result)


@pytest.mark.parametrize(
    "program, words",
    [
        ('write_code(edits=[{"path": "a.py", "create": True, "content": "x"}])', "write_code"),
        ('delete_code(["a.py"])', "delete_code"),
        ('load("os.star", "system")', "import"),
        ('open("a.py")', "open"),
    ],
)
def test_writes_imports_and_file_access_do_not_exist(ws: Workspace, program: str, words: str) -> None:
    with pytest.raises(ToolError, match="line 1") as error:
        run(ws, program)
    assert words in str(error.value) or "not found" in str(error.value)
    assert (ws.root / "a.py").read_text().startswith("def f")


def test_an_endless_loop_is_stopped(ws: Workspace) -> None:
    with pytest.raises(ToolError, match="script stopped: the script ran (more than|longer than)"):
        run(ws, "x = 0\nfor i in range(2147483647):\n    x += 1\n", timeout_s=2)


def test_unbounded_allocation_is_stopped(ws: Workspace) -> None:
    with pytest.raises(ToolError, match="script stopped: the script used more than"):
        run(ws, 'x = ["a" * 1000000]\nfor i in range(100000):\n    x = x + x[:1] + [str(i) * 100000]\n', timeout_s=30)


def test_errors_name_the_starlark_line(ws: Workspace) -> None:
    with pytest.raises(ToolError, match=r"script error \(line 3\): .*not supported"):
        run(ws, "a = 1\nb = 2\nc = a + 'x'\n")


def test_bad_tool_input_inside_a_script_names_the_line(ws: Workspace) -> None:
    with pytest.raises(ToolError, match=r"line 2.*invalid input for read_code"):
        run(ws, "x = 1\nread_code(paths=[])\n")


def test_result_must_be_json(ws: Workspace) -> None:
    with pytest.raises(ToolError, match="not JSON"):
        run(ws, "def f():\n    return 1\nf\n")


def test_enumerate_is_both_the_tool_and_the_builtin(ws: Workspace) -> None:
    result = run(ws, 'files = [f["path"] for f in enumerate(collection="files")["results"]]\n[[i, x] for i, x in enumerate(["p", "q"], 1)] + [sorted(files)]')
    assert result["result"][:2] == [[1, "p"], [2, "q"]]
    assert result["result"][2] == ["a.py", "b.py"]


def _resident() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


@pytest.mark.parametrize("program", [
    # Issue 31: four string operations reached 1 GiB between two looks at the resident size.
    'a = "x" * 200000000\nb = a + a\nc = b + a\nd = c + b\nlen(d)',
    'a = "x" * 300000000\nb = "".join([a, a, a, a])\nlen(b)',
    'a = "xy" * 150000000\nb = a.replace("x", "xxxx")\nlen(b)',
    'a = "x" * 300000000\nb = "%s%s%s" % (a, a, a)\nlen(b)',
    'a = ["x"] * 200000000\nlen(a)',
    'a = "x" * 100000000\nb = json.encode([a, a, a, a, a, a])\nlen(b)',
    'a = "x" * 2147483000\nlen(a)',
])
def test_a_huge_allocation_is_refused_where_it_is_made(ws: Workspace, program: str) -> None:
    before = _resident()
    with pytest.raises(ToolError, match="script stopped: the script used more than 512 MiB"):
        run(ws, program, timeout_s=30)
    assert _resident() - before < 256 * 2**20  # the workbench itself never held it


def test_a_script_below_the_limit_still_computes_with_tools(ws: Workspace) -> None:
    result = run(ws, 'a = "x" * 100000000\n[len(a + a), read_code(["a.py"])["results"][0]["path"]]', timeout_s=30)
    assert result["result"] == [200000000, "a.py"] and result["tool_calls"] == 1
