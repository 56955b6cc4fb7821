"""`konstruct run` with reasoning models against loopback servers replaying vendor streams: the
`reasoning` events, the config's reasoning effort on the wire, reasoning tokens in the budget, and a
long reasoning phase that keeps streaming is not cut by the turn deadline."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest
from reasoning_harness import wire
from sse_server import Reply, SSEServer

from konstruct_tui.agent.ports import ReasoningChunk, TextChunk, UserMessage
from konstruct_tui.cli import main
from konstruct_tui.providers import OpenAICompatible, TurnDeadlineExceeded
from konstruct_tui.userdirs import config_dir


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(key, raising=False)


def run(capsys: pytest.CaptureFixture[str], project: Path, *args: str) -> tuple[int, list[dict], str]:
    code = main(["run", "--root", str(project), "--yes", *args, "fix add in calc.py"])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def configure(text: str) -> None:
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "config.toml").write_text(text)


def test_claude_with_thinking_from_config_streams_reasoning_events(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure('[models."claude-sonnet-4-5"]\nreasoning_effort = 12000\n')
    replies = [Reply(body=wire("anthropic_thinking_tool_use.sse")), Reply(body=wire("anthropic_thinking_answer.sse"))]
    with SSEServer(replies) as server:
        code, events, err = run(capsys, project, "--provider", "anthropic", "--model", "claude-sonnet-4-5", "--base-url", server.url)
        sent = [r["body"] for r in server.requests]
    assert code == 0 and events[-1]["reason"] == "done" and err == ""
    reasoning = [e for e in events if e["event"] == "reasoning"]
    # Deltas that arrive in one network read come as one event (this server writes each body at once).
    assert "".join(e["text"] for e in reasoning if e["turn"] == 1) == "The person says add is wrong. I should read calc.py before changing it."
    assert {e["turn"] for e in reasoning} == {1, 2}
    assert sent[0]["thinking"] == {"type": "enabled", "budget_tokens": 12000}
    assert [b["type"] for b in sent[1]["messages"][1]["content"]] == ["thinking", "redacted_thinking", "text", "tool_use"]
    # Thinking is billed as output: the budget's output tokens are the server's (thinking included).
    assert [e for e in events if e["event"] == "budget"][-1]["output_tokens"] == 187 + 64


def test_a_responses_only_model_by_provider_flag(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replies = [Reply(body=wire("responses_reasoning_function_call.sse")), Reply(body=wire("responses_answer.sse"))]
    with SSEServer(replies) as server:
        code, events, _ = run(capsys, project, "--provider", "openai-responses", "--model", "gpt-5-codex", "--base-url", server.url)
        paths = [r["path"] for r in server.requests]
    assert code == 0 and paths == ["/v1/responses", "/v1/responses"]
    assert [e for e in events if e["event"] == "budget"][-1]["reasoning_tokens"] == 256
    assert "".join(e["text"] for e in events if e["event"] == "reasoning").startswith("**Reading the file first**")


def test_a_bad_reasoning_effort_in_config_is_a_one_line_usage_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure('[models."qwen3"]\nreasoning_effort = "extreme"\n')
    code = main(["run", "--root", str(project), "--provider", "openai", "--model", "qwen3", "--base-url", "http://127.0.0.1:9/v1", "go"])
    err = capsys.readouterr().err
    assert code == 2 and "reasoning_effort for model 'qwen3' must be one of" in err and len(err.strip().splitlines()) == 1


class Slow(httpx.AsyncByteStream):
    """A reasoning phase that keeps streaming: one piece every `gap` seconds."""

    def __init__(self, pieces: list[bytes], gap: float) -> None:
        self.pieces, self.gap = pieces, gap

    async def __aiter__(self):  # type: ignore[no-untyped-def]
        for piece in self.pieces:
            await asyncio.sleep(self.gap)
            yield piece


def _thinking_stream(count: int) -> list[bytes]:
    frames = [{"choices": [{"index": 0, "delta": {"reasoning_content": f"step {n}. "}}]} for n in range(count)]
    frames += [{"choices": [{"index": 0, "delta": {"content": "done"}, "finish_reason": "stop"}]}]
    return [b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames] + [b"data: [DONE]\n\n"]


async def test_a_long_reasoning_phase_that_keeps_streaming_is_not_cut() -> None:
    # Eight pieces 0.1 s apart: 0.8 s in all, twice the 0.4 s deadline, never silent that long.
    body = Slow(_thinking_stream(8), 0.1)
    client = httpx.AsyncClient(transport=httpx.MockTransport(lambda r: httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=body)))
    provider = OpenAICompatible(client, model="qwen3", base_url="http://h/v1", turn_deadline_s=0.4)
    items = [item async for item in provider.stream_turn("s", [UserMessage("go")], [])]
    assert "".join(i.text for i in items if isinstance(i, ReasoningChunk)).count("step") == 8
    assert [i.text for i in items if isinstance(i, TextChunk)] == ["done"]


async def test_a_reasoning_phase_that_goes_silent_is_still_cut() -> None:
    body = Slow(_thinking_stream(2), 0.8)  # the second piece comes after twice the deadline
    client = httpx.AsyncClient(transport=httpx.MockTransport(lambda r: httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=body)))
    provider = OpenAICompatible(client, model="qwen3", base_url="http://h/v1", turn_deadline_s=0.4)
    with pytest.raises(TurnDeadlineExceeded, match="deadline of 0.4 s"):
        [item async for item in provider.stream_turn("s", [UserMessage("go")], [])]
