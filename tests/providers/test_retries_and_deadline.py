"""Retries honor Retry-After; a hung stream is cut by the turn deadline and its connection closed."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from provider_wire import Pieces, mock_client, sse_response, wire

from konstruct_tui.agent import TextChunk, ToolCallChunk, UserMessage
from konstruct_tui.providers import (
    Anthropic,
    OpenAICompatible,
    ProviderError,
    RetryPolicy,
    TurnDeadlineExceeded,
)
from konstruct_tui.providers.retry import retry_after


async def collect(provider):
    return [item async for item in provider.stream_turn("s", [UserMessage("go")], [])]


class Sleeps:
    def __init__(self) -> None:
        self.asked: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        await asyncio.sleep(min(seconds, 0.01))


async def test_429_then_success_waits_what_retry_after_says() -> None:
    answers = [
        httpx.Response(429, headers={"retry-after": "0.05"}, json={"error": {"message": "Rate limit reached"}}),
        httpx.Response(503, headers={"retry-after-ms": "20"}, text="upstream busy"),
    ]
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return answers.pop(0) if answers else sse_response(wire("openai_tool_calls.sse"))

    sleeps = Sleeps()
    provider = OpenAICompatible(mock_client(handler), model="m", base_url="http://h/v1", sleep=sleeps)
    items = await collect(provider)
    assert len(requests) == 3
    assert sleeps.asked == [0.05, 0.02]
    assert len([i for i in items if isinstance(i, ToolCallChunk)]) == 2


async def test_backoff_without_retry_after_grows_and_gives_up_with_the_last_reason() -> None:
    sleeps = Sleeps()
    policy = RetryPolicy(attempts=4, base_delay_s=0.5, max_delay_s=1.5)
    provider = Anthropic(mock_client(lambda r: httpx.Response(529, json={"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})),
                         model="c", base_url="http://h", retry=policy, sleep=sleeps)
    with pytest.raises(ProviderError, match="gave up after 4 attempts: anthropic answered HTTP 529: Overloaded"):
        await collect(provider)
    assert sleeps.asked == [0.5, 1.0, 1.5]


async def test_connection_error_before_any_output_is_retried() -> None:
    failures = [httpx.ConnectError("connection refused")]

    def handler(request: httpx.Request) -> httpx.Response:
        if failures:
            raise failures.pop()
        return sse_response(wire("anthropic_tool_use.sse"))

    provider = Anthropic(mock_client(handler), model="c", base_url="http://h", sleep=Sleeps())
    items = await collect(provider)
    assert "".join(i.text for i in items if isinstance(i, TextChunk)).startswith("I'll read")


def test_retry_after_as_http_date() -> None:
    later = time.time() + 30
    response = httpx.Response(429, headers={"retry-after": time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(later))})
    assert 27 <= retry_after(response) <= 31
    assert retry_after(httpx.Response(429, headers={"retry-after": "soon"})) is None


async def test_hung_stream_is_cut_by_the_deadline_and_closed() -> None:
    body = wire("openai_tool_calls.sse")
    two_frames = body[: body.index(b"\n\n", body.index(b"\n\n") + 2) + 2]
    stream = Pieces([two_frames], hang_after=True)  # the role frame and one text delta, then silence
    provider = OpenAICompatible(
        mock_client(lambda r: httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=stream)),
        model="m", base_url="http://h/v1", turn_deadline_s=0.3,
    )
    started = time.monotonic()
    seen = []
    with pytest.raises(TurnDeadlineExceeded, match="deadline of 0.3 s"):
        async for item in provider.stream_turn("s", [UserMessage("go")], []):
            seen.append(item)
    assert 0.25 <= time.monotonic() - started < 1.5
    assert any(isinstance(i, TextChunk) for i in seen)  # what arrived was handed on before the cut
    await asyncio.wait_for(stream.closed.wait(), 1.0)  # and the connection was closed, not left hanging


async def test_closing_the_turn_early_closes_the_stream_at_once() -> None:
    """What the kill switch relies on: leaving the turn cancels the exchange and closes its stream."""
    body = wire("openai_tool_calls.sse")
    stream = Pieces([body[: body.index(b"\n\n", body.index(b"\n\n") + 2) + 2]], hang_after=True)
    provider = OpenAICompatible(mock_client(lambda r: httpx.Response(200, stream=stream)), model="m", base_url="http://h/v1")
    turn = provider.stream_turn("s", [UserMessage("go")], [])
    assert isinstance(await asyncio.wait_for(turn.__anext__(), 5), TextChunk)
    await asyncio.wait_for(turn.aclose(), 5)  # the stream would hang for ever: closing must not wait for it
    assert stream.closed.is_set()  # closed by the time aclose returned, not some time later
