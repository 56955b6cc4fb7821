"""A Responses-only model through a whole tool loop, stateless: store false, encrypted reasoning
asked for, the reasoning item sent back as it came before its function_call, the tool result as a
function_call_output, and reasoning tokens counted."""

from __future__ import annotations

import json

from reasoning_harness import Served, run_loop, seen

from konstruct_tui.agent import BudgetUpdate

ENCRYPTED = "gAAAAABoISQ24O7eLjr9sGhzZ1ZkW3cxYf6ZkW_encrypted_reasoning_xK9=="
SUMMARY = "**Reading the file first**\n\nThe bug is in add; I need calc.py's text."


async def test_reasoning_items_and_function_calls_go_back_stateless(project) -> None:
    served = Served("responses_reasoning_function_call.sse", "responses_answer.sse")
    finished, reporter = await run_loop(project, served, "openai-responses", model="gpt-5-codex", effort="high",
                                        base_url="http://127.0.0.1:9/v1")
    assert finished.reason == "done" and finished.message == "add subtracts instead of adding."
    assert seen(reporter, "reasoning") == SUMMARY
    assert seen(reporter, "text_delta") == "add subtracts instead of adding."
    first, second = served.bodies
    assert first["store"] is False and first["include"] == ["reasoning.encrypted_content"]
    assert first["reasoning"] == {"summary": "auto", "effort": "high"}
    assert "previous_response_id" not in second  # stateless: the whole conversation goes every time
    assert second["input"][0]["role"] == "user"
    assert second["input"][1:] == [
        {"type": "reasoning", "id": "rs_6876cf02e0bc8192", "summary": [{"type": "summary_text", "text": SUMMARY}],
         "encrypted_content": ENCRYPTED},
        {"type": "function_call", "call_id": "call_kB8tAdJk3ZXsYcQ2", "name": "read_code", "arguments": json.dumps({"paths": ["calc.py"]})},
        {"type": "function_call_output", "call_id": "call_kB8tAdJk3ZXsYcQ2", "output": second["input"][3]["output"]},
    ]
    assert "calc.py" in second["input"][3]["output"]
    assert [t["type"] for t in first["tools"]] == ["function"] * len(first["tools"])
    assert served.headers[0]["authorization"] == "Bearer k"


async def test_reasoning_tokens_reach_the_budget(project) -> None:
    served = Served("responses_reasoning_function_call.sse", "responses_answer.sse")
    _, reporter = await run_loop(project, served, "openai-responses", model="gpt-5-codex")
    last = reporter.of(BudgetUpdate)[-1]
    assert (last.input_tokens, last.output_tokens, last.reasoning_tokens, last.cache_read_tokens) == (1410 + 1900, 320 + 40, 256, 1408)


ITEM_NOT_FOUND = json.dumps({"error": {"message": (
    "Item with id 'rs_6876cf02e0bc8192' not found. Items are not persisted when `store` is set to false. "
    "Try again with `store` set to true, or remove this item from your input."), "type": "invalid_request_error", "param": "input",
    "code": None}}).encode()


async def test_the_responses_400_for_an_unreadable_round_trip_reaches_the_person(project) -> None:
    served = Served("responses_reasoning_function_call.sse", (400, ITEM_NOT_FOUND))
    finished, _ = await run_loop(project, served, "openai-responses", model="gpt-5-codex")
    assert finished.reason == "error"
    assert "openai-responses answered HTTP 400: Item with id 'rs_6876cf02e0bc8192' not found. Items are not persisted" in finished.message


FAILED = b"".join(b"event: %s\ndata: %s\n\n" % (e["type"].encode(), json.dumps(e).encode()) for e in [
    {"type": "response.created", "sequence_number": 0, "response": {"id": "resp_x", "object": "response", "status": "in_progress", "output": []}},
    {"type": "response.failed", "sequence_number": 1, "response": {"id": "resp_x", "object": "response", "status": "failed",
                                                                     "error": {"code": "invalid_prompt", "message": "Invalid prompt: we've limited access to this content."}}},
])


async def test_a_failed_response_mid_stream_says_the_servers_words(project) -> None:
    finished, _ = await run_loop(project, Served((200, FAILED)), "openai-responses", model="gpt-5-codex")
    assert finished.reason == "error" and "Invalid prompt: we've limited access to this content." in finished.message


INCOMPLETE = b"".join(b"event: %s\ndata: %s\n\n" % (e["type"].encode(), json.dumps(e).encode()) for e in [
    {"type": "response.output_text.delta", "sequence_number": 1, "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "Half an"},
    {"type": "response.incomplete", "sequence_number": 2, "response": {"id": "resp_y", "object": "response", "status": "incomplete",
                                                                         "incomplete_details": {"reason": "max_output_tokens"},
                                                                         "usage": {"input_tokens": 10, "output_tokens": 16384,
                                                                                   "output_tokens_details": {"reasoning_tokens": 16380}}}},
])


async def test_an_answer_cut_at_its_output_limit_is_reported_as_cut(project) -> None:
    finished, _ = await run_loop(project, Served((200, INCOMPLETE)), "openai-responses", model="gpt-5-codex")
    assert finished.reason == "error" and "cut at its output limit" in finished.message and "max_output_tokens" in finished.message


async def test_a_model_that_does_not_reason_gets_no_reasoning_parameter(project) -> None:
    served = Served("responses_answer.sse")
    await run_loop(project, served, "openai-responses", model="gpt-4.1")
    assert "reasoning" not in served.bodies[0] and served.bodies[0]["store"] is False


def test_only_reasoning_items_readable_without_storage_go_back() -> None:
    from konstruct_tui.agent.ports import AssistantMessage, ReasoningPart, UserMessage
    from konstruct_tui.providers.responses import wire_items

    parts = (
        ReasoningPart("openai-responses", "s", {"id": "rs_1", "summary": [], "encrypted_content": "gAAA"}),
        ReasoningPart("openai-responses", "", {"id": "rs_2", "summary": []}),  # an id alone: "Item with id not found"
        ReasoningPart("openai-responses", "raw", {"id": "rs_3", "summary": [], "content": [{"type": "reasoning_text", "text": "raw"}]}),
        ReasoningPart("anthropic", "t", {"type": "thinking", "signature": "S"}),  # another provider's: never
    )
    items = wire_items([UserMessage("go"), AssistantMessage("ok", (), parts)])
    assert [i.get("id") for i in items if i["type"] == "reasoning"] == ["rs_1", "rs_3"]
    assert items[-1] == {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]}


ERROR_EVENT = b'event: error\ndata: {"type": "error", "code": "ERR_SOMETHING", "message": "Something went wrong", "param": null, "sequence_number": 1}\n\n'
RATE_LIMITED = json.dumps({"error": {"message": "Rate limit reached for gpt-5-codex in organization org-x on tokens per min (TPM): "
                                                "Limit 30000, Used 30000, Requested 2000. Please try again in 4s.",
                                     "type": "tokens", "param": None, "code": "rate_limit_exceeded"}}).encode()


async def test_an_error_event_mid_stream_says_the_servers_words(project) -> None:
    finished, _ = await run_loop(project, Served((200, ERROR_EVENT)), "openai-responses", model="gpt-5-codex")
    assert finished.reason == "error" and "Something went wrong" in finished.message and "ERR_SOMETHING" in finished.message


async def test_a_rate_limit_is_retried_then_reported_in_the_servers_words(project) -> None:
    finished, _ = await run_loop(project, Served((429, RATE_LIMITED)), "openai-responses", model="gpt-5-codex")
    assert finished.reason == "error" and "Rate limit reached for gpt-5-codex" in finished.message
