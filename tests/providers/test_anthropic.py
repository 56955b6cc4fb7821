"""Anthropic messages against a recorded stream: text, then two tool_use blocks whose input arrives
as input_json_delta pieces."""

from __future__ import annotations

import json

import httpx
import pytest
from provider_wire import mock_client, sse_response, wire

from konstruct_tui.agent import (
    AssistantMessage,
    TextChunk,
    ToolCall,
    ToolCallChunk,
    ToolResultMessage,
    ToolSpec,
    TurnEnd,
    UsageChunk,
    UserMessage,
)
from konstruct_tui.providers import Anthropic, ProviderError
from konstruct_tui.providers.anthropic import messages_url

TOOLS = [ToolSpec("read_code", "Read files.", {"type": "object"})]


async def collect(provider, transcript=None):
    return [item async for item in provider.stream_turn("system rules", transcript or [UserMessage("fix add")], TOOLS)]


@pytest.mark.parametrize("piece", [1, 13, 4096])
async def test_tool_use_blocks_split_across_chunks_are_assembled(piece: int) -> None:
    client = mock_client(lambda request: sse_response(wire("anthropic_tool_use.sse"), piece))
    items = await collect(Anthropic(client, model="claude-sonnet-4-5", base_url="https://api.example", api_key="k"))
    assert "".join(i.text for i in items if isinstance(i, TextChunk)) == "I'll read calc.py and fix it."
    assert [i.call for i in items if isinstance(i, ToolCallChunk)] == [
        ToolCall("toolu_01T1x1fJ34qAmk2tNTrN7Up6", "read_code", {"paths": ["calc.py", {"path": "util.py", "start_line": 1, "end_line": 40}]}),
        ToolCall("toolu_01Hk7x2WbYq9ZcVdPqLmN4sA", "search", {"query": "compute_total", "match": "symbol"}),
    ]
    (usage,) = [i.usage for i in items if isinstance(i, UsageChunk)]
    assert (usage.input_tokens, usage.output_tokens) == (1572, 89)  # cached input counts as input
    assert items[-1] == TurnEnd("tool_use")


async def test_request_shape_alternates_roles_and_sends_tool_results_as_blocks() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return sse_response(wire("anthropic_tool_use.sse"))

    transcript = [
        UserMessage("fix add"),
        AssistantMessage("", (ToolCall("t1", "read_code", {"paths": ["a.py"]}), ToolCall("t2", "read_code", {"paths": ["b.py"]}))),
        ToolResultMessage("t1", "read_code", '{"results": []}'),
        ToolResultMessage("t2", "read_code", '{"error": "bad"}', is_error=True),
        UserMessage("and then?"),
    ]
    await collect(Anthropic(mock_client(handler), model="claude-x", base_url="https://api.anthropic.com", api_key="sk-ant"), transcript)
    request = seen[0]
    body = json.loads(request.content)
    assert str(request.url) == "https://api.anthropic.com/v1/messages"
    assert request.headers["x-api-key"] == "sk-ant" and request.headers["anthropic-version"] == "2023-06-01"
    # Prompt caching: the system prompt and the last tool schema carry the cache mark.
    assert body["system"] == [{"type": "text", "text": "system rules", "cache_control": {"type": "ephemeral"}}]
    assert body["max_tokens"] > 0 and body["tools"][0]["input_schema"] == {"type": "object"}
    assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    results = body["messages"][2]["content"]
    assert [b["type"] for b in results] == ["tool_result", "tool_result", "text"]
    assert results[1] == {"type": "tool_result", "tool_use_id": "t2", "content": '{"error": "bad"}', "is_error": True}


def test_messages_url_with_or_without_v1() -> None:
    assert messages_url("http://127.0.0.1:9999") == "http://127.0.0.1:9999/v1/messages"
    assert messages_url("http://127.0.0.1:9999/v1/") == "http://127.0.0.1:9999/v1/messages"


async def test_malformed_partial_json_is_a_problem_for_the_model() -> None:
    events = [
        ("message_start", {"type": "message_start", "message": {"usage": {"input_tokens": 5, "output_tokens": 1}}}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "write_code", "input": {}}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": '{"edits": [}'}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    body = "".join(f"event: {k}\ndata: {json.dumps(d)}\n\n" for k, d in events).encode()
    items = await collect(Anthropic(mock_client(lambda r: sse_response(body)), model="c", base_url="http://h"))
    (call,) = [i.call for i in items if isinstance(i, ToolCallChunk)]
    assert call.id == "toolu_1" and call.problem and "not valid JSON" in call.problem


async def test_a_non_retryable_error_event_mid_stream_ends_the_turn_with_its_message() -> None:
    events = [
        ("message_start", {"type": "message_start", "message": {"usage": {"input_tokens": 5}}}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}}),
        ("error", {"type": "error", "error": {"type": "invalid_request_error", "message": "prompt is too long: 210000 tokens > 200000 maximum"}}),
    ]
    body = "".join(f"event: {k}\ndata: {json.dumps(d)}\n\n" for k, d in events).encode()
    with pytest.raises(ProviderError, match="^anthropic: the server reported an error mid-stream: prompt is too long: 210000 tokens > 200000 maximum"):
        await collect(Anthropic(mock_client(lambda r: sse_response(body)), model="c", base_url="http://h"))
