"""A server that answers a streaming request with the whole response at once (a proxy, a gateway):
the reasoning in it is still reasoning, kept for the next call, and never the answer."""

from __future__ import annotations

import json

import httpx
from reasoning_harness import seen

from konstruct_tui.agent import AgentLoop, CollectingReporter, KillSwitch, Limits, headless_gate
from konstruct_tui.providers import Anthropic, OpenAICompatible, OpenAIResponses, RetryPolicy
from konstruct_tui.trust import TrustStore
from konstruct_tui.workspace import Workspace

ANTHROPIC = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "stop_reason": "end_turn",
             "content": [{"type": "thinking", "thinking": "Short thought.", "signature": "SIGW"},
                         {"type": "redacted_thinking", "data": "REDW"},
                         {"type": "text", "text": "The answer."}],
             "usage": {"input_tokens": 10, "output_tokens": 20}}
RESPONSES = {"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-5-codex",
             "output": [{"id": "rs_w", "type": "reasoning", "summary": [{"type": "summary_text", "text": "Short thought."}], "encrypted_content": "gAAW"},
                        {"id": "msg_w", "type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "The answer."}]}],
             "usage": {"input_tokens": 10, "output_tokens": 20, "output_tokens_details": {"reasoning_tokens": 12}}}
CHAT = {"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
                                                  "message": {"role": "assistant", "reasoning_content": "Short thought.", "content": "The answer."}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 20}}


async def _run(project, kind, payload, **extra):  # type: ignore[no-untyped-def]
    client = httpx.AsyncClient(transport=httpx.MockTransport(lambda r: httpx.Response(200, json=payload)))
    port = kind(client, model="m", base_url="http://127.0.0.1:9/v1", retry=RetryPolicy(attempts=1), **extra)
    reporter = CollectingReporter()
    workspace = Workspace(project)
    finished = await AgentLoop(workspace, port, reporter, headless_gate(workspace.root, grant=True, store=TrustStore()), Limits(), None,
                               KillSwitch()).run("go")
    return finished, reporter


async def test_whole_answers_keep_reasoning_apart(project) -> None:
    for kind, payload, extra in [(Anthropic, ANTHROPIC, {"reasoning_effort": 2048}), (OpenAIResponses, RESPONSES, {}), (OpenAICompatible, CHAT, {})]:
        finished, reporter = await _run(project, kind, payload, **extra)
        assert finished.reason == "done" and finished.message == "The answer.", kind
        assert seen(reporter, "reasoning") == "Short thought.", kind
        assert seen(reporter, "text_delta") == "The answer.", kind


async def test_a_whole_anthropic_answer_keeps_its_blocks_for_the_session(project) -> None:
    from konstruct_tui.agent import load_session

    finished, _ = await _run(project, Anthropic, ANTHROPIC, reasoning_effort=2048)
    reply = load_session(finished.session_id).transcript[1]
    assert [p.data for p in reply.reasoning] == [{"type": "thinking", "signature": "SIGW"}, {"type": "redacted_thinking", "data": "REDW"}]
    assert json.dumps(reply.reasoning[0].text) == '"Short thought."'
