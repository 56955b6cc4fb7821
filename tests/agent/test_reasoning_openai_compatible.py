"""Reasoning on OpenAI-compatible servers: `reasoning_content` (vLLM, llama.cpp, DeepSeek, LM
Studio), `reasoning` (Ollama, OpenRouter) and inline `<think>` all reach the person as reasoning and
never as the answer; what goes back on the next call is what each server documents."""

from __future__ import annotations

import json

import pytest
from reasoning_harness import Served, run_loop, seen

from konstruct_tui.agent import BudgetUpdate, load_session


@pytest.mark.parametrize(("tool_call", "answer", "thought"), [
    ("vllm_reasoning_content_tool_call.sse", "vllm_reasoning_content_answer.sse", "Okay, the user wants add fixed. First read calc.py.It subtracts."),
    ("ollama_reasoning_tool_call.sse", "ollama_reasoning_answer.sse", "We need to look at calc.py. Call read_code.Sign is wrong."),
])
async def test_reasoning_fields_are_shown_as_reasoning_and_not_sent_back(project, tool_call: str, answer: str, thought: str) -> None:
    served = Served(tool_call, answer)
    finished, reporter = await run_loop(project, served, "openai", model="qwen3:14b")
    assert finished.reason == "done" and finished.message == "add subtracts instead of adding."
    assert seen(reporter, "reasoning") == thought
    assert seen(reporter, "text_delta") == "add subtracts instead of adding."
    assistant = served.bodies[1]["messages"][2]
    assert assistant["role"] == "assistant" and assistant["tool_calls"][0]["function"]["name"] == "read_code"
    assert "reasoning_content" not in assistant and "reasoning" not in assistant  # these servers document nothing to send back


async def test_inline_think_tags_split_across_chunks_never_land_in_the_answer(project) -> None:
    served = Served("llamacpp_inline_think.sse")
    finished, reporter = await run_loop(project, served, "openai", model="deepseek-r1-distill-qwen-14b")
    assert seen(reporter, "reasoning") == "\nThe user wants a sum."
    assert seen(reporter, "text_delta") == "\n\nadd subtracts instead of adding. a<b stays."
    assert finished.message == "add subtracts instead of adding. a<b stays."
    assert "<think>" not in finished.message and "</think>" not in seen(reporter, "text_delta")


async def test_deepseek_gets_reasoning_content_back_on_its_tool_call_turns(project) -> None:
    served = Served("deepseek_reasoning_tool_call.sse", "deepseek_reasoning_answer.sse")
    finished, reporter = await run_loop(project, served, "openai", model="deepseek-chat", base_url="https://api.deepseek.com",
                                        effort="high")
    assert finished.reason == "done"
    assert served.bodies[0]["reasoning_effort"] == "high"
    assistant = served.bodies[1]["messages"][2]
    assert assistant["reasoning_content"] == "I must read the file."  # DeepSeek answers 400 without it
    assert assistant["tool_calls"][0]["id"] == "call_00_dsk"
    assert reporter.of(BudgetUpdate)[-1].reasoning_tokens == 16


async def test_deepseek_keeps_tool_turn_reasoning_across_user_turns_and_drops_the_rest(project) -> None:
    served = Served("deepseek_reasoning_tool_call.sse", "deepseek_reasoning_answer.sse", "deepseek_reasoning_answer.sse")
    finished, _ = await run_loop(project, served, "openai", model="deepseek-chat", base_url="https://api.deepseek.com")
    await run_loop(project, served, "openai", model="deepseek-chat", base_url="https://api.deepseek.com",
                   request="and mul?", resume=load_session(finished.session_id))  # a new user turn, from the session file
    replies = [m for m in served.bodies[2]["messages"] if m["role"] == "assistant"]
    assert replies[0]["reasoning_content"] == "I must read the file."  # a tool-call turn: in all later requests
    assert "reasoning_content" not in replies[1]  # an answer without tool calls: DeepSeek ignores it, so none goes


async def test_gemini_thought_signatures_go_back_on_their_tool_calls(project) -> None:
    served = Served("gemini_thought_signature_tool_call.sse", "gemini_answer.sse")
    finished, _ = await run_loop(project, served, "openai", model="gemini-2.5-flash",
                                 base_url="https://generativelanguage.googleapis.com/v1beta/openai")
    assert finished.reason == "done"
    call = served.bodies[1]["messages"][2]["tool_calls"][0]
    assert call["extra_content"] == {"google": {"thought_signature": "CtUBAdHtim9WrqgVbLs3vbVqqTXnKc0Y"}}
    assert call["id"] == "function-call-1571"


