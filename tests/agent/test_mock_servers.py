"""End to end through `konstruct run` against real loopback servers.

fakellm (a third-party mock of both APIs, run as its own process) scripts the multi-turn run: read a
file, edit it with the revision from the read, finish. fakellm cannot answer a streaming request with
429 + Retry-After, nor hang a stream, so those go to our own stdlib server (sse_server.py)."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from agent_harness import CALC
from sse_server import Reply, SSEServer, openai_done, openai_text

from konstruct_tui.cli import main

REVISION = "sha256:" + hashlib.sha256(CALC.encode()).hexdigest()
RULES = f"""
version: 1
rules:
  - name: read_first
    when: {{turn: 1}}
    respond:
      content: "Let me read calc.py."
      tool_calls:
        - name: read_code
          arguments: {{paths: ["calc.py"]}}
  - name: edit_with_revision
    when: {{turn: 2, tool_result_contains: "{REVISION}"}}
    respond:
      tool_calls:
        - name: write_code
          arguments:
            edits:
              - path: calc.py
                revision: "{REVISION}"
                replacements: [{{old: "return a - b", new: "return a + b"}}]
  - name: finish
    when: {{turn: 3, tool_result_contains: "written"}}
    respond:
      content: "Fixed add: it subtracted instead of adding."
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def fakellm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("fakellm", reason="the dev dependency fakellm is not installed")
    folder = tmp_path_factory.mktemp("fakellm")
    (folder / "fakellm.yaml").write_text(RULES)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", "from fakellm.cli import main; main()", "serve", "--port", str(port), "--config", "fakellm.yaml"],
                              cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(url + "/_fakellm/stats", timeout=0.5)
                break
            except httpx.HTTPError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"fakellm did not start: {server.stderr.read().decode()[-500:]}")  # type: ignore[union-attr]
                time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        server.wait(10)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict]]:
    code = main(["run", *argv])
    out, _ = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("provider, base, model", [("openai", "/v1", "gpt-4o-mini"), ("anthropic", "", "claude-sonnet-4-5")])
def test_multi_turn_run_against_fakellm(provider: str, base: str, model: str, fakellm: str, project: Path,
                                        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(key, raising=False)
    httpx.post(fakellm + "/_fakellm/reset")
    code, events = run(capsys, "--root", str(project), "--provider", provider, "--base-url", fakellm + base, "--model", model, "--yes",
                       f"add() in calc.py is wrong ({provider}); fix it")
    assert code == 0, events[-1]
    assert (project / "calc.py").read_text() == CALC.replace("a - b", "a + b")
    tools = [(e["tool"], e["statuses"]) for e in events if e["event"] == "tool_finished"]
    assert tools == [("read_code", ["ok"]), ("write_code", ["written"])]
    finished = events[-1]
    assert finished["reason"] == "done" and finished["turns"] == 3 and "Fixed add" in finished["message"]
    budget = [e for e in events if e["event"] == "budget"][-1]
    assert budget["cost_usd"] is not None and budget["input_tokens"] > 0
    if provider == "openai":  # fakellm sends no usage on OpenAI streams: the budget says it estimated
        assert budget["tokens_estimated"] and "estimated" in budget["cost_note"]


def test_429_then_success_through_konstruct_run(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replies = [Reply(429, {"retry-after": "0.2"}, b'{"error": {"message": "Rate limit reached for requests"}}'), Reply(body=openai_done("Nothing to do."))]
    with SSEServer(replies) as server:
        started = time.monotonic()
        code, events = run(capsys, "--root", str(project), "--provider", "openai", "--base-url", server.url + "/v1", "--model", "m", "look")
        took = time.monotonic() - started
    assert code == 0 and events[-1]["reason"] == "done"
    assert len(server.requests) == 2 and took >= 0.2  # it waited what Retry-After said before asking again
    assert server.requests[1]["body"]["messages"][-1]["role"] == "user"


def test_hung_stream_cut_by_the_turn_deadline(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SSEServer([Reply(body=openai_text("Let", " me"), hang=True)]) as server:
        started = time.monotonic()
        code, events = run(capsys, "--root", str(project), "--provider", "openai", "--base-url", server.url, "--model", "m", "--turn-timeout", "0.5", "look")
        took = time.monotonic() - started
        assert server.client_left.wait(2.0), "the hung connection was left open"
    assert code == 1 and events[-1]["reason"] == "error" and "deadline of 0.5 s" in events[-1]["message"]
    # What streamed before the server went silent reached the person (one event: it came in one read).
    assert "".join(e["text"] for e in events if e["event"] == "text_delta") == "Let me"
    assert took < 3.0


def test_kill_closes_a_real_socket_stream(project: Path, tmp_path: Path) -> None:
    """SIGINT to a `konstruct run` streaming from a loopback server: the server sees the client leave."""
    import signal

    with SSEServer([Reply(body=openai_text("Working"), hang=True)]) as server:
        env = {**os.environ, "OPENAI_API_KEY": ""}
        proc = subprocess.Popen([sys.executable, "-m", "konstruct_tui", "run", "--root", str(project), "--provider", "openai",
                                 "--base-url", server.url, "--model", "m", "go"], stdout=subprocess.PIPE, text=True, env=env)
        try:
            for line in proc.stdout:  # type: ignore[union-attr]
                if json.loads(line)["event"] == "text_delta":
                    break
            sent = time.monotonic()
            proc.send_signal(signal.SIGINT)
            assert server.client_left.wait(2.0)
            closed_after = server.client_left_at - sent  # type: ignore[operator]
            proc.wait(5)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 130
    assert closed_after < 1.0, f"stream closed {closed_after * 1000:.0f} ms after SIGINT"  # bench_kill.py measures the real figure
