"""Providers never swallow a server's words: recorded bodies of real servers' errors and odd answers,
delivered through `httpx.MockTransport` in arbitrary byte pieces."""

from __future__ import annotations

import json

import httpx
import pytest
from provider_wire import mock_client, sse_response, wire

from konstruct_tui.agent import (
    Notice,
    Restart,
    TextChunk,
    ToolCall,
    ToolCallChunk,
    ToolSpec,
    TurnEnd,
    UsageChunk,
    UserMessage,
)
from konstruct_tui.providers import (
    Anthropic,
    OpenAICompatible,
    ProviderError,
    RetryPolicy,
)
from konstruct_tui.providers.errors import OutputCut, ServerReported, clip

TOOLS = [ToolSpec("read_code", "Read files.", {"type": "object"}), ToolSpec("write_code", "Edit files.", {"type": "object"})]
FAST = RetryPolicy(attempts=3, base_delay_s=0.0, max_delay_s=0.0)


async def no_sleep(_: float) -> None:
    return None


def openai(handler, **extra) -> OpenAICompatible:
    return OpenAICompatible(mock_client(handler), model="m", base_url="http://127.0.0.1:8000/v1", retry=FAST, sleep=no_sleep, **extra)


def anthropic(handler, **extra) -> Anthropic:
    return Anthropic(mock_client(handler), model="claude-sonnet-4-5", base_url="http://127.0.0.1:8001", retry=FAST, sleep=no_sleep, **extra)


async def collect(provider):
    return [item async for item in provider.stream_turn("rules", [UserMessage("fix add")], TOOLS)]


def text_of(items) -> str:
    return "".join(i.text for i in items if isinstance(i, TextChunk))


def body(name: str, content_type: str = "application/json", status: int = 200) -> httpx.Response:
    return httpx.Response(status, headers={"content-type": content_type}, content=wire(name))


# A server's error payload reaches the person verbatim.


@pytest.mark.parametrize("piece", [5, 64, 100_000])
async def test_vllm_error_mid_stream_is_shown_verbatim_with_what_streamed_counted(piece: int) -> None:
    with pytest.raises(ServerReported) as caught:
        await collect(openai(lambda r: sse_response(wire("vllm_error_mid_stream.sse"), piece)))
    message = str(caught.value)
    assert message.startswith("openai: the server reported an error mid-stream: The decoder prompt (length 33012) is longer")
    assert "BadRequestError" in message and "stream ended" not in message
    assert caught.value.usage is not None and caught.value.usage.output_tokens >= 1 and caught.value.usage.estimated


async def test_llamacpp_error_field_is_shown_verbatim() -> None:
    with pytest.raises(ServerReported, match="the request exceeds the available context size, try increasing it .exceed_context_size_error, code 400."):
        await collect(openai(lambda r: sse_response(wire("llamacpp_error_event.sse"))))


async def test_a_json_error_body_under_an_sse_content_type_is_shown_not_called_an_ended_stream() -> None:
    raw = b'{"error":"model \\"qwen2.5-coder:14b\\" not found, try pulling it first"}'
    with pytest.raises(ServerReported, match='model "qwen2.5-coder:14b" not found, try pulling it first'):
        await collect(openai(lambda r: sse_response(raw)))


async def test_a_200_json_error_where_a_stream_was_asked_is_shown() -> None:
    raw = b'{"object":"error","message":"[{\'type\': \'extra_forbidden\', \'loc\': (\'body\', \'stream_options\')}]","type":"BadRequestError","param":null,"code":400}'
    with pytest.raises(ServerReported, match="instead of a stream: .*extra_forbidden"):
        await collect(openai(lambda r: httpx.Response(200, headers={"content-type": "application/json"}, content=raw)))


