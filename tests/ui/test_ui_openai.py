"""The workbench with a real provider: OpenAI-compatible chat completions streamed from a loopback
server (no network). Text streams into the transcript, the tool call runs, the budget prices it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from ui_harness import make_project, wait_for

from konstruct_tui.agent import Limits
from konstruct_tui.providers import resolve
from konstruct_tui.ui.app import Workbench
from konstruct_tui.ui.panes.batches import BatchTable
from konstruct_tui.ui.panes.budgets import BudgetsPane
from konstruct_tui.ui.panes.transcript import AssistantText
from konstruct_tui.app import WorkbenchSetup


def _sse(chunks: list[dict]) -> bytes:
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"


def _delta(**delta: object) -> dict:
    return {"id": "x", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}


TURNS = [
    _sse([
        _delta(role="assistant", content="Reading "),
        _delta(content="the core."),
        _delta(tool_calls=[{"index": 0, "id": "call_1", "type": "function", "function": {"name": "read_code", "arguments": ""}}]),
        _delta(tool_calls=[{"index": 0, "function": {"arguments": '{"paths": ["calc/core.py", "nope.py"]}'}}]),
        {"id": "x", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
        {"id": "x", "choices": [], "usage": {"prompt_tokens": 1000, "completion_tokens": 50}},
    ]),
    _sse([
        _delta(role="assistant", content="add() subtracts; "),
        _delta(content="that is the bug."),
        {"id": "x", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        {"id": "x", "choices": [], "usage": {"prompt_tokens": 1500, "completion_tokens": 20}},
    ]),
]


@pytest.fixture
def server() -> Iterator[str]:
    replies = list(TURNS)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length") or 0))
            body = replies.pop(0) if replies else b'{"error": {"message": "no more turns"}}'
            self.send_response(200 if body.startswith(b"data:") else 500)
            self.send_header("content-type", "text/event-stream")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


async def test_pair_coding_against_an_openai_compatible_server(tmp_path: Path, server: str) -> None:
    settings = resolve(provider="openai", model="gpt-4.1-mini", base_url=server, environ={}, config={})
    app = Workbench(WorkbenchSetup(make_project(tmp_path), settings, None, Limits(max_turns=5, max_cost_usd=1.0)))
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("why does add fail?")
        budgets = app.query_one(BudgetsPane)
        await wait_for(pilot, lambda: budgets.state == "done", timeout=30)
        expected = ["Reading the core.", "add() subtracts; that is the bug."]
        # Markdown renders a beat after the stream ends: wait for the last piece to land.
        await wait_for(pilot, lambda: [r.shown for r in app.query(AssistantText)] == expected)
        assert [(r.path, r.status) for r in app.query_one(BatchTable).rows_shown] == [("calc/core.py", "ok"), ("nope.py", "not_found")]
        assert budgets.budget is not None and budgets.budget.input_tokens == 2500 and budgets.budget.cost_usd
        assert "openai · gpt-4.1-mini" in str(app.query_one("#banner").content)
