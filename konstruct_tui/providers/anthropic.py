"""Anthropic messages (`POST {base}/v1/messages`, streamed as typed server-sent events).

A `tool_use` block's input arrives as `input_json_delta` pieces and is complete at its
`content_block_stop`; the call is handed on then. Tool results go back as `tool_result` blocks in a
user message (consecutive results share one message, as the API requires alternating roles).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from typing import Any
from urllib.parse import urlsplit

import httpx

from ..agent import (
    AssistantMessage,
    Message,
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
from .errors import ProviderError, RetryableFailure
from .sse import server_events
from .streaming import StreamingProvider, parse_arguments

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"
_RETRYABLE_ERRORS = {"overloaded_error", "rate_limit_error", "api_error"}


def messages_url(base_url: str) -> str:
    base = base_url.rstrip("/")
    return base + ("/messages" if urlsplit(base).path.endswith("/v1") else "/v1/messages")


class Anthropic(StreamingProvider):
    provider = "anthropic"

    def request(self, system: str, transcript: Sequence[Message], tools: Sequence[ToolSpec]) -> tuple[str, dict[str, str], dict[str, Any]]:
        headers = {"content-type": "application/json", "accept": "text/event-stream", "anthropic-version": API_VERSION}
        if self.api_key:
            headers["x-api-key"] = self.api_key
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_output_tokens,
            "system": system,
            "messages": wire_messages(transcript),
            "stream": True,
        }
        if tools:
            body["tools"] = [{"name": t.name, "description": t.description, "input_schema": t.input_schema} for t in tools]
        return messages_url(self.base_url), headers, body

    async def read_turn(self, response: httpx.Response) -> AsyncIterator[TurnItem]:
        blocks: dict[int, dict[str, Any]] = {}
        input_tokens = output_tokens = 0
        stop_reason: str | None = None
        stopped = False
        async for event in server_events(response):
            payload = json.loads(event.data)
            kind = payload.get("type", event.event)
            if kind == "message_start":
                usage = payload.get("message", {}).get("usage") or {}
                input_tokens = sum(int(usage.get(k) or 0) for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"))
                output_tokens = int(usage.get("output_tokens") or 0)
            elif kind == "content_block_start":
                block = dict(payload.get("content_block") or {})
                block["partial"] = ""
                blocks[int(payload.get("index", len(blocks)))] = block
            elif kind == "content_block_delta":
                delta = payload.get("delta") or {}
                block = blocks.setdefault(int(payload.get("index", 0)), {"type": "text", "partial": ""})
                if delta.get("type") == "text_delta" and delta.get("text"):
                    yield TextChunk(delta["text"])
                elif delta.get("type") == "input_json_delta":
                    block["partial"] += delta.get("partial_json") or ""
            elif kind == "content_block_stop":
                block = blocks.get(int(payload.get("index", -1))) or {}
                if block.get("type") == "tool_use":
                    yield ToolCallChunk(_assemble(block))
            elif kind == "message_delta":
                stop_reason = (payload.get("delta") or {}).get("stop_reason") or stop_reason
                usage = payload.get("usage") or {}
                output_tokens = int(usage.get("output_tokens") or output_tokens)  # cumulative, per the API
            elif kind == "message_stop":
                stopped = True
                break
            elif kind == "error":
                error = payload.get("error") or {}
                message = f"anthropic: {error.get('type', 'error')}: {error.get('message', '')}".rstrip(": ")
                if error.get("type") in _RETRYABLE_ERRORS:
                    raise RetryableFailure(message)
                raise ProviderError(message)
        if not stopped:
            raise ProviderError("anthropic: the stream ended before the turn was complete")
        yield UsageChunk(Usage(input_tokens, output_tokens))
        yield TurnEnd(stop_reason or "end_turn")


def _assemble(block: dict[str, Any]) -> ToolCall:
    name = str(block.get("name") or "")
    raw = block["partial"] if block["partial"] else block.get("input") or {}
    arguments, problem = parse_arguments(raw, name or "tool")
    return ToolCall(str(block.get("id") or ""), name, arguments, problem)


def wire_messages(transcript: Sequence[Message]) -> list[dict[str, Any]]:
    """Anthropic wants user and assistant strictly alternating, with content as blocks."""
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
            blocks: list[dict[str, Any]] = [{"type": "text", "text": message.text}] if message.text else []
            blocks += [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments} for c in message.tool_calls]
            add("assistant", blocks or [{"type": "text", "text": "(no reply)"}])
        elif isinstance(message, ToolResultMessage):
            add("user", [{"type": "tool_result", "tool_use_id": message.call_id, "content": message.content, "is_error": message.is_error}])
    return messages
