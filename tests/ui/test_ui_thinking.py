"""The workbench shows a reasoning model think: a dimmed "thinking…" block streaming live that
folds to one line when the answer starts, opened again with ctrl+g; never mixed into the answer."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from ui_harness import make_project, wait_for

from konstruct_tui.agent import Limits
from konstruct_tui.app import WorkbenchSetup
from konstruct_tui.providers import resolve
from konstruct_tui.ui.app import Workbench
from konstruct_tui.ui.panes.thinking import ThinkingBlock
from konstruct_tui.ui.panes.transcript import AssistantText


def _sse(deltas: list[dict], finish: str) -> bytes:
    frames = [{"choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas]
    frames += [{"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}, {"choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 5}}]
    return b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames) + b"data: [DONE]\n\n"


ANSWER = _sse([{"reasoning_content": "The user asks why add fails. "}, {"reasoning_content": "It subtracts."},
               {"content": "<think>inline too</think>add() subtracts."}], "stop")


@pytest.fixture
def server() -> Iterator[str]:
    replies = [ANSWER]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length") or 0))
            body = replies.pop(0)
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


async def test_thinking_streams_apart_then_folds_and_ctrl_g_opens_it(tmp_path: Path, server: str) -> None:
    settings = resolve(provider="openai", model="qwen3", base_url=server, environ={}, config={})
    app = Workbench(WorkbenchSetup(make_project(tmp_path), settings, None, Limits(max_turns=3)))
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("why does add fail?")
        await wait_for(pilot, lambda: [r.shown for r in app.query(AssistantText)] == ["add() subtracts."])
        blocks = list(app.query(ThinkingBlock))
        assert len(blocks) == 1
        block = blocks[0]
        assert block.text == "The user asks why add fails. It subtracts.inline too"
        assert block.folded and block.collapsed  # one line once the answer began
        assert "thought for" in str(block.title) and "words" in str(block.title)
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: not block.collapsed)


async def test_show_reasoning_false_hides_it(tmp_path: Path, server: str) -> None:
    settings = resolve(provider="openai", model="qwen3", base_url=server, environ={},
                       config={"models": {"qwen3": {"show_reasoning": False}}})
    app = Workbench(WorkbenchSetup(make_project(tmp_path), settings, None, Limits(max_turns=3)))
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("why does add fail?")
        await wait_for(pilot, lambda: [r.shown for r in app.query(AssistantText)] == ["add() subtracts."])
        assert not list(app.query(ThinkingBlock))


async def test_while_it_thinks_the_block_is_open_and_says_so(tmp_path: Path) -> None:
    from ui_harness import post, workbench

    from konstruct_tui.agent import ReasoningDelta, TextDelta, TurnStarted

    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, TurnStarted(1), ReasoningDelta(1, "Reading calc.py "), ReasoningDelta(1, "first."))
        await wait_for(pilot, lambda: list(app.query(ThinkingBlock)))
        block = app.query_one(ThinkingBlock)
        await wait_for(pilot, lambda: "Reading calc.py first." in str(block._body.render()))
        assert not block.collapsed and "thinking…" in str(block.title)
        post(app, TextDelta(1, "The answer."))
        await wait_for(pilot, lambda: block.collapsed)
        assert not list(app.query(AssistantText))[0].text.startswith("Reading")
        post(app, TurnStarted(2), ReasoningDelta(2, "Next turn's thought."))
        await wait_for(pilot, lambda: len(app.query(ThinkingBlock)) == 2)  # a new phase, a new block
