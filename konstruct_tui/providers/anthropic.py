"""Anthropic messages (`POST {base}/v1/messages`, streamed as typed server-sent events).

A `tool_use` block's input arrives as `input_json_delta` pieces and is complete at its
`content_block_stop`; the call is handed on then. Tool results go back as `tool_result` blocks in a
user message (consecutive results share one message, as the API requires alternating roles).

Extended thinking (a reasoning effort or token budget configured for the model): `thinking` blocks
stream as `thinking_delta` and end with a `signature_delta`; `redacted_thinking` blocks carry only
opaque `data`. Both go back untouched, first in their assistant turn, before its `tool_use` blocks:
Anthropic answers 400 when a tool loop's assistant turn lacks them. With thinking on, the request
carries no `temperature` and no forced `tool_choice` (the API refuses both), and on Claude 4 models
the interleaved-thinking beta lets the model think between tool calls.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any
from urllib.parse import urlsplit

import httpx

from ..agent import (
    AssistantMessage,
    Message,
    ReasoningChunk,
    ReasoningDone,
    ReasoningPart,
    TextChunk,
    ToolCall,
    ToolCallChunk,
    ToolResultMessage,
    ToolSpec,
    TurnEnd,
    TurnItem,
    Usage,
    UsageChunk,
    UserMessage,
)
from .errors import RetryableFailure, ServerReported, StreamIncomplete
from .deltas import Deltas
from .server_words import describe_error, error_of, retryable
from .sse import decoded, event_batches
from .streaming import StreamingProvider, TurnState, parse_arguments

API_VERSION = "2023-06-01"
INTERLEAVED_BETA = "interleaved-thinking-2025-05-14"
# What `reasoning_effort = "low|medium|high"` means as a thinking budget (Claude Code's think /
# think hard / ultrathink); a number is taken as the budget itself. The API's minimum is 1024.
EFFORT_BUDGETS = {"minimal": 1_024, "low": 4_000, "medium": 10_000, "high": 31_999}
MIN_BUDGET = 1024
THINKING_BLOCKS = ("thinking", "redacted_thinking")


def messages_url(base_url: str) -> str:
    base = base_url.rstrip("/")
    return base + ("/messages" if urlsplit(base).path.endswith("/v1") else "/v1/messages")


class Anthropic(StreamingProvider):
    provider = "anthropic"

    def request(self, system: str, transcript: Sequence[Message], tools: Sequence[ToolSpec]) -> tuple[str, dict[str, str], dict[str, Any]]:
        headers = {"content-type": "application/json", "accept": "text/event-stream", "anthropic-version": API_VERSION}
        if self.api_key:
            headers["x-api-key"] = self.api_key
        # Prompt caching: the system prompt and the tool schemas are the same every turn of a run, so
        # they are marked as a cache prefix (the last tool's mark covers every tool before it). A
        # cached read costs a tenth of an input token; the budget shows the reads and writes.
        # Three marks of the four the API allows.
        budget = self.thinking_budget()
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_output_tokens,
            "system": [{"type": "text", "text": system, **CACHED}],
            "messages": wire_messages(transcript, thinking=budget is not None),
            "stream": True,
        }
        if budget is not None:
            body["thinking"] = {"type": "enabled", "budget_tokens": budget}
            # The budget is part of max_tokens: the answer keeps its own room on top of it.
            if budget >= self.max_output_tokens:
                body["max_tokens"] = budget + self.max_output_tokens
            if tools and interleaves(self.model):
                headers["anthropic-beta"] = INTERLEAVED_BETA
        if tools:
            body["tools"] = [{"name": t.name, "description": t.description, "input_schema": t.input_schema} for t in tools]
            body["tools"][-1] = {**body["tools"][-1], **CACHED}
        # And the conversation so far: the next turn re-sends it unchanged plus one reply and its
        # results, so it reads this prefix from the cache instead of paying for it again.
        if body["messages"] and body["messages"][-1]["content"]:
            last = body["messages"][-1]["content"]
            markable = [i for i, block in enumerate(last) if block.get("type") not in THINKING_BLOCKS]  # thinking takes no mark
            if markable:
                last[markable[-1]] = {**last[markable[-1]], **CACHED}
        return messages_url(self.base_url), headers, body

    def thinking_budget(self) -> int | None:
        effort = self.reasoning_effort
        if isinstance(effort, bool) or effort is None:
            return None
        if isinstance(effort, int):
            return max(MIN_BUDGET, effort)
        return EFFORT_BUDGETS.get(effort)

    async def read_turn(self, source: httpx.Response | str, state: TurnState) -> AsyncIterator[TurnItem]:
        blocks: dict[int, dict[str, Any]] = {}
        usage = Usage()
        stop_reason: str | None = None
        stopped = False
        out = Deltas(self.provider)  # this read's items, handed on together (deltas.py)
        async for batch in event_batches(source, state.stray):
            for name, data in batch:
                payload = decoded(data)
                if not isinstance(payload, dict):
                    notice = state.bad_line(data)
                    if notice:
                        out.add(notice)
                    continue
                kind = payload.get("type", name)
                if kind == "content_block_delta":  # first: all but a few events are deltas
                    delta = payload.get("delta") or {}
                    block = blocks.setdefault(int(payload.get("index", 0)), {"type": "text", "partial": []})
                    step = delta.get("type")
                    if step == "text_delta":
                        if delta.get("text"):
                            out.text(delta["text"])
                    elif step == "thinking_delta":
                        piece = delta.get("thinking") or ""
                        block.setdefault("thinking_pieces", []).append(piece)  # joined at the block's end: += would copy it all each time
                        if piece:
                            out.reasoning(piece)
                    elif step == "signature_delta":
                        block.setdefault("signature_pieces", []).append(str(delta.get("signature") or ""))
                    elif step == "input_json_delta":
                        piece = delta.get("partial_json") or ""
                        block["partial"].append(piece)
                        state.out_chars += len(piece)
                elif kind == "message_start":
                    usage = usage_of((payload.get("message") or {}).get("usage") or {}, usage)
                    state.server_usage = usage
                elif kind == "content_block_start":
                    block = dict(payload.get("content_block") or {})
                    block["partial"] = []
                    blocks[int(payload.get("index", len(blocks)))] = block
                    if block.get("type") == "tool_use":
                        state.began_tool(str(block.get("name") or ""))
                elif kind == "content_block_stop":
                    block = blocks.get(int(payload.get("index", -1))) or {}
                    if block.get("type") == "tool_use" and not block.get("handed_on"):
                        block["handed_on"] = True
                        out.add(ToolCallChunk(_assemble(block)))
                    elif block.get("type") in THINKING_BLOCKS:
                        out.add(ReasoningDone(reasoning_part(block)))
                elif kind == "message_delta":
                    stop_reason = (payload.get("delta") or {}).get("stop_reason") or stop_reason
                    usage = usage_of(payload.get("usage") or {}, usage)  # cumulative, per the API
                    state.server_usage = usage
                elif kind == "message_stop":
                    stopped = True
                    break
                elif kind == "error" or error_of(payload):
                    for item in out.take():
                        yield item
                    error = error_of(payload) or {"message": data}
                    said = describe_error(error)
                    raise RetryableFailure(said) if retryable(error) else ServerReported(f"the server reported an error mid-stream: {said}")
            for item in out.take():
                yield item
            if stopped:
                break
        if not stopped and stop_reason is None:  # a proxy may drop `message_stop`; a stop reason is enough
            skipped = f" ({state.malformed} malformed lines were skipped)" if state.malformed else ""
            raise StreamIncomplete(f"the stream ended before the turn was complete{skipped}")
        for block in blocks.values():  # a tool_use block the output limit cut before its stop
            if block.get("type") == "tool_use" and not block.get("handed_on"):
                yield ToolCallChunk(_assemble(block))
        yield UsageChunk(usage)
        yield TurnEnd(stop_reason or "end_turn")

    def whole_answer(self, payload: Any) -> list[TurnItem] | None:
        """A complete message (`"type": "message"`), sent where a stream was asked."""
        if not isinstance(payload, dict) or payload.get("type") != "message" or not isinstance(payload.get("content"), list):
            return None
        items: list[TurnItem] = []
        for block in payload["content"]:
            if block.get("type") == "text" and block.get("text"):
                items.append(TextChunk(str(block["text"])))
            elif block.get("type") in THINKING_BLOCKS:
                if block.get("thinking"):
                    items.append(ReasoningChunk(str(block["thinking"])))
                items.append(ReasoningDone(reasoning_part(block)))
            elif block.get("type") == "tool_use":
                items.append(ToolCallChunk(_assemble({**block, "partial": []})))
        items.append(UsageChunk(usage_of(payload.get("usage") or {}, Usage())))
        return [*items, TurnEnd(str(payload.get("stop_reason") or "end_turn"))]


CACHED = {"cache_control": {"type": "ephemeral"}}


def usage_of(reported: dict[str, Any], before: Usage) -> Usage:
    """The turn's usage after a `message_start` or `message_delta`: each field the server names
    replaces the earlier count. `input_tokens` is the uncached part; the prompt is all three."""
    def count(key: str, earlier: int) -> int:
        return int(reported[key] or 0) if key in reported else earlier

    read = count("cache_read_input_tokens", before.cache_read_tokens)
    written = count("cache_creation_input_tokens", before.cache_write_tokens)
    uncached = count("input_tokens", before.input_tokens - before.cache_read_tokens - before.cache_write_tokens)
    return Usage(uncached + read + written, count("output_tokens", before.output_tokens), False, read, written)


def interleaves(model: str) -> bool:
    """Claude 4 models think between tool calls with the beta header; 3.7 does not know it."""
    return model.startswith("claude-") and "claude-3" not in model


def reasoning_part(block: dict[str, Any]) -> ReasoningPart:
    """A finished thinking block as it must go back: `thinking` with its `signature`, or a
    `redacted_thinking` block's `data` (never readable, never changed)."""
    if block.get("type") == "redacted_thinking":
        return ReasoningPart("anthropic", "", {"type": "redacted_thinking", "data": block.get("data") or ""})
    thinking = str(block.get("thinking") or "") + "".join(block.get("thinking_pieces") or ())
    signature = str(block.get("signature") or "") + "".join(block.get("signature_pieces") or ())
    return ReasoningPart("anthropic", thinking, {"type": "thinking", "signature": signature})


