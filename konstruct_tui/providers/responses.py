"""OpenAI's Responses API (`POST {base}/responses`, streamed as typed server-sent events): the only
API of some models (the Codex-tuned ones), and the one where reasoning survives a tool loop.

Stateless, as Codex CLI runs it: `store: false` and `include: ["reasoning.encrypted_content"]`, so
nothing is kept on OpenAI's side and each reasoning item comes back with its encrypted content. The
whole conversation is sent every turn, reasoning items included exactly as they came (id, summary,
encrypted_content), before the `function_call` items of their turn; each tool result goes back as a
`function_call_output` with the call's `call_id`.

Events read: `response.output_text.delta` (the answer), `response.reasoning_summary_text.delta` and
`response.reasoning_text.delta` (reasoning, shown dimmed), `response.output_item.added/done` (a
function call begins / a reasoning item or call is complete), `response.completed` /
`response.incomplete` / `response.failed` (usage with `output_tokens_details.reasoning_tokens`,
the stop, or the server's error), and `error`.
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

PROVIDER = "openai-responses"
# Models that reason: they get `reasoning: {summary: "auto"}` so the person sees a summary of it.
# Others refuse the `reasoning` parameter; a 400 naming it drops it for the provider's life.
REASONING_MODELS = ("o1", "o3", "o4", "gpt-5", "codex")
REASONING_DELTAS = frozenset({"response.reasoning_summary_text.delta", "response.reasoning_text.delta"})


def responses_url(base_url: str) -> str:
    base = base_url.rstrip("/")
    if urlsplit(base).path in ("", "/"):
        base += "/v1"
    return base + "/responses"


class OpenAIResponses(StreamingProvider):
    provider = PROVIDER
    reasoning_option = True

    async def _refusal(self, response: httpx.Response) -> Exception:
        refusal = await super()._refusal(response)
        said = str(refusal)
        if response.status_code == 400 and self.reasoning_option and self._asks_reasoning() and "reasoning" in said and "not supported" in said:
            self.reasoning_option = False
            return RetryableFailure(said, 0.0)
        return refusal

    def _asks_reasoning(self) -> bool:
        return self.reasoning_effort is not None or self.model.startswith(REASONING_MODELS)

    def request(self, system: str, transcript: Sequence[Message], tools: Sequence[ToolSpec]) -> tuple[str, dict[str, str], dict[str, Any]]:
        headers = {"content-type": "application/json", "accept": "text/event-stream"}
        if self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        body: dict[str, Any] = {
            "model": self.model,
            "instructions": system,
            "input": wire_items(transcript),
            "stream": True,
            "store": False,
            "include": ["reasoning.encrypted_content"],
            "max_output_tokens": self.max_output_tokens,
        }
        if self.reasoning_option and self._asks_reasoning():
            body["reasoning"] = {"summary": "auto"}
            if isinstance(self.reasoning_effort, str):
                body["reasoning"]["effort"] = self.reasoning_effort
        if tools:
            body["tools"] = [{"type": "function", "name": t.name, "description": t.description, "parameters": t.input_schema} for t in tools]
        return responses_url(self.base_url), headers, body

    async def read_turn(self, source: httpx.Response | str, state: TurnState) -> AsyncIterator[TurnItem]:
        calls: list[ToolCall] = []
        summary_at: dict[str, int] = {}  # reasoning item id -> the summary part streaming now
        out = Deltas(self.provider)  # this read's items, handed on together (deltas.py)
        async for batch in event_batches(source, state.stray):
            for name, data in batch:
                payload = decoded(data)
                if not isinstance(payload, dict):
                    notice = state.bad_line(data)
                    if notice:
                        out.add(notice)
                    continue
                kind = str(payload.get("type") or name)
                if kind == "response.output_text.delta":
                    if payload.get("delta"):
                        out.text(str(payload["delta"]))
                elif kind in REASONING_DELTAS:
                    piece = str(payload.get("delta") or "")
                    item_id = str(payload.get("item_id") or "")
                    index = int(payload.get("summary_index") or 0)
                    if summary_at.setdefault(item_id, index) != index:
                        summary_at[item_id] = index
                        piece = "\n\n" + piece  # a new summary part: a paragraph of its own
                    if piece:
                        out.reasoning(piece)
                elif kind == "response.function_call_arguments.delta":
                    state.out_chars += len(str(payload.get("delta") or ""))
                elif kind == "response.output_item.added":
                    item = payload.get("item") or {}
                    if item.get("type") == "function_call":
                        state.began_tool(str(item.get("name") or ""))
                elif kind == "response.output_item.done":
                    done = self._item_done(payload.get("item") or {})
                    if isinstance(done, ToolCallChunk):
                        calls.append(done.call)
                    if done is not None:
                        out.add(done)
                elif kind in ("response.completed", "response.incomplete"):
                    response = payload.get("response") or {}
                    if response.get("usage"):
                        out.add(UsageChunk(usage_of(response["usage"])))
                    out.add(TurnEnd(stop_of(response, calls)))
                    for item in out.take():
                        yield item
                    return
                elif kind == "response.failed" or kind == "error" or error_of(payload):
                    for item in out.take():
                        yield item
                    error = error_of(payload.get("response") or {}) or error_of(payload) or {"message": data}
                    said = describe_error(error)
                    raise RetryableFailure(said) if retryable(error) else ServerReported(f"the server reported an error mid-stream: {said}")
            for item in out.take():
                yield item
        skipped = f" ({state.malformed} malformed lines were skipped)" if state.malformed else ""
        raise StreamIncomplete(f"the stream ended before the turn was complete{skipped}")

    def _item_done(self, item: dict[str, Any]) -> TurnItem | None:
        if item.get("type") == "function_call":
            name = str(item.get("name") or "")
            arguments, problem = parse_arguments(item.get("arguments") or "", name or "tool")
            return ToolCallChunk(ToolCall(str(item.get("call_id") or item.get("id") or ""), name, arguments, problem))
        if item.get("type") == "reasoning":
            return ReasoningDone(reasoning_part(item))
        return None

    def whole_answer(self, payload: Any) -> list[TurnItem] | None:
        """A complete response object (`"object": "response"`), sent where a stream was asked."""
        if not isinstance(payload, dict) or payload.get("object") != "response" or not isinstance(payload.get("output"), list):
            return None
        items: list[TurnItem] = []
        calls: list[ToolCall] = []
        for item in payload["output"]:
            if item.get("type") == "message":
                text = "".join(str(c.get("text") or "") for c in item.get("content") or () if c.get("type") == "output_text")
                if text:
                    items.append(TextChunk(text))
                continue
            if item.get("type") == "reasoning":
                shown = reasoning_part(item).text
                if shown:
                    items.append(ReasoningChunk(shown))
            done = self._item_done(item)
            if isinstance(done, ToolCallChunk):
                calls.append(done.call)
            if done is not None:
                items.append(done)
        if payload.get("usage"):
            items.append(UsageChunk(usage_of(payload["usage"])))
        return [*items, TurnEnd(stop_of(payload, calls))]


def reasoning_part(item: dict[str, Any]) -> ReasoningPart:
    """A reasoning item as it must go back (id, summary, encrypted content); its summary is what
    the person reads."""
    summary = [s for s in item.get("summary") or () if isinstance(s, dict)]
    text = "\n\n".join(str(s.get("text") or "") for s in summary if s.get("text"))
    if not text:  # a server that shows raw reasoning (gpt-oss) sends it as `content`
        text = "".join(str(c.get("text") or "") for c in item.get("content") or () if isinstance(c, dict))
    data: dict[str, Any] = {"id": item.get("id"), "summary": summary}
    if item.get("encrypted_content"):
        data["encrypted_content"] = item["encrypted_content"]
    elif item.get("content"):
        data["content"] = item["content"]
    return ReasoningPart(PROVIDER, text, data)


def reasoning_item(part: ReasoningPart) -> dict[str, Any] | None:
    """A reasoning item to send back, or None. Nothing is stored server-side (`store: false`), so an
    item goes back only with what makes it readable without storage: its `encrypted_content`
    (OpenAI), or its raw `content` (a server showing gpt-oss reasoning). An id alone would be
    refused ("Item with id 'rs_…' not found")."""
    if part.provider != PROVIDER or not part.data.get("id"):
        return None
    item: dict[str, Any] = {"type": "reasoning", "id": part.data["id"], "summary": part.data.get("summary") or []}
    if part.data.get("encrypted_content"):
        item["encrypted_content"] = part.data["encrypted_content"]
    elif part.data.get("content"):
        item["content"] = part.data["content"]
    else:
        return None
    return item


def stop_of(response: dict[str, Any], calls: Sequence[ToolCall]) -> str:
    """The turn's stop in the words the loop knows: an incomplete response names its reason
    (`max_output_tokens`, `content_filter`)."""
    if response.get("status") == "incomplete":
        return str((response.get("incomplete_details") or {}).get("reason") or "max_output_tokens")
    return "tool_calls" if calls else "stop"


def usage_of(usage: dict[str, Any]) -> Usage:
    cached = (usage.get("input_tokens_details") or {}).get("cached_tokens")
    reasoning = (usage.get("output_tokens_details") or {}).get("reasoning_tokens")
    return Usage(int(usage.get("input_tokens") or 0), int(usage.get("output_tokens") or 0),
                 cache_read_tokens=int(cached or 0), reasoning_tokens=int(reasoning or 0))


def wire_items(transcript: Sequence[Message]) -> list[dict[str, Any]]:
    """The conversation as Responses input items. Reasoning items made by this API go back as they
    came, in front of the message and calls of their turn; reasoning from other providers does not."""
    items: list[dict[str, Any]] = []
    for message in transcript:
        if isinstance(message, UserMessage):
            items.append({"type": "message", "role": "user", "content": [{"type": "input_text", "text": message.text}]})
        elif isinstance(message, AssistantMessage):
            for part in message.reasoning:
                item = reasoning_item(part)
                if item is not None:
                    items.append(item)
            if message.text:
                items.append({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": message.text}]})
            items += [{"type": "function_call", "call_id": c.id, "name": c.name, "arguments": json.dumps(c.arguments)} for c in message.tool_calls]
        elif isinstance(message, ToolResultMessage):
            items.append({"type": "function_call_output", "call_id": message.call_id, "output": message.content})
    return items
