"""`konstruct mcp` over its raw stdio wire, the way a misbehaving or impatient client drives it:
a cancelled command is killed with its whole process tree, reads answer while a command runs, the
server and its commands end when stdin closes, a request before `initialize` gets the protocol's
error, and a line the server cannot take is answered, never met with silence."""

from __future__ import annotations

import io
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from konstruct_tui.cli.mcp_wire import OversizeLine, read_line, refusal, top_level_id  # noqa: E402
from konstruct_tui.trust import TrustStore  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
WAIT = 20.0  # generous: the machine is shared; what matters is that an answer comes at all


class Wire:
    """A raw JSON-RPC client on the server's stdin/stdout: every line it sends and reads is visible."""

    def __init__(self, root: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.proc = subprocess.Popen([sys.executable, "-m", "konstruct_tui", "mcp", "--root", str(root)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(json.loads(raw))
        self.lines.put(None)

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(json.dumps({"jsonrpc": "2.0", **message}).encode())

    def answer(self, request_id: Any, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The response to `request_id`; every other message read on the way goes to `seen`."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                message = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if message is None:
                raise AssertionError(f"the server closed its stdout before answering {request_id!r}")
            if "id" in message and message["id"] == request_id and ("result" in message or "error" in message):
                return message
            if seen is not None:
                seen.append(message)
        raise AssertionError(f"no answer to {request_id!r} within {WAIT} s")

    def initialize(self) -> None:
        self.send({"id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}})
        assert "result" in self.answer(0)
        self.send({"method": "notifications/initialized"})

    def call(self, request_id: int, name: str, arguments: dict[str, Any]) -> None:
        self.send({"id": request_id, "method": "tools/call", "params": {"name": name, "arguments": arguments}})

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "core.py").write_text("def answer():\n    return 42\n")
    return root


def _slow_command(root: Path, token: str) -> dict[str, Any]:
    """A command that starts a child and sleeps: both carry `token` in their command line, so the
    test finds them in /proc whatever pid namespace the sandbox gives them."""
    (root / "slow.sh").write_text(f"sleep {token}1 &\nsleep {token}2\n")
    TrustStore().grant(root, "commands")
    return {"command": "sh slow.sh", "timeout_s": 600}


def _running(token: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
        except OSError:
            continue
        if argv and argv[0] == b"sleep" and any(arg.startswith(token.encode()) for arg in argv[1:]):
            found.append(int(entry))
    return found


def _until(condition: Any, seconds: float = WAIT) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


def test_a_request_before_initialize_gets_the_protocols_error(project: Path) -> None:
    wire = Wire(project)
    try:
        wire.send({"id": 1, "method": "tools/list"})
        early = wire.answer(1)
        assert early["error"]["code"] == -32600
        assert "initialize" in early["error"]["message"] and "Invalid request parameters" not in early["error"]["message"]
        wire.send({"id": 2, "method": "tools/call", "params": {"name": "read_code", "arguments": {"paths": ["pkg/core.py"]}}})
        assert wire.answer(2)["error"]["code"] == -32600
        wire.send({"id": 3, "method": "ping"})  # ping is allowed before the handshake
        assert wire.answer(3)["result"] == {}
        wire.initialize()
        wire.send({"id": 4, "method": "tools/list"})
        assert "read_code" in {tool["name"] for tool in wire.answer(4)["result"]["tools"]}
    finally:
        wire.close()


def test_a_deeply_nested_line_is_answered_with_an_error_and_the_server_goes_on(project: Path) -> None:
    wire = Wire(project)
    try:
        wire.initialize()
        depth = 100_000
        nested = b"[" * depth + b"]" * depth
        wire.send_raw(b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_code","arguments":{"paths":'
                      + nested + b"}}}")
        refused = wire.answer(7)
        assert refused["error"]["code"] == -32600 and "nested too deeply" in refused["error"]["message"]
        # the id comes after the nesting: still found, as the request's own
        wire.send_raw(b'{"jsonrpc":"2.0","method":"tools/call","params":{"x":' + nested + b'},"id":"late"}')
        assert wire.answer("late")["error"]["code"] == -32600
        wire.send_raw(b"{this is not json")
        garbled = wire.answer(None)
        assert garbled["error"]["code"] == -32700
        wire.send_raw(b'{"jsonrpc":"2.0","id":8}')  # JSON, but neither a request nor a response
        assert wire.answer(8)["error"]["code"] == -32600
        # nesting the parser takes but the tools do not: the tool's own one-line error
        wire.call(9, "read_code", {"paths": json.loads("[" * 100 + "]" * 100)})
        bounded = wire.answer(9)["result"]
        assert bounded["isError"] and "nested deeper than" in bounded["content"][0]["text"]
        wire.call(10, "read_code", {"paths": ["pkg/core.py"]})
        assert wire.answer(10)["result"]["structuredContent"]["results"][0]["status"] == "ok"
    finally:
        wire.close()


def test_an_oversize_line_is_refused_without_being_held_and_names_its_id() -> None:
    line = b'{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"blob":"' + b"x" * 5000 + b'"}}\n'
    stream = io.BytesIO(line + b'{"jsonrpc":"2.0","id":43,"method":"ping"}\n')
    first = read_line(stream, limit=1000)
    assert isinstance(first, OversizeLine) and first.size == len(line)
    answer = refusal(first, None)
    assert answer["id"] == 42 and answer["error"]["code"] == -32600 and "too large" in answer["error"]["message"]
    assert json.loads(read_line(stream, limit=1000))["id"] == 43  # the next message is intact


def test_the_id_is_read_from_the_top_level_only() -> None:
    assert top_level_id(b'{"params":{"id":1},"id":2,"method":"x"') == 2
    assert top_level_id(b'{"method":"id","id":"a\\"b"}') == 'a"b'
    assert top_level_id(b'{"params":[[[[[[') is None
    assert top_level_id(b'{"id":true}') is None


def test_reads_answer_while_a_command_runs_and_a_cancel_kills_its_tree(project: Path) -> None:
    token = f"3{os.getpid() % 1000}.{time.monotonic_ns() % 10**6}"
    arguments = _slow_command(project, token)
    wire = Wire(project)
    try:
        wire.initialize()
        wire.call(1, "run_command", arguments)
        assert _until(lambda: len(_running(token)) == 2), "the command and its child should be running"
        seen: list[dict[str, Any]] = []
        wire.call(2, "read_code", {"paths": ["pkg/core.py"]})
        read = wire.answer(2, seen)
        assert read["result"]["structuredContent"]["results"][0]["status"] == "ok"
        assert not any(m.get("id") == 1 for m in seen), "the command cannot have finished: it sleeps for minutes"
        assert len(_running(token)) == 2

        wire.send({"method": "notifications/cancelled", "params": {"requestId": 1, "reason": "enough"}})
        assert _until(lambda: not _running(token)), "the cancelled command's whole tree should be killed"
        wire.send({"id": 3, "method": "ping"})
        wire.answer(3, seen)
        assert not any(m.get("id") == 1 for m in seen), "a cancelled request is not answered (MCP spec)"
        wire.call(4, "run_command", {"command": "true"})  # the turn the cancelled command held is free
        assert wire.answer(4)["result"]["structuredContent"]["status"] == "ok"
    finally:
        wire.close()


def test_stdin_closing_ends_the_server_and_every_command_it_started(project: Path) -> None:
    token = f"4{os.getpid() % 1000}.{time.monotonic_ns() % 10**6}"
    arguments = _slow_command(project, token)
    wire = Wire(project)
    try:
        wire.initialize()
        wire.call(1, "run_command", arguments)
        assert _until(lambda: len(_running(token)) == 2)
        assert wire.proc.stdin is not None
        closed = time.monotonic()
        wire.proc.stdin.close()
        wire.proc.wait(timeout=WAIT)
        took = time.monotonic() - closed
        assert not _running(token)
        # The promise is one second; the bound here leaves room for a loaded test machine.
        assert took < 5.0, f"the server took {took:.2f} s to end after stdin closed"
    finally:
        wire.close()