async def test_a_whole_chat_completion_where_a_stream_was_asked_is_used_as_the_answer() -> None:
    items = await collect(openai(lambda r: body("openai_non_streamed_completion.json")))
    assert isinstance(items[0], Notice) and items[0].kind == "non_streamed"
    assert text_of(items) == "I will read calc.py first."
    assert [i.call for i in items if isinstance(i, ToolCallChunk)] == [ToolCall("call_41a7", "read_code", {"paths": ["calc.py"]})]
    usage = [i.usage for i in items if isinstance(i, UsageChunk)]
    assert [(u.input_tokens, u.output_tokens, u.estimated) for u in usage] == [(1873, 31, False)]
    assert items[-1] == TurnEnd("tool_calls")


async def test_a_whole_anthropic_message_where_a_stream_was_asked_is_used_as_the_answer() -> None:
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "stop_reason": "end_turn",
               "content": [{"type": "text", "text": "All done."}], "usage": {"input_tokens": 9, "output_tokens": 3}}
    items = await collect(anthropic(lambda r: httpx.Response(200, json=message)))
    assert text_of(items) == "All done." and items[-1] == TurnEnd("end_turn")


async def test_an_html_error_page_is_shown_as_its_words_after_the_retries() -> None:
    with pytest.raises(ProviderError) as caught:
        await collect(openai(lambda r: body("nginx_502.html", "text/html", 502)))
    message = str(caught.value)
    assert "HTTP 502: 502 Bad Gateway: nginx/1.24.0 (Ubuntu)" in message and "<html>" not in message


async def test_an_html_page_with_status_200_is_shown_not_parsed_as_a_stream() -> None:
    page = b"<!DOCTYPE html><html><head><title>Open WebUI</title><script>var x = 1;</script></head><body><div>Sign in</div></body></html>"
    with pytest.raises(ServerReported, match="instead of a stream: Open WebUI: Sign in"):
        await collect(openai(lambda r: httpx.Response(200, headers={"content-type": "text/html; charset=utf-8"}, content=page)))


def test_long_server_words_are_trimmed_at_a_word_with_a_marker() -> None:
    words = "context " * 400
    trimmed = clip(words, 100)
    assert trimmed.startswith("context context") and trimmed.endswith("more characters]") and " contex " not in trimmed
    assert trimmed.split(" […")[0].split(" ")[-1] == "context"


# A malformed line is skipped and reported once; the turn goes on.


async def test_malformed_lines_are_skipped_reported_once_and_the_turn_completes() -> None:
    items = await collect(openai(lambda r: sse_response(wire("openai_malformed_line.sse"), 23)))
    notices = [i for i in items if isinstance(i, Notice)]
    assert len(notices) == 1 and notices[0].kind == "malformed_line" and "JSONDecodeError" not in notices[0].text
    assert text_of(items) == "The fix place."
    usage = [i.usage for i in items if isinstance(i, UsageChunk)]
    assert usage[0].cache_read_tokens == 1024 and usage[0].input_tokens == 1310
    assert items[-1] == TurnEnd("stop")


# Cut at the output limit: said so, naming the call; never "bad JSON".


async def test_openai_length_names_the_cut_tool_call() -> None:
    with pytest.raises(OutputCut) as caught:
        await collect(openai(lambda r: sse_response(wire("openai_length_cut_tool_call.sse"), 11), max_output_tokens=16))
    message = str(caught.value)
    assert 'finish_reason "length", max_tokens 16' in message
    assert "write_code tool call call_Wq1XbHhL0e8sYk2mN4pR7tUv" in message and "not valid JSON" not in message
    assert caught.value.usage.output_tokens == 16 and not caught.value.usage.estimated  # the server's own count


async def test_anthropic_max_tokens_names_the_cut_tool_call() -> None:
    with pytest.raises(OutputCut) as caught:
        await collect(anthropic(lambda r: sse_response(wire("anthropic_max_tokens_tool_use.sse")), max_output_tokens=64))
    message = str(caught.value)
    assert 'stop_reason "max_tokens", max_tokens 64' in message and "write_code tool call toolu_01T1x1fJ34qAmk2tNTrN7Up6" in message
    assert message.count("anthropic:") == 1


