"""`konstruct mcp`: a real MCP client (the SDK's stdio client) initializes, lists the tools with
their schemas, and calls them; tool errors come back as error results, not a dead server."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest

mcp = pytest.importorskip("mcp")

from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

EXPECTED = {"search", "read_code", "write_code", "delete_code", "traverse_graph", "enumerate", "git_diff"}


def _project(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text("def answer():\n    return 42\n")
    (root / "pkg" / "use.py").write_text("from pkg.core import answer\n\nprint(answer())\n")
    return root


async def _session_run(root: Path, *extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k.startswith(("XDG_", "PATH", "HOME", "PYTHON"))}
    params = StdioServerParameters(command=sys.executable, args=["-m", "konstruct_tui", "mcp", "--root", str(root), *extra],
                                   env=env)
    seen: dict = {}
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write), ClientSession(read, write) as session:
            init = await session.initialize()
            seen["server"] = init.server_info.name
            listed = await session.list_tools()
            seen["tools"] = {t.name: t for t in listed.tools}
            seen["impact"] = await session.call_tool("traverse_graph", {"mode": "impact", "target": "pkg/core.py"})
            seen["read"] = await session.call_tool("read_code", {"paths": ["pkg/core.py"]})
            seen["bad"] = await session.call_tool("traverse_graph", {"mode": "callers"})
            if "write_code" in seen["tools"]:
                revision = seen["read"].structured_content["results"][0]["revision"]
                seen["write"] = await session.call_tool("write_code", {"edits": [
                    {"path": "pkg/core.py", "revision": revision, "replacements": [{"old": "42", "new": "43"}]}]})
    return seen


def test_round_trip_over_stdio(tmp_path: Path) -> None:
    from konstruct_tui.trust import TrustStore

    root = _project(tmp_path / "proj")
    TrustStore().grant(root, "edit")  # over MCP a write needs the agent's grant (issue 13; see test_mcp_trust)
    seen = anyio.run(_session_run, root)
    assert seen["server"] == "konstruct"
    assert EXPECTED <= set(seen["tools"])
    schema = seen["tools"]["traverse_graph"].input_schema
    assert "mode" in schema["properties"] and "mode" in schema["required"]
    assert seen["tools"]["read_code"].annotations.read_only_hint is True

    impact = seen["impact"]
    assert not impact.is_error
    assert impact.structured_content["status"] == "ok"
    assert [r["path"] for r in impact.structured_content["results"]] == ["pkg/use.py"]
    assert json.loads(impact.content[0].text) == impact.structured_content

    read = seen["read"].structured_content["results"][0]
    assert read["content"] == "def answer():\n    return 42\n" and read["importers"] == ["pkg/use.py"]

    assert seen["bad"].is_error and "needs a symbol" in seen["bad"].content[0].text
    assert str(root) not in seen["bad"].content[0].text

    written = seen["write"].structured_content["results"][0]
    assert written["status"] == "written" and written["dependents"] == ["pkg/use.py"]
    assert (root / "pkg" / "core.py").read_text() == "def answer():\n    return 43\n"


def test_read_only_serves_no_tool_that_changes_files(tmp_path: Path) -> None:
    seen = anyio.run(_session_run, _project(tmp_path / "proj"), "--read-only")
    assert "write_code" not in seen["tools"] and "delete_code" not in seen["tools"]
    assert {"search", "read_code", "traverse_graph"} <= set(seen["tools"])
