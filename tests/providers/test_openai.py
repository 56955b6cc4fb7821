"""OpenAI-compatible chat completions against a recorded stream whose tool calls arrive in pieces."""

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
from konstruct_tui.providers import OpenAICompatible, ProviderRefused
from konstruct_tui.providers.openai import chat_url

TOOLS = [ToolSpec("read_code", "Read files.", {"type": "object", "properties": {"paths": {"type": "array"}}})]


async def collect(provider, transcript=None):
    return [item async for item in provider.stream_turn("be useful", transcript or [UserMessage("fix add")], TOOLS)]


@pytest.mark.parametrize("piece", [1, 7, 64, 100_000])
async def test_tool_calls_split_across_chunks_are_assembled_whole(piece: int) -> None:
    client = mock_client(lambda request: sse_response(wire("openai_tool_calls.sse"), piece))
    items = await collect(OpenAICompatible(client, model="gpt-4o-mini", base_url="https://api.example/v1", api_key="k"))
    text = "".join(i.text for i in items if isinstance(i, TextChunk))
    calls = [i.call for i in items if isinstance(i, ToolCallChunk)]
    assert text == "Let me look at the files."
    assert calls == [
        ToolCall("call_DdmO9pD3xa9XTPNJ32zg2hcA", "read_code", {"paths": ["calc.py", {"path": "util.py", "start_line": 1, "end_line": 40}]}),
        ToolCall("call_3rX0fU5xv1Wq8oJkQe2bTnLm", "search", {"query": "compute_total", "match": "symbol"}),
    ]
    usage = [i.usage for i in items if isinstance(i, UsageChunk)]
    assert [(u.input_tokens, u.output_tokens, u.estimated) for u in usage] == [(812, 64, False)]
    assert items[-1] == TurnEnd("tool_calls")


async def test_request_carries_tools_transcript_and_key() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return sse_response(wire("openai_tool_calls.sse"))

    transcript = [
        UserMessage("fix add"),
        AssistantMessage("reading", (ToolCall("c1", "read_code", {"paths": ["a.py"]}),)),
        ToolResultMessage("c1", "read_code", '{"results": []}'),
    ]
    await collect(OpenAICompatible(mock_client(handler), model="m1", base_url="http://127.0.0.1:11434", api_key="sk-test"), transcript)
    request = seen[0]
    body = json.loads(request.content)
    assert str(request.url) == "http://127.0.0.1:11434/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-test"
    assert body["stream"] is True and body["model"] == "m1"
    assert body["tools"][0]["function"]["name"] == "read_code"
    assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "tool"]
    assert json.loads(body["messages"][2]["tool_calls"][0]["function"]["arguments"]) == {"paths": ["a.py"]}
    assert body["messages"][3]["tool_call_id"] == "c1"


def test_base_urls_keep_their_path_and_bare_hosts_get_v1() -> None:
    assert chat_url("https://api.openai.com/v1") == "https://api.openai.com/v1/chat/completions"
    assert chat_url("http://localhost:1234/") == "http://localhost:1234/v1/chat/completions"
    assert chat_url("http://gpu-box:8000/openai/v1") == "http://gpu-box:8000/openai/v1/chat/completions"


async def test_malformed_argument_string_becomes_a_problem_not_a_crash() -> None:
    frames = [
        {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_x", "type": "function", "function": {"name": "write_code", "arguments": '{"edits": [{"path": '}}]}}]},
        {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '"a.py", oops'}}]}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    ]
    body = "".join(f"data: {json.dumps(f)}\n\n" for f in frames) + "data: [DONE]\n\n"
    items = await collect(OpenAICompatible(mock_client(lambda r: sse_response(body.encode())), model="m", base_url="http://h/v1"))
    (call,) = [i.call for i in items if isinstance(i, ToolCallChunk)]
    assert call.name == "write_code" and call.arguments == {}
    assert "not valid JSON" in call.problem and "nothing was run" in call.problem
    # the server sent no usage: it is estimated, and marked so
    (usage,) = [i.usage for i in items if isinstance(i, UsageChunk)]
    assert usage.estimated and usage.input_tokens > 0


async def test_a_refusal_is_not_retried_and_names_the_fix() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(401, json={"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}})

    with pytest.raises(ProviderRefused, match="401: Incorrect API key provided .check the API key"):
        await collect(OpenAICompatible(mock_client(handler), model="m", base_url="http://h/v1"))
    assert len(calls) == 1


async def test_stream_cut_before_the_turn_ends_is_an_error() -> None:
    body = wire("openai_tool_calls.sse")
    cut = body[: body.index(b'"finish_reason":"tool_calls"') - 200]
    with pytest.raises(Exception, match="ended before the turn was complete"):
        await collect(OpenAICompatible(mock_client(lambda r: sse_response(cut)), model="m", base_url="http://h/v1"))


async def test_a_server_that_rejects_stream_options_is_asked_again_without_them() -> None:
    bodies: list[dict] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        if "stream_options" in bodies[-1]:
            return httpx.Response(400, json={"error": {"message": "Unrecognized request argument supplied: stream_options"}})
        return sse_response(wire("openai_tool_calls.sse"))

    provider = OpenAICompatible(mock_client(handler), model="m", base_url="http://h/v1")
    items = await collect(provider)
    assert len(bodies) == 2 and "stream_options" not in bodies[1]
    assert [i.call.name for i in items if isinstance(i, ToolCallChunk)] == ["read_code", "search"]
    await collect(provider)
    assert len(bodies) == 3  # remembered: no second refusal