def _assemble(block: dict[str, Any]) -> ToolCall:
    name = str(block.get("name") or "")
    partial = "".join(block.get("partial") or ())
    raw = partial if partial else block.get("input") or {}
    arguments, problem = parse_arguments(raw, name or "tool")
    return ToolCall(str(block.get("id") or ""), name, arguments, problem)


def wire_messages(transcript: Sequence[Message], thinking: bool = False) -> list[dict[str, Any]]:
    """Anthropic wants user and assistant strictly alternating, with content as blocks. With
    thinking on, each assistant turn starts with its thinking blocks exactly as they came."""
    messages: list[dict[str, Any]] = []

    def add(role: str, blocks: list[dict[str, Any]]) -> None:
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"].extend(blocks)
        else:
            messages.append({"role": role, "content": blocks})

    for message in transcript:
        if isinstance(message, UserMessage):
            add("user", [{"type": "text", "text": message.text}])
        elif isinstance(message, AssistantMessage):
            blocks = [thinking_block(r) for r in message.reasoning if r.provider == "anthropic"] if thinking else []
            blocks += [{"type": "text", "text": message.text}] if message.text else []
            blocks += [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments} for c in message.tool_calls]
            add("assistant", blocks or [{"type": "text", "text": "(no reply)"}])
        elif isinstance(message, ToolResultMessage):
            add("user", [{"type": "tool_result", "tool_use_id": message.call_id, "content": message.content, "is_error": message.is_error}])
    return messages


def thinking_block(part: ReasoningPart) -> dict[str, Any]:
    if part.data.get("type") == "redacted_thinking":
        return {"type": "redacted_thinking", "data": part.data.get("data", "")}
    return {"type": "thinking", "thinking": part.text, "signature": part.data.get("signature", "")}
