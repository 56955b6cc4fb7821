"""`konstruct mcp` holds its client to the agent's grants: mutating tools and run_command ask the
client through MCP elicitation when it can answer, and are refused (naming `konstruct trust grant`
and `--read-only`) when it cannot. A stored grant needs no question."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

mcp = pytest.importorskip("mcp")

import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from konstruct_tui.trust import TrustStore


def _project(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "core.py").write_text("def answer():\n    return 42\n")
    return root


class Client:
    """An elicitation callback that answers as told and remembers the questions."""

    def __init__(self, answer: dict[str, Any] | None, action: str = "accept") -> None:
        self.answer, self.action = answer, action
        self.asked: list[str] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked.append(params.message)
        return types.ElicitResult(action=self.action, content=self.answer if self.action == "accept" else None)


async def _calls(root: Path, client: Client | None, calls: list[tuple[str, dict]]) -> list[Any]:
    env = {k: v for k, v in os.environ.items() if k.startswith(("XDG_", "PATH", "HOME", "PYTHON"))}
    params = StdioServerParameters(command=sys.executable, args=["-m", "konstruct_tui", "mcp", "--root", str(root)], env=env)
    out = []
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write), \
                ClientSession(read, write, elicitation_callback=client) as session:
            await session.initialize()
            for name, arguments in calls:
                if name == "write_code" and arguments.get("revision") == "?":
                    read_back = await session.call_tool("read_code", {"paths": ["pkg/core.py"]})
                    revision = read_back.structured_content["results"][0]["revision"]
                    arguments = {"edits": [{"path": "pkg/core.py", "revision": revision,
                                            "replacements": [{"old": "42", "new": "43"}]}]}
                out.append(await session.call_tool(name, arguments))
    return out


WRITE = ("write_code", {"revision": "?"})


def test_without_elicitation_a_write_is_refused_with_the_way_forward(tmp_path: Path) -> None:
    root = _project(tmp_path / "proj")
    (result,) = anyio.run(_calls, root, None, [WRITE])
    assert result.is_error
    text = result.content[0].text
    assert "konstruct trust grant edit" in text and "--read-only" in text
    assert (root / "pkg" / "core.py").read_text().endswith("42\n")


def test_an_elicited_grant_lets_the_write_through(tmp_path: Path) -> None:
    root = _project(tmp_path / "proj")
    client = Client({"grant": True, "scope": "once"})
    (result,) = anyio.run(_calls, root, client, [WRITE])
    assert not result.is_error, result
    assert result.structured_content["results"][0]["status"] == "written"
    assert len(client.asked) == 1 and "edit" in client.asked[0]


def test_a_declined_grant_changes_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path / "proj")
    client = Client(None, action="decline")
    (result,) = anyio.run(_calls, root, client, [WRITE, ])
    assert result.is_error and "declined" in result.content[0].text
    assert (root / "pkg" / "core.py").read_text().endswith("42\n")


def test_a_stored_grant_needs_no_question(tmp_path: Path) -> None:
    root = _project(tmp_path / "proj")
    TrustStore().grant(root, "edit")
    client = Client(None, action="decline")
    (result,) = anyio.run(_calls, root, client, [WRITE])
    assert not result.is_error and client.asked == []


def test_run_command_needs_the_commands_grant_over_mcp(tmp_path: Path) -> None:
    root = _project(tmp_path / "proj")
    touch = ("run_command", {"command": "touch made.txt"})
    (refused,) = anyio.run(_calls, root, None, [touch])
    assert refused.is_error and "konstruct trust grant commands" in refused.content[0].text
    assert not (root / "made.txt").exists()
    client = Client({"grant": True, "scope": "session"})
    first, second = anyio.run(_calls, root, client, [touch, ("run_command", {"command": "touch second.txt"})])
    assert not first.is_error and first.structured_content["status"] == "ok", first
    assert not second.is_error and len(client.asked) == 1  # a session grant: asked once
    assert (root / "made.txt").exists() and (root / "second.txt").exists()


def test_konstruct_tool_on_the_persons_shell_stays_grant_free(tmp_path: Path, konstruct: Any) -> None:
    root = _project(tmp_path / "proj")
    code, payload, _ = konstruct("tool", "run_command", "--root", str(root), "--json", '{"command": "touch mine.txt"}')
    assert code == 0 and payload["status"] == "ok" and (root / "mine.txt").exists()
