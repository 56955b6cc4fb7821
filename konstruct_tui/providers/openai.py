"""OpenAI-compatible chat completions (`POST {base}/chat/completions`, streamed), which OpenAI,
Ollama, vLLM, llama.cpp server and LM Studio all speak.

Reasoning arrives as `reasoning_content` (vLLM, llama.cpp, DeepSeek, LM Studio), `reasoning`
(Ollama, OpenRouter) or inline `<think>…</think>` in the content (a server without a reasoning
parser): all of it is reasoning, shown apart, never the answer. What goes back is what each API
documents: DeepSeek wants `reasoning_content` on every assistant turn that made tool calls; Gemini
wants each tool call's `extra_content` (its thought signature); the others want nothing.

Tool calls stream as fragments keyed by `index` (a fragment without one joins the open call): the first carries `id` and the function name, the
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
    ReasoningDone,
    ReasoningPart,
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
from .server_words import describe_error, error_of, retryable
from .deltas import Deltas
from .sse import decoded, event_batches, split_frames
from .streaming import StreamingProvider, TurnState, parse_arguments
from .think_tags import ThinkSplitter


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
    # The output limit goes as `max_tokens`, which every compatible server reads; OpenAI's newer
    # models refuse it and name `max_completion_tokens` instead, which is then used for this provider's life.
    limit_field = "max_tokens"

    async def _refusal(self, response: httpx.Response) -> Exception:
        refusal = await super()._refusal(response)
        said = str(refusal)
        if response.status_code in (400, 422) and self.usage_option and "stream_options" in said:
            self.usage_option = False
            return RetryableFailure(said, 0.0)
        if response.status_code in (400, 422) and self.limit_field == "max_tokens" and "max_completion_tokens" in said:
            self.limit_field = "max_completion_tokens"
            return RetryableFailure(said, 0.0)
        return refusal

    def request(self, system: str, transcript: Sequence[Message], tools: Sequence[ToolSpec]) -> tuple[str, dict[str, str], dict[str, Any]]:
        headers = {"content-type": "application/json", "accept": "text/event-stream"}
        if self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, *wire_messages(transcript, deepseek_rule(self.base_url, self.model))],
            "stream": True,
            self.limit_field: self.max_output_tokens,
        }
        if self.usage_option:
            body["stream_options"] = {"include_usage": True}
        if isinstance(self.reasoning_effort, str):
            body["reasoning_effort"] = self.reasoning_effort
        if tools:
            body["tools"] = [
                {"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.input_schema}}
                for t in tools
            ]
        return chat_url(self.base_url), headers, body

    async def read_turn(self, source: httpx.Response | str, state: TurnState) -> AsyncIterator[TurnItem]:
        calls: dict[int, dict[str, Any]] = {}
        finish: str | None = None
        done = False
        thought = Thought(self.provider)
        out = thought.out  # this read's items, handed on together (deltas.py)
        async for batch in event_batches(source, state.stray):
            for name, event_data in batch:
                for data in split_frames(event_data) if "\n" in event_data else (event_data,):
                    chunk = decoded(data)
                    if not isinstance(chunk, dict):
                        if data.strip() == "[DONE]":
                            done = True
                            break
                        notice = state.bad_line(data)
                        if notice:
                            out.add(notice)
                        continue
                    # Only a frame that could be an error is looked at closely: this runs for every delta.
                    suspect = "error" in chunk or "detail" in chunk or chunk.get("object") == "error" or chunk.get("type") == "error"
                    error = error_of(chunk) if suspect else None
                    if error is not None or name == "error":
                        for item in out.take():
                            yield item
                        error = error or (chunk if "message" in chunk else {"message": data})  # llama.cpp's `error:` field
                        said = f"the server reported an error mid-stream: {describe_error(error)}"
                        raise RetryableFailure(said) if retryable(error) else ServerReported(said)
                    usage = chunk.get("usage")
                    if usage:
                        out.add(UsageChunk(usage_of(usage)))
                    for choice in chunk.get("choices") or ():
                        delta = choice.get("delta") or choice.get("message") or {}
                        thought.read(delta)
                        if "tool_calls" in delta:
                            for fragment in delta["tool_calls"] or ():
                                _merge(calls, fragment, state)
                        finish = choice.get("finish_reason") or finish
                if done:
                    break
            for item in out.take():
                yield item
            if done:
                break
        if not done and finish is None:
            skipped = f" ({state.malformed} malformed lines were skipped)" if state.malformed else ""
            raise StreamIncomplete(f"the stream ended before the turn was complete{skipped}")
        for item in thought.end():
            yield item
        for index in sorted(calls):
            yield ToolCallChunk(_assemble(calls[index], index))
        yield TurnEnd(finish or "stop")

    def whole_answer(self, payload: Any) -> list[TurnItem] | None:
        """A complete chat completion (`"object": "chat.completion"`), sent where a stream was asked."""
        if not isinstance(payload, dict) or not isinstance(payload.get("choices"), list) or error_of(payload):
            return None
        items: list[TurnItem] = []
        finish = "stop"
        calls: dict[int, dict[str, Any]] = {}
        thought = Thought(self.provider)
        for choice in payload["choices"][:1]:
            message = choice.get("message") or {}
            thought.read(message)
            items += thought.end()
            for position, call in enumerate(message.get("tool_calls") or ()):
                _merge(calls, {**call, "index": position}, TurnState(self.provider))
            finish = choice.get("finish_reason") or finish
        if payload.get("usage"):
            items.append(UsageChunk(usage_of(payload["usage"])))
        items += [ToolCallChunk(_assemble(calls[i], i)) for i in sorted(calls)]
        return [*items, TurnEnd(finish)]


def usage_of(usage: dict[str, Any]) -> Usage:
    details = usage.get("prompt_tokens_details") or {}
    reasoning = (usage.get("completion_tokens_details") or {}).get("reasoning_tokens")
    return Usage(int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0),
                 cache_read_tokens=int(details.get("cached_tokens") or 0), reasoning_tokens=int(reasoning or 0))




class Thought:
    """One turn's reasoning, from `reasoning_content` (vLLM, llama.cpp, DeepSeek, LM Studio), `reasoning`
    (Ollama, OpenRouter) or inline `<think>`/`<thought>` tags, and its answer text with them taken
    out; collected per network read in `out`."""

    def __init__(self, provider: str = "openai") -> None:
        self.field: str | None = None
        self.tags = ThinkSplitter()
        self.out = Deltas(provider, self.tags)
        self.details: dict[int, dict[str, Any]] = {}  # OpenRouter's `reasoning_details`, merged by index

    def read(self, delta: dict[str, Any]) -> None:
        name = "reasoning_content"
        piece = delta.get(name)
        if piece is None:
            name = "reasoning"
            piece = delta.get(name)
        if isinstance(piece, str):
            self.field = self.field or name  # present even when empty: DeepSeek wants it back then too
            if piece:
                self.out.reasoning(piece)
        if delta.get("reasoning_details"):
            shown = self._merge_details(delta["reasoning_details"])
            if shown and not isinstance(piece, str):  # shown once: most servers also send `reasoning`
                self.out.reasoning(shown)
        content = delta.get("content")
        if content and isinstance(content, str):
            self.out.text(content)

    def end(self) -> list[TurnItem]:
        items = self.out.end()
        if self.field is None and not self.tags.seen and not self.details:
            return items
        data: dict[str, Any] = {"field": self.field or ("think_tag" if self.tags.seen else "reasoning_details")}
        if self.details:
            data["reasoning_details"] = [self.details[i] for i in sorted(self.details)]
        return [*items, ReasoningDone(ReasoningPart("openai", "".join(self.out.reasoned), data))]

    def _merge_details(self, details: Any) -> str:
        """OpenRouter streams each reasoning detail in pieces keyed by `index`: text pieces join,
        the rest (type, id, format, signature, encrypted data) is kept as it came. Returns the
        readable text of these pieces."""
        shown: list[str] = []
        for detail in details if isinstance(details, list) else ():
            if not isinstance(detail, dict):
                continue
            given = detail.get("index")
            index = given if isinstance(given, int) else len(self.details)
            merged = self.details.setdefault(index, {})
            for key, value in detail.items():
                if key in ("text", "summary", "data", "signature") and isinstance(value, str) and isinstance(merged.get(key), str):
                    merged[key] += value
                elif value is not None or key not in merged:
                    merged[key] = value
            for key in ("text", "summary"):
                if isinstance(detail.get(key), str) and detail[key]:
                    shown.append(detail[key])
        return "".join(shown)


def deepseek_rule(base_url: str, model: str) -> bool:
    """DeepSeek's API (thinking mode) wants `reasoning_content` back on every assistant turn that
    made tool calls, in all later requests, or it answers 400; so do DeepSeek models served
    elsewhere (vLLM, llama.cpp and Ollama accept the field). Other servers document no such field."""
    return "deepseek" in (urlsplit(base_url).hostname or "") or "deepseek" in model.lower()


def _merge(calls: dict[int, dict[str, Any]], fragment: dict[str, Any], state: TurnState) -> None:
    index = _index_of(calls, fragment)
    call = calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
    if fragment.get("id"):
        call["id"] = fragment["id"]
    if isinstance(fragment.get("extra_content"), dict):  # Gemini: the thought signature, sent back as is
        call["extra"] = {"extra_content": fragment["extra_content"]}
    function = fragment.get("function") or {}
    if function.get("name") and not call["name"]:
        call["name"] = function["name"]  # some servers repeat it on every fragment: keep the first
    arguments = function.get("arguments")
    if isinstance(arguments, dict):  # a few local servers send the object itself
        call["arguments"] = arguments
    elif arguments and isinstance(call["arguments"], str):
        call["arguments"] += arguments
        state.out_chars += len(arguments)
    state.began_tool(call["name"])


def _index_of(calls: dict[int, dict[str, Any]], fragment: dict[str, Any]) -> int:
    """The call a fragment belongs to. Without `index` (some local servers leave it out) a fragment
    joins the open call, unless it carries a different call's id, or a name while the open call's
    arguments are already a whole object: argument pieces never become phantom calls of their own."""
    if isinstance(fragment.get("index"), int):
        return fragment["index"]
    if not calls:
        return 0
    open_index = max(calls)
    current = calls[open_index]
    new_id = fragment.get("id")
    if new_id and current["id"] and new_id != current["id"]:
        return open_index + 1
    name = (fragment.get("function") or {}).get("name")
    if name and current["name"] and not new_id and _complete(current["arguments"]):
        return open_index + 1  # whole calls sent one per fragment, with neither index nor id
    return open_index


def _complete(arguments: object) -> bool:
    if isinstance(arguments, dict):
        return True
    try:
        return isinstance(json.loads(str(arguments)), dict)
    except json.JSONDecodeError:
        return False


def _assemble(call: dict[str, Any], index: int) -> ToolCall:
    arguments, problem = parse_arguments(call["arguments"], call["name"] or "tool")
    return ToolCall(call["id"] or f"call_{index}", call["name"], arguments, problem, call.get("extra"))


def wire_messages(transcript: Sequence[Message], deepseek: bool = False) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for message in transcript:
        if isinstance(message, UserMessage):
            messages.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": message.text or None}
            if message.tool_calls:
                entry["tool_calls"] = [
                    {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
                     **(c.extra if c.extra and "extra_content" in c.extra else {})}
                    for c in message.tool_calls
                ]
                said = [r for r in message.reasoning if r.provider == "openai" and r.data.get("field") == "reasoning_content"]
                if deepseek and said:
                    entry["reasoning_content"] = "".join(r.text for r in said)
            elif not message.text:
                entry["content"] = ""
            # OpenRouter: reasoning details go back unmodified (its "preserving reasoning blocks");
            # only a server that sent them gets them.
            details = [d for r in message.reasoning if r.provider == "openai" for d in r.data.get("reasoning_details") or ()]
            if details:
                entry["reasoning_details"] = details
            messages.append(entry)
        elif isinstance(message, ToolResultMessage):
            messages.append({"role": "tool", "tool_call_id": message.call_id, "content": message.content})
    return messages
