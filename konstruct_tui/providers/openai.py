"""OpenAI-compatible chat completions (`POST {base}/chat/completions`, streamed), which OpenAI,
Ollama, vLLM, llama.cpp server and LM Studio all speak.

Tool calls stream as fragments keyed by `index`: the first carries `id` and the function name, the
rest pieces of the argument string. They are assembled here and handed on whole at the end of the
turn, each argument string parsed once; one that is not a JSON object becomes a tool error the
model sees, not a crash.
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

DEFAULT_BASE_URL = "https://api.openai.com/v1"


def chat_url(base_url: str) -> str:
    """`{base}/chat/completions`; a bare host (`http://localhost:11434`) gets the usual `/v1`."""
    base = base_url.rstrip("/")
    if urlsplit(base).path in ("", "/"):
        base += "/v1"
    return base + "/chat/completions"


class OpenAICompatible(StreamingProvider):
    provider = "openai"
    # Usage in the stream needs `stream_options`, which a few compatible servers reject with a 400.
    # Then it is dropped for this provider's life and usage is estimated (and marked so) instead.
    usage_option = True

    async def _refusal(self, response: httpx.Response) -> Exception:
        refusal = await super()._refusal(response)
        if response.status_code in (400, 422) and self.usage_option and "stream_options" in str(refusal):
            self.usage_option = False
            return RetryableFailure(str(refusal), 0.0)
        return refusal

    def request(self, system: str, transcript: Sequence[Message], tools: Sequence[ToolSpec]) -> tuple[str, dict[str, str], dict[str, Any]]:
        headers = {"content-type": "application/json", "accept": "text/event-stream"}
        if self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, *wire_messages(transcript)],
            "stream": True,
        }
        if self.usage_option:
            body["stream_options"] = {"include_usage": True}
        if tools:
            body["tools"] = [
                {"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.input_schema}}
                for t in tools
            ]
        return chat_url(self.base_url), headers, body

    async def read_turn(self, response: httpx.Response) -> AsyncIterator[TurnItem]:
        calls: dict[int, dict[str, Any]] = {}
        finish: str | None = None
        done = False
        async for event in server_events(response):
            if event.data.strip() == "[DONE]":
                done = True
                break
            chunk = json.loads(event.data)
            if chunk.get("error"):
                error = chunk["error"]
                raise ProviderError(f"openai: the server reported an error mid-stream: {error.get('message', error) if isinstance(error, dict) else error}")
            usage = chunk.get("usage")
            if usage:
                yield UsageChunk(Usage(int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)))
            for choice in chunk.get("choices") or ():
                delta = choice.get("delta") or {}
                if delta.get("content"):
                    yield TextChunk(delta["content"])
                for fragment in delta.get("tool_calls") or ():
                    _merge(calls, fragment)
                finish = choice.get("finish_reason") or finish
        if not done and finish is None:
            raise ProviderError("openai: the stream ended before the turn was complete")
        for index in sorted(calls):
            yield ToolCallChunk(_assemble(calls[index], index))
        yield TurnEnd(finish or "stop")


def _merge(calls: dict[int, dict[str, Any]], fragment: dict[str, Any]) -> None:
    index = int(fragment.get("index", len(calls)))
    call = calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
    if fragment.get("id"):
        call["id"] = fragment["id"]
    function = fragment.get("function") or {}
    if function.get("name") and not call["name"]:
        call["name"] = function["name"]  # some servers repeat it on every fragment: keep the first
    arguments = function.get("arguments")
    if isinstance(arguments, dict):  # a few local servers send the object itself
        call["arguments"] = arguments
    elif arguments:
        call["arguments"] += arguments


def _assemble(call: dict[str, Any], index: int) -> ToolCall:
    arguments, problem = parse_arguments(call["arguments"], call["name"] or "tool")
    return ToolCall(call["id"] or f"call_{index}", call["name"], arguments, problem)


def wire_messages(transcript: Sequence[Message]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for message in transcript:
        if isinstance(message, UserMessage):
            messages.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": message.text or None}
            if message.tool_calls:
                entry["tool_calls"] = [
                    {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
                    for c in message.tool_calls
                ]
            elif not message.text:
                entry["content"] = ""
            messages.append(entry)
        elif isinstance(message, ToolResultMessage):
            messages.append({"role": "tool", "tool_call_id": message.call_id, "content": message.content})
    return messages
