"""Claude with extended thinking through a whole tool loop: the thinking streams as reasoning (never
as the answer), and the next call sends the thinking blocks back untouched, signature and
redacted data included, before the tool_use of their turn."""

from __future__ import annotations

import json

from reasoning_harness import Served, run_loop, seen, wire

from konstruct_tui.agent import load_session



def _first_events(name: str) -> list[dict]:
    return [json.loads(line[6:]) for line in wire(name).decode().splitlines() if line.startswith("data: ")]


def _signature_and_redacted() -> tuple[str, str]:
    events = _first_events("anthropic_thinking_tool_use.sse")
    signature = next(e["delta"]["signature"] for e in events if e.get("delta", {}).get("type") == "signature_delta")
    redacted = next(e["content_block"]["data"] for e in events if e.get("content_block", {}).get("type") == "redacted_thinking")
    return signature, redacted


async def test_thinking_is_shown_apart_and_sent_back_before_the_tool_use(project) -> None:
    served = Served("anthropic_thinking_tool_use.sse", "anthropic_thinking_answer.sse")
    finished, reporter = await run_loop(project, served, "anthropic", model="claude-sonnet-4-5", effort=10_000)
    assert finished.reason == "done" and finished.message == "add subtracts instead of adding."
    # What the person sees: the thinking as reasoning, the answer as text, neither in the other.
    assert seen(reporter, "reasoning") == ("The person says add is wrong. I should read calc.py before changing it."
                                           "add subtracts; the fix is a plus sign.")
    assert seen(reporter, "text_delta") == "Let me read calc.py.add subtracts instead of adding."
    # What was asked: thinking with its budget, the interleaved-thinking beta, no temperature, no tool_choice.
    first, second = served.bodies
    assert first["thinking"] == {"type": "enabled", "budget_tokens": 10_000}
    assert first["max_tokens"] > 10_000  # the budget is part of max_tokens; the answer keeps its room
    assert "temperature" not in first and "tool_choice" not in first
    assert served.headers[0]["anthropic-beta"] == "interleaved-thinking-2025-05-14"
    # What went back: thinking, then redacted_thinking untouched, then the text and the tool_use.
    signature, redacted = _signature_and_redacted()
    assistant = second["messages"][1]
    assert assistant["role"] == "assistant"
    assert assistant["content"] == [
        {"type": "thinking", "thinking": "The person says add is wrong. I should read calc.py before changing it.", "signature": signature},
        {"type": "redacted_thinking", "data": redacted},
        {"type": "text", "text": "Let me read calc.py."},
        {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "read_code", "input": {"paths": ["calc.py"]}},
    ]
    assert second["messages"][2]["content"][0]["type"] == "tool_result"


async def test_prompt_caching_still_marks_the_prefix_with_thinking_on(project) -> None:
    served = Served("anthropic_thinking_tool_use.sse", "anthropic_thinking_answer.sse")
    await run_loop(project, served, "anthropic", model="claude-sonnet-4-5", effort="medium")
    second = served.bodies[1]
    assert second["thinking"]["budget_tokens"] == 10_000  # "medium"
    assert second["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert second["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    last = second["messages"][-1]["content"][-1]
    assert last["type"] == "tool_result" and last["cache_control"] == {"type": "ephemeral"}
    for message in second["messages"]:  # a thinking block never carries a cache mark (the API refuses it)
        assert all("cache_control" not in b for b in message["content"] if b["type"] in ("thinking", "redacted_thinking"))


async def test_the_session_file_keeps_the_thinking_for_a_resumed_run(project) -> None:
    served = Served("anthropic_thinking_tool_use.sse", "anthropic_thinking_answer.sse")
    finished, _ = await run_loop(project, served, "anthropic", model="claude-sonnet-4-5", effort=10_000)
    record = load_session(finished.session_id)
    first_reply = record.transcript[1]
    signature, redacted = _signature_and_redacted()
    assert [(p.provider, p.data) for p in first_reply.reasoning] == [
        ("anthropic", {"type": "thinking", "signature": signature}), ("anthropic", {"type": "redacted_thinking", "data": redacted})]


async def test_without_a_thinking_setting_nothing_about_thinking_is_sent(project) -> None:
    served = Served("anthropic_thinking_tool_use.sse", "anthropic_thinking_answer.sse")
    await run_loop(project, served, "anthropic", model="claude-sonnet-4-5")
    assert "thinking" not in served.bodies[0] and "anthropic-beta" not in served.headers[0]
    assert [b["type"] for b in served.bodies[1]["messages"][1]["content"]] == ["text", "tool_use"]


MISSING_THINKING = json.dumps({"type": "error", "error": {"type": "invalid_request_error", "message": (
    "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, "
    "a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` "
    "blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`.")}}).encode()


async def test_anthropic_400_for_missing_thinking_blocks_reaches_the_person_in_its_words(project) -> None:
    served = Served("anthropic_thinking_tool_use.sse", (400, MISSING_THINKING))
    finished, _ = await run_loop(project, served, "anthropic", model="claude-sonnet-4-5", effort=10_000)
    assert finished.reason == "error"
    assert "anthropic answered HTTP 400" in finished.message
    assert "When `thinking` is enabled, a final `assistant` message must start with a thinking block" in finished.message
