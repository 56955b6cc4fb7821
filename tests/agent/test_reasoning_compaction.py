"""Compaction with reasoning models: the turns it keeps keep what their API needs back (thinking
blocks and signatures); the turns it summarises lose it; the summary never contains the thinking."""

from __future__ import annotations

import httpx
from reasoning_harness import Served

from konstruct_tui.agent.compaction import compact
from konstruct_tui.agent.ports import AssistantMessage, ReasoningPart, ToolCall, ToolResultMessage, UserMessage
from konstruct_tui.providers import Anthropic, RetryPolicy


def thinking(text: str, signature: str) -> ReasoningPart:
    return ReasoningPart("anthropic", text, {"type": "thinking", "signature": signature})


TRANSCRIPT = [
    UserMessage("fix add"),
    AssistantMessage("Reading.", (ToolCall("toolu_1", "read_code", {"paths": ["calc.py"]}),), (thinking("old thought " * 300, "SIG-OLD"),)),
    ToolResultMessage("toolu_1", "read_code", '{"files": "' + "x" * 4000 + '"}'),
    AssistantMessage("Searching.", (ToolCall("toolu_2", "search", {"query": "add"}),), (thinking("new thought", "SIG-NEW"),)),
    ToolResultMessage("toolu_2", "search", '{"hits": []}'),
]


async def test_kept_turns_keep_their_thinking_and_summarised_ones_lose_it() -> None:
    served = Served("anthropic_thinking_answer.sse")
    model = Anthropic(httpx.AsyncClient(transport=httpx.MockTransport(served.handle)), model="claude-sonnet-4-5", base_url="http://127.0.0.1:9",
                      retry=RetryPolicy(attempts=1), reasoning_effort=4000)
    result = await compact(TRANSCRIPT, model, keep_chars=200)
    assert result.summary == "add subtracts instead of adding."  # the summary call's own thinking is not the summary
    assert "old thought" not in result.message.text and "SIG-OLD" not in result.message.text
    _, _, body = model.request("system", result.transcript, [])
    sent = [b for m in body["messages"] for b in m["content"] if b["type"] == "thinking"]
    assert sent == [{"type": "thinking", "thinking": "new thought", "signature": "SIG-NEW"}]
    assert body["messages"][1]["content"][0]["type"] == "thinking"  # still first in its assistant turn