async def test_max_tokens_is_sent_and_a_model_that_wants_the_new_name_gets_it() -> None:
    bodies: list[dict] = []
    refusal = {"error": {"message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
                         "type": "invalid_request_error", "param": "max_tokens", "code": "unsupported_parameter"}}

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        if "max_tokens" in bodies[-1]:
            return httpx.Response(400, json=refusal)
        return sse_response(wire("openai_tool_calls.sse"))

    await collect(openai(handler, max_output_tokens=1234))
    assert bodies[0]["max_tokens"] == 1234 and bodies[1]["max_completion_tokens"] == 1234 and "max_tokens" not in bodies[1]


# Fragments without `index` join the open call.


async def test_fragments_without_index_join_the_open_call_and_a_new_id_opens_the_next() -> None:
    items = await collect(openai(lambda r: sse_response(wire("openai_fragments_without_index.sse"), 9)))
    calls = [i.call for i in items if isinstance(i, ToolCallChunk)]
    assert calls == [ToolCall("call_7f3a", "read_code", {"paths": ["calc.py"]}), ToolCall("call_9b2c", "search", {"query": "add"})]


# An overload after partial output.


async def test_overload_after_text_is_retried_and_the_partial_text_is_void() -> None:
    replies = [sse_response(wire("anthropic_overloaded_after_text.sse")), sse_response(wire("anthropic_cached_text.sse"))]
    items = await collect(anthropic(lambda r: replies.pop(0)))
    restart = [i for i, item in enumerate(items) if isinstance(item, Restart)]
    assert len(restart) == 1
    assert text_of(items[restart[0]:]) == "Nothing to change: add() is correct."
    notices = [i.text for i in items if isinstance(i, Notice)]
    assert notices and "Overloaded" in notices[0] and "anthropic: anthropic:" not in notices[0]
    usage = [i.usage for i in items if isinstance(i, UsageChunk)]
    assert usage[0].estimated and usage[0].input_tokens == 1400  # the failed attempt's tokens are counted too
    assert (usage[1].cache_read_tokens, usage[1].cache_write_tokens, usage[1].input_tokens) == (3000, 1200, 4220)


async def test_overload_after_a_tool_call_began_is_reported_not_retried() -> None:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return sse_response(wire("anthropic_overloaded_in_tool_use.sse"))

    with pytest.raises(ProviderError) as caught:
        await collect(anthropic(handler))
    message = str(caught.value)
    assert len(requests) == 1
    assert message.startswith("anthropic: Overloaded (overloaded_error); it came mid-turn, after the model had begun the write_code call")
    assert "anthropic: anthropic:" not in message and caught.value.usage.input_tokens == 1400


