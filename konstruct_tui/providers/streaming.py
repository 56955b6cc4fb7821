"""What the OpenAI-compatible and Anthropic providers share: one POST per turn streamed as SSE,
retries, a per-turn deadline, and immediate closing on cancel.

The HTTP exchange runs in its own task that feeds a queue; `stream_turn` hands the queue's items on.
Closing the generator (the loop is done, the deadline passed, or the kill switch cancelled the
consumer) cancels that task, whose `async with client.stream(...)` then closes the connection at
once: nothing waits for the next chunk or the next turn.

Nothing a server says is swallowed: an error body, an error event mid-stream, a complete JSON
answer where a stream was asked for, an HTML page from a proxy all reach the person in the server's
own words (`server_words.py`); a malformed line is skipped and reported once; a reply cut at the
output limit says so and names the tool call it cut. Tool calls are held until the turn's end for
that reason: a half-written call must never run.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from ..agent import Message, Notice, ReasoningChunk, ReasoningDone, Restart, TextChunk, ToolCall, ToolCallChunk, ToolSpec, TurnEnd, TurnItem, Usage, UsageChunk
from .errors import (
    OutputCut,
    ProviderError,
    ProviderRefused,
    RetryableFailure,
    ServerReported,
    StreamIncomplete,
    TurnDeadlineExceeded,
    clip,
    with_prefix,
)
from .retry import (
    CONNECTION_ERRORS,
    DEFAULT_RETRY,
    RETRYABLE_STATUS,
    RetryPolicy,
    retry_after,
)
from .server_words import body_words, parse_json, window_hint
from .sse import looks_like_sse

END = object()  # what a producer queues when the turn is complete
Sleep = Callable[[float], Awaitable[None]]
CUT_REASONS = frozenset({"length", "max_tokens", "max_output_tokens", "model_context_window_exceeded"})
# Stop reasons that mean the server stopped the reply for its own reasons: said, never taken for "done".
STOPPED_BY_SERVER = {"content_filter": "the server's content filter stopped the reply", "refusal": "the model declined to go on"}
_WHOLE_BODY_TYPES = ("json", "html", "xml")  # anything else is read as a stream (stray lines still count)


@dataclass
class TurnState:
    """What one attempt has streamed so far: it decides whether a failure may be retried (not once a
    tool call began) and what the attempt cost when the server never said."""

    provider: str
    stray: list[str] = field(default_factory=list)  # lines that were no SSE field (a body sent as is)
    out_chars: int = 0
    streamed: bool = False  # text or a tool call reached the person
    tool_started: str | None = None  # name of the first tool call that began streaming
    usage_queued: bool = False
    server_usage: Usage | None = None  # what the server reported so far, before its final count
    malformed: int = 0

    def began_tool(self, name: str) -> None:
        self.streamed = True
        self.tool_started = self.tool_started or name or "a tool"

    def bad_line(self, data: str) -> Notice | None:
        """A `data:` line that is not JSON: skipped; the first one per turn is reported."""
        self.malformed += 1
        if self.malformed > 1:
            return None
        return Notice("malformed_line", f"{self.provider}: skipped a malformed line in the stream (not JSON: {clip(data, 120)!r}); reading on")

    def spent(self, body: dict[str, Any]) -> Usage | None:
        """This attempt's cost not yet handed on: the server's count if it sent one, else an
        estimate (4 characters a token), marked as estimated."""
        if self.usage_queued or not (self.streamed or self.server_usage):
            return None
        reported = self.server_usage or Usage()
        return Usage(reported.input_tokens or len(json.dumps(body)) // 4, max(reported.output_tokens, self.out_chars // 4), True,
                     reported.cache_read_tokens, reported.cache_write_tokens)


class StreamingProvider:
    provider: str = ""

    def __init__(
        self,
        client: httpx.AsyncClient,
        *,
        model: str,
        base_url: str,
        api_key: str | None = None,
        retry: RetryPolicy = DEFAULT_RETRY,
        turn_deadline_s: float = 300.0,
        max_output_tokens: int = 8192,
        reasoning_effort: str | int | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.client = client
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.retry = retry
        self.turn_deadline_s = turn_deadline_s
        self.max_output_tokens = max_output_tokens
        # low|medium|high, or a token budget (Anthropic's budget_tokens); None: the server's default.
        self.reasoning_effort = reasoning_effort
        self._sleep = sleep

    # What each wire format supplies.

    def request(self, system: str, transcript: Sequence[Message], tools: Sequence[ToolSpec]) -> tuple[str, dict[str, str], dict[str, Any]]:
        raise NotImplementedError  # pragma: no cover

    def read_turn(self, source: httpx.Response | str, state: TurnState) -> AsyncIterator[TurnItem]:
        """The turn from an SSE stream (a response, or a body already read whole)."""
        raise NotImplementedError  # pragma: no cover

    def whole_answer(self, payload: Any) -> list[TurnItem] | None:
        """The turn from a complete, non-streamed JSON answer; None when the payload is not one."""
        raise NotImplementedError  # pragma: no cover

    # The shared machinery.

    async def aclose(self) -> None:
        await self.client.aclose()

    def stream_turn(self, system: str, transcript: Sequence[Message], tools: Sequence[ToolSpec]) -> AsyncIterator[TurnItem]:
        return within_deadline(lambda queue: self._produce(queue, system, transcript, tools), self.turn_deadline_s, self.provider)

    async def _produce(self, queue: asyncio.Queue[object], system: str, transcript: Sequence[Message], tools: Sequence[ToolSpec]) -> None:
        try:
            await self._exchange(queue, lambda: self.request(system, transcript, tools))
            queue.put_nowait(END)
        except ProviderError as error:
            error.args = (with_prefix(self.provider, str(error)),)
            queue.put_nowait(error)
        except Exception as error:  # noqa: BLE001 - a bug or an answer we cannot read: end the turn, say what it was
            queue.put_nowait(ProviderError(f"{self.provider}: could not read the answer: {type(error).__name__}: {clip(str(error), 300)}"))

    async def _exchange(self, queue: asyncio.Queue[object], build: Callable[[], tuple[str, dict[str, str], dict[str, Any]]]) -> None:
        last: RetryableFailure | None = None
        for attempt in range(self.retry.attempts):
            if attempt:
                await self._sleep(self.retry.delay(attempt - 1, last.delay_s if last else None))
            url, headers, body = build()  # built per attempt: a retry may drop what the server refused
            state = TurnState(self.provider)
            try:
                try:
                    async with self.client.stream("POST", url, json=body, headers=headers) as response:
                        if response.status_code != 200:
                            raise await self._refusal(response)
                        await self._hand_on(queue, self._items(response, state), state, body)
                    return
                except CONNECTION_ERRORS as error:
                    raise RetryableFailure(f"the connection broke: {type(error).__name__} {error}".rstrip() if state.streamed
                                           else f"cannot reach {url}: {type(error).__name__} {error}".rstrip()) from None
            except RetryableFailure as failure:
                if state.streamed:
                    self._restart_or_fail(queue, failure, state, body, attempt)
                last = failure
            except ProviderError as error:
                error.usage = state.spent(body)
                hint = window_hint(str(error), self.model)
                error.args = (str(error) + hint,)
                error.window_full = bool(hint)
                raise
        raise ProviderError(f"gave up after {self.retry.attempts} attempts: {last}")

    def _restart_or_fail(self, queue: asyncio.Queue[object], failure: RetryableFailure, state: TurnState, body: dict[str, Any], attempt: int) -> None:
        """A failure after part of the turn arrived. Asked again when no tool call had begun (the
        text so far is void, and the loop is told so); otherwise reported, since a half-streamed
        call cannot be resumed and the person should decide."""
        partial = state.spent(body)
        if state.tool_started is not None or attempt + 1 >= self.retry.attempts:
            why = (f"after the model had begun the {state.tool_started} call; not retried, nothing of this turn was run. "
                   "Resume the session to ask again") if state.tool_started else f"and {self.retry.attempts} attempts were used"
            error = ProviderError(f"{failure}; it came mid-turn, {why}")
            error.usage = partial
            raise error
        if partial is not None:
            queue.put_nowait(UsageChunk(partial))
        queue.put_nowait(Notice("retry", f"{self.provider}: {failure} (mid-turn, before any tool call); asking again, the text so far is void"))
        queue.put_nowait(Restart(str(failure)))

    async def _items(self, response: httpx.Response, state: TurnState) -> AsyncIterator[TurnItem]:
        """The turn's items whatever the server sent: a stream, or a whole body (JSON answer, JSON
        error, HTML page) where a stream was asked for."""
        kind = response.headers.get("content-type", "").lower()
        if any(word in kind for word in _WHOLE_BODY_TYPES):
            raw = (await response.aread()).decode("utf-8", "replace")
            if looks_like_sse(raw):
                async for item in self.read_turn(raw, state):
                    yield item
                return
            for item in self._from_whole_body(raw):
                yield item
            return
        try:
            async for item in self.read_turn(response, state):
                yield item
        except StreamIncomplete:
            if state.streamed or not state.stray:
                raise
            # The "stream" was a body sent as is (a JSON error or answer under an SSE content type).
            for item in self._from_whole_body("\n".join(state.stray)):
                yield item

    def _from_whole_body(self, raw: str) -> list[TurnItem]:
        payload = parse_json(raw.strip())
        items = self.whole_answer(payload) if payload is not None else None
        if items is None:
            raise ServerReported(f"the server answered with an error instead of a stream: {body_words(raw)}")
        note = Notice("non_streamed", f"{self.provider}: the server sent its whole answer at once instead of streaming it; used as the answer")
        return [note, *items]

    async def _hand_on(self, queue: asyncio.Queue[object], items: AsyncIterator[TurnItem], state: TurnState, body: dict[str, Any]) -> None:
        calls: list[ToolCall] = []
        stop = "stop"
        async for item in items:
            if isinstance(item, ToolCallChunk):
                calls.append(item.call)  # held: a turn cut at its output limit must not run a half call
                state.began_tool(item.call.name)
                continue
            if isinstance(item, TurnEnd):
                stop = item.stop_reason
                continue
            if isinstance(item, (TextChunk, ReasoningChunk)):
                state.streamed = True
                state.out_chars += len(item.text)
            elif isinstance(item, UsageChunk):
                state.usage_queued = True
            queue.put_nowait(item)
        if stop in CUT_REASONS:
            raise self._cut(stop, calls, state)
        if stop in STOPPED_BY_SERVER:
            raise ServerReported(f"{STOPPED_BY_SERVER[stop]} (stop reason {stop!r}); no tool call of this turn was run")
        if not state.usage_queued:
            # Some OpenAI-compatible servers send no usage: count 4 characters a token and say so.
            state.out_chars += sum(len(json.dumps(c.arguments)) for c in calls)
            queue.put_nowait(UsageChunk(Usage(len(json.dumps(body)) // 4, state.out_chars // 4, estimated=True)))
            state.usage_queued = True
        for tool_call in calls:
            queue.put_nowait(ToolCallChunk(tool_call))
        queue.put_nowait(TurnEnd(stop))

    def _cut(self, stop: str, calls: list[ToolCall], state: TurnState) -> OutputCut:
        field = "finish_reason" if self.provider == "openai" else "stop_reason"
        cut = next((c for c in reversed(calls) if c.problem), calls[-1] if calls else None)
        if cut is not None:
            where = f"in the middle of the {cut.name or 'unnamed'} tool call {cut.id}; no tool call of this turn was run"
        elif state.tool_started:
            where = f"in the middle of a {state.tool_started} tool call; no tool call of this turn was run"
        else:
            where = f"after {state.out_chars} characters of text"
        if stop == "model_context_window_exceeded":
            return OutputCut(f"the model's reply was cut because the conversation filled its context window ({field} \"{stop}\") {where}. "
                             "Compact the session (/compact) or start a new one.")
        return OutputCut(
            f"the model's reply was cut at its output limit ({field} \"{stop}\", max_tokens {self.max_output_tokens}) {where}. "
            f"Raise max_output_tokens for {self.model!r} in config.toml, or ask for a smaller step."
        )

    async def _refusal(self, response: httpx.Response) -> Exception:
        raw = (await response.aread()).decode("utf-8", "replace")
        text = f"{self.provider} answered HTTP {response.status_code}: {body_words(raw)}"
        if response.status_code in RETRYABLE_STATUS:
            return RetryableFailure(text, retry_after(response))
        if response.status_code in (401, 403):
            text += " (check the API key)"
        elif response.status_code == 404:
            text += f" (check --base-url and --model: {self.model!r})"
        return ProviderRefused(text)


Producer = Callable[["asyncio.Queue[object]"], Coroutine[Any, Any, None]]


async def within_deadline(produce: Producer, deadline_s: float, provider: str) -> AsyncIterator[TurnItem]:
    """Run `produce` in its own task and hand on what it queues until it queues the end marker, an
    exception, or the deadline passes. Leaving (for any reason) cancels the producer at once.

    The deadline counts from the last item received, not from the start: a reasoning model that
    thinks aloud for minutes is alive, and only a turn that goes silent that long is cut.

    A failure carries what the turn spent (`error.usage`): the usage already handed on plus what
    the producer knew of the failed attempt, or an estimate from the text that streamed."""
    queue: asyncio.Queue[object] = asyncio.Queue()
    producer = asyncio.create_task(produce(queue))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + deadline_s
    spent = Usage()
    chars_since_usage = 0
    try:
        while True:
            try:
                if queue.empty():
                    # Not wait_for: in 3.11 it can swallow a cancel that lands as the item arrives,
                    # and the kill switch's cancel must never be lost.
                    async with asyncio.timeout_at(deadline):
                        item = await queue.get()
                else:
                    # Already there: taken without arming a timer (a fast stream queues thousands a
                    # second). The queue empties at every network piece, and a kill's cancel lands
                    # at the wait that follows.
                    item = queue.get_nowait()
            except TimeoutError:
                late = TurnDeadlineExceeded(f"{provider} sent nothing more within the turn's deadline of {deadline_s:g} s "
                                            "(counted from the last piece received); the stream was closed")
                partial = Usage(0, chars_since_usage // 4, True) if chars_since_usage else Usage()
                late.usage = spent + partial if (spent.total or partial.total) else None
                raise late from None
            if item is END:
                return
            deadline = loop.time() + deadline_s
            if isinstance(item, BaseException):
                own = getattr(item, "usage", None)
                if isinstance(item, ProviderError) and (spent.total or own):
                    item.usage = spent + own if own else spent
                raise item
            if isinstance(item, UsageChunk):
                spent = spent + item.usage
                chars_since_usage = 0
            elif isinstance(item, (TextChunk, ReasoningChunk)):
                chars_since_usage += len(item.text)
            yield item  # type: ignore[misc]
    finally:
        producer.cancel()
        await asyncio.wait([producer], timeout=2.0)


def parse_arguments(raw: object, tool: str) -> tuple[dict[str, Any], str | None]:
    """The model's argument string as a JSON object, or a problem the model is told about."""
    if isinstance(raw, dict):
        return raw, None
    text = raw if isinstance(raw, str) else ""
    if not text.strip():
        return {}, None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        return {}, (
            f"the arguments of this {tool} call are not valid JSON ({error.msg} at character {error.pos}); "
            f"nothing was run. Call {tool} again with one JSON object as its arguments."
        )
    if not isinstance(value, dict):
        return {}, f"the arguments of this {tool} call are JSON {type(value).__name__}, not an object; nothing was run."
    return value, None