GEMINI_MISSING = json.dumps([{"error": {"code": 400, "message": (
    "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing "
    "thought_signature may lead to degraded model performance."), "status": "INVALID_ARGUMENT"}}]).encode()


async def test_the_gemini_400_for_a_missing_signature_reaches_the_person(project) -> None:
    served = Served("gemini_thought_signature_tool_call.sse", (400, GEMINI_MISSING))
    finished, _ = await run_loop(project, served, "openai", model="gemini-3-pro-preview",
                                 base_url="https://generativelanguage.googleapis.com/v1beta/openai")
    assert finished.reason == "error" and "Function call is missing a thought_signature" in finished.message


async def test_no_reasoning_effort_is_sent_unless_configured(project) -> None:
    served = Served("vllm_reasoning_content_answer.sse")
    await run_loop(project, served, "openai", model="qwen3:14b")
    assert "reasoning_effort" not in served.bodies[0]


async def test_a_deepseek_model_on_a_local_server_gets_its_reasoning_back_too(project) -> None:
    served = Served("deepseek_reasoning_tool_call.sse", "deepseek_reasoning_answer.sse")
    await run_loop(project, served, "openai", model="deepseek-ai/DeepSeek-V3.1", base_url="http://127.0.0.1:8000/v1")
    assert served.bodies[1]["messages"][2]["reasoning_content"] == "I must read the file."


async def test_openrouter_reasoning_details_go_back_unmodified(project) -> None:
    served = Served("openrouter_reasoning_details_tool_call.sse", "ollama_reasoning_answer.sse")
    finished, reporter = await run_loop(project, served, "openai", model="anthropic/claude-sonnet-4.5", base_url="https://openrouter.ai/api/v1")
    assert finished.reason == "done"
    assert seen(reporter, "reasoning").startswith("Need the file. Read it.")  # shown once, not twice
    assistant = served.bodies[1]["messages"][2]
    assert assistant["reasoning_details"] == [{"type": "reasoning.text", "text": "Need the file. Read it.", "format": "anthropic-claude-v1",
                                               "index": 0, "signature": "ErUBCkYIBxgCKkB"}]
    assert "reasoning_content" not in assistant


DEEPSEEK_MISSING = json.dumps({"error": {"message": "The `reasoning_content` in the thinking mode must be passed back to the API.",
                                         "type": "invalid_request_error", "param": None, "code": "invalid_request_error"}}).encode()


async def test_the_deepseek_400_for_missing_reasoning_reaches_the_person(project) -> None:
    served = Served("deepseek_reasoning_tool_call.sse", (400, DEEPSEEK_MISSING))
    finished, _ = await run_loop(project, served, "openai", model="deepseek-chat", base_url="https://api.deepseek.com")
    assert finished.reason == "error"
    assert "openai answered HTTP 400: The `reasoning_content` in the thinking mode must be passed back to the API." in finished.message


async def test_a_think_block_opened_by_the_prompt_is_reasoning_not_the_answer(project) -> None:
    # DeepSeek-R1 and QwQ chat templates end the prompt with `<think>`: the stream has only `</think>`.
    served = Served("llamacpp_think_opened_in_prompt.sse", "llamacpp_think_opened_in_prompt.sse")
    finished, reporter = await run_loop(project, served, "openai", model="deepseek-r1-distill-qwen-14b")
    assert finished.message == "add subtracts instead of adding."
    assert seen(reporter, "reasoning") == "Okay, the user wants a sum.\n"
    # What went out as the answer before the `</think>` arrived is taken back, and the person is told.
    warned = [e.message for e in reporter.events if e.name == "warning"]
    assert any("was the model's reasoning" in m for m in warned)
    assert seen(reporter, "text_delta").endswith("\n\nadd subtracts instead of adding.")
    # The next request carries the answer alone, never the reasoning as the assistant's words.
    await run_loop(project, served, "openai", model="deepseek-r1-distill-qwen-14b", request="and mul?",
                   resume=load_session(finished.session_id))
    replies = [m for m in served.bodies[1]["messages"] if m["role"] == "assistant"]
    assert [m["content"].strip() for m in replies] == ["add subtracts instead of adding."]