async def test_529_before_any_output_is_retried() -> None:
    replies = [httpx.Response(529, json={"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
               sse_response(wire("anthropic_cached_text.sse"))]
    items = await collect(anthropic(lambda r: replies.pop(0)))
    assert text_of(items) == "Nothing to change: add() is correct." and not any(isinstance(i, Restart) for i in items)


# Usage counts what streamed.


async def test_a_stream_cut_after_text_reports_estimated_tokens() -> None:
    cut = b'data: {"choices":[{"index":0,"delta":{"content":"' + b"word " * 40 + b'"}}]}\n\n'
    with pytest.raises(ProviderError, match="stream ended before the turn was complete") as caught:
        await collect(openai(lambda r: sse_response(cut)))
    usage = caught.value.usage
    assert usage.estimated and usage.output_tokens == 50 and usage.input_tokens > 0


# Prompt caching.


async def test_anthropic_marks_the_system_prompt_and_the_last_tool_for_caching() -> None:
    sent: list[dict] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return sse_response(wire("anthropic_cached_text.sse"))

    await collect(anthropic(handler))
    assert sent[0]["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert "cache_control" in sent[0]["tools"][-1] and "cache_control" not in sent[0]["tools"][0]
    assert sent[0]["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}  # the conversation so far
    marks = json.dumps(sent[0]).count('"cache_control"')
    assert marks == 3  # the API allows at most four


# Attacks on the defences above, in other spellings.


async def test_whole_calls_without_index_or_id_stay_separate_calls() -> None:
    frames = [{"choices": [{"index": 0, "delta": {"tool_calls": [{"function": {"name": "read_code", "arguments": '{"paths": ["a.py"]}'}}]}}]},
              {"choices": [{"index": 0, "delta": {"tool_calls": [{"function": {"name": "search", "arguments": '{"query": "x"}'}}]}}]},
              {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}]
    raw = b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames) + b"data: [DONE]\n\n"
    items = await collect(openai(lambda r: sse_response(raw)))
    calls = [i.call for i in items if isinstance(i, ToolCallChunk)]
    assert [(c.name, c.arguments, c.problem) for c in calls] == [("read_code", {"paths": ["a.py"]}, None), ("search", {"query": "x"}, None)]


async def test_a_name_repeated_on_every_fragment_does_not_split_the_call() -> None:
    pieces = ['{"paths": ', '["a.py"]}']
    frames = [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": None, "function": {"name": "read_code", "arguments": p}}]}}]} for p in pieces]
    frames.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    raw = b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames) + b"data: [DONE]\n\n"
    calls = [i.call for i in await collect(openai(lambda r: sse_response(raw))) if isinstance(i, ToolCallChunk)]
    assert [(c.name, c.arguments) for c in calls] == [("read_code", {"paths": ["a.py"]})]


async def test_a_whole_answer_without_a_content_type_is_still_read() -> None:
    raw = wire("openai_non_streamed_completion.json")
    items = await collect(openai(lambda r: httpx.Response(200, content=raw)))
    assert text_of(items) == "I will read calc.py first." and items[-1] == TurnEnd("tool_calls")


async def test_a_whole_answer_cut_at_length_is_reported_as_cut() -> None:
    answer = json.loads(wire("openai_non_streamed_completion.json"))
    answer["choices"][0]["finish_reason"] = "length"
    answer["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = '{"paths": ["calc'
    with pytest.raises(OutputCut, match="read_code tool call call_41a7"):
        await collect(openai(lambda r: httpx.Response(200, json=answer)))


async def test_a_server_error_after_tool_fragments_is_reported_not_retried() -> None:
    frames = [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "function": {"name": "write_code", "arguments": '{"ed'}}]}}]},
              {"error": {"message": "The server had an error while processing your request. Sorry about that!", "type": "server_error"}}]
    raw = b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames)
    asked: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(1)
        return sse_response(raw)

    with pytest.raises(ProviderError, match="^openai: the server reported an error mid-stream: The server had an error while processing your request. Sorry about that!"):
        await collect(openai(handler))
    assert len(asked) == 1


async def test_an_error_event_without_an_error_key_is_still_shown() -> None:
    raw = b'event: error\ndata: {"message": "Upstream model timed out after 120s"}\n\n'
    with pytest.raises(ServerReported, match="Upstream model timed out after 120s"):
        await collect(openai(lambda r: sse_response(raw)))


async def test_a_pretty_printed_json_error_under_an_sse_type_is_shown() -> None:
    raw = b'{\n  "error": {\n    "message": "Invalid model: gpt-5-codex-max",\n    "type": "invalid_request_error"\n  }\n}\n'
    with pytest.raises(ServerReported, match="Invalid model: gpt-5-codex-max"):
        await collect(openai(lambda r: sse_response(raw)))


