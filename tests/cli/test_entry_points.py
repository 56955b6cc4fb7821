"""The console script and `python -m konstruct_tui` both work; bad input changes nothing on disk."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from konstruct_tui import __version__


def run(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "konstruct_tui", *argv], capture_output=True, text=True, cwd=cwd, check=False)


def test_version_from_the_console_script_and_the_module() -> None:
    script = subprocess.run(["konstruct", "--version"], capture_output=True, text=True, check=False)
    assert script.returncode == 0 and script.stdout.strip() == f"konstruct {__version__}"
    assert run("--version").stdout.strip() == f"konstruct {__version__}"


def test_tools_lists_schemas() -> None:
    done = run("tools")
    tools = {t["name"]: t for t in json.loads(done.stdout)["tools"]}
    assert {"read_code", "write_code", "delete_code"} <= set(tools)
    assert tools["read_code"]["mutating"] is False and tools["write_code"]["mutating"] is True
    assert "paths" in tools["read_code"]["input_schema"]["properties"]


def test_tool_call_in_a_subprocess_prints_json(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    done = run("tool", "read_code", "--root", str(tmp_path), "--json", '{"paths": ["a.py"]}')
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["results"][0]["content"] == "x = 1\n"


def test_bad_input_is_one_line_exit_2_and_nothing_changes(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    cases = [
        ("tool", "read_code", "--root", str(tmp_path), "--json", "{not json"),
        ("tool", "no_such_tool", "--root", str(tmp_path), "--json", "{}"),
        ("tool", "read_code", "--root", str(tmp_path / "missing"), "--json", '{"paths": ["a.py"]}'),
        ("tool", "write_code", "--root", str(tmp_path), "--json", '{"edits": [{"path": "a.py", "content": "y", "replacements": [{"old": "x", "new": "y"}]}]}'),
        ("tool", "write_code", "--root", str(tmp_path), "--json", '["not", "an", "object"]'),
        ("no-such-command",),
    ]
    for argv in cases:
        done = run(*argv)
        assert done.returncode == 2, (argv, done.stderr)
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("konstruct: error:"), done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert (tmp_path / "a.py").read_text() == "x = 1\n"


def test_json_can_come_from_stdin(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    done = subprocess.run(
        [sys.executable, "-m", "konstruct_tui", "tool", "read_code", "--root", str(tmp_path), "--json", "-"],
        input='{"paths": ["a.py"]}', capture_output=True, text=True, check=False,
    )
    assert json.loads(done.stdout)["results"][0]["status"] == "ok"


def test_a_reader_that_stops_early_is_no_internal_error() -> None:
    """`konstruct tools | head -1`: the pipe closes under the writer; quiet, and 141 as a shell says."""
    child = subprocess.Popen([sys.executable, "-m", "konstruct_tui", "tools"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    assert child.wait(timeout=60) == 141
    assert child.stderr.read() == b""