async def test_a_text_only_reply_cut_at_length_says_how_much_arrived() -> None:
    frames = [{"choices": [{"index": 0, "delta": {"content": "The cause is the sign in"}}]},
              {"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}]
    raw = b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames) + b"data: [DONE]\n\n"
    with pytest.raises(OutputCut, match='finish_reason "length", max_tokens 4096. after 24 characters of text'):
        await collect(openai(lambda r: sse_response(raw), max_output_tokens=4096))


@pytest.mark.parametrize("stop, said", [("refusal", "the model declined to go on"), ("model_context_window_exceeded", "filled its context window")])
async def test_anthropic_stops_that_are_not_done_are_said(stop: str, said: str) -> None:
    raw = wire("anthropic_cached_text.sse").replace(b'"stop_reason":"end_turn"', f'"stop_reason":"{stop}"'.encode())
    with pytest.raises(ProviderError, match=said):
        await collect(anthropic(lambda r: sse_response(raw)))


async def test_a_content_filter_stop_is_said() -> None:
    frames = [{"choices": [{"index": 0, "delta": {"content": "Sure"}}]}, {"choices": [{"index": 0, "delta": {}, "finish_reason": "content_filter"}]}]
    raw = b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames) + b"data: [DONE]\n\n"
    with pytest.raises(ServerReported, match="content filter stopped the reply"):
        await collect(openai(lambda r: sse_response(raw)))


@pytest.mark.parametrize("status, payload, size", [
    (400, {"object": "error", "message": "This model's maximum context length is 8192 tokens. However, you requested 9100 tokens (5004 in the messages, 4096 in the completion).", "type": "BadRequestError", "param": None, "code": 400}, "8192"),
    (400, {"type": "error", "error": {"type": "invalid_request_error", "message": "prompt is too long: 210433 tokens > 200000 maximum"}}, "200000"),
    (400, {"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it", "type": "exceed_context_size_error", "n_ctx": 4096}}, "N"),
])
async def test_a_full_context_window_says_how_to_let_compaction_start_earlier(status: int, payload: dict, size: str) -> None:
    provider = openai(lambda r: httpx.Response(status, json=payload))
    provider.model = "qwen2.5-coder:7b"
    with pytest.raises(ProviderError) as caught:
        await collect(provider)
    message = str(caught.value)
    assert f'set [models."qwen2.5-coder:7b"] context_tokens = {size} in config.toml' in message
    assert message.index("context") > message.index("HTTP 400:")  # the server's words first, the hint after


async def test_data_lines_without_blank_lines_between_them_are_still_frames() -> None:
    frames = [{"choices": [{"index": 0, "delta": {"content": "One"}}]}, {"choices": [{"index": 0, "delta": {"content": " line each."}}]},
              {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}]
    raw = b"".join(b"data: " + json.dumps(f).encode() + b"\n" for f in frames) + b"data: [DONE]\n"
    items = await collect(openai(lambda r: sse_response(raw, 7)))
    assert text_of(items) == "One line each." and items[-1] == TurnEnd("stop") and not any(isinstance(i, Notice) for i in items)


async def test_a_frame_cut_mid_json_at_the_end_is_still_an_unfinished_stream() -> None:
    raw = b'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {"choices":[{"index":0,"delta":{"cont'
    with pytest.raises(ProviderError, match="stream ended before the turn was complete"):
        await collect(openai(lambda r: sse_response(raw)))


async def test_a_stream_labelled_as_json_is_still_read_as_a_stream() -> None:
    items = await collect(openai(lambda r: httpx.Response(200, headers={"content-type": "application/json"}, content=wire("openai_malformed_line.sse"))))
    assert text_of(items) == "The fix place." and items[-1] == TurnEnd("stop")


async def test_an_empty_200_answer_says_there_was_no_body() -> None:
    with pytest.raises(ServerReported, match=r"instead of a stream: \(no body\)"):
        await collect(openai(lambda r: httpx.Response(200, headers={"content-type": "application/json"}, content=b"")))


async def test_an_anthropic_stream_without_message_stop_but_with_its_stop_reason_is_complete() -> None:
    raw = wire("anthropic_cached_text.sse").replace(b'event: message_stop\ndata: {"type":"message_stop"}\n\n', b"")
    items = await collect(anthropic(lambda r: sse_response(raw)))
    assert text_of(items) == "Nothing to change: add() is correct." and items[-1] == TurnEnd("end_turn")
