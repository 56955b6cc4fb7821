"""What the OpenAI-compatible and Anthropic providers share: one POST per turn streamed as SSE,
retries before the first output, a per-turn deadline, and immediate closing on cancel.

The HTTP exchange runs in its own task that feeds a queue; `stream_turn` hands the queue's items on.
Closing the generator (the loop is done, the deadline passed, or the kill switch cancelled the
consumer) cancels that task, whose `async with client.stream(...)` then closes the connection at
once: nothing waits for the next chunk or the next turn.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from typing import Any

import httpx

from ..agent import Message, TextChunk, ToolCallChunk, ToolSpec, TurnItem, Usage, UsageChunk
from .errors import (
    ProviderError,
    ProviderRefused,
    RetryableFailure,
    TurnDeadlineExceeded,
)
from .retry import (
    CONNECTION_ERRORS,
    DEFAULT_RETRY,
    RETRYABLE_STATUS,
    RetryPolicy,
    retry_after,
)

END = object()  # what a producer queues when the turn is complete
Sleep = Callable[[float], Awaitable[None]]


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
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.client = client
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.retry = retry
        self.turn_deadline_s = turn_deadline_s
        self.max_output_tokens = max_output_tokens
        self._sleep = sleep

    # What each wire format supplies.

    def request(self, system: str, transcript: Sequence[Message], tools: Sequence[ToolSpec]) -> tuple[str, dict[str, str], dict[str, Any]]:
        raise NotImplementedError  # pragma: no cover

    def read_turn(self, response: httpx.Response) -> AsyncIterator[TurnItem]:
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
            queue.put_nowait(error)
        except Exception as error:  # noqa: BLE001 - a bug or an answer we cannot read: end the turn, say what it was
            queue.put_nowait(ProviderError(f"{self.provider}: unexpected failure: {error!r}"))

    async def _exchange(self, queue: asyncio.Queue[object], build: Callable[[], tuple[str, dict[str, str], dict[str, Any]]]) -> None:
        last: RetryableFailure | None = None
        for attempt in range(self.retry.attempts):
            if attempt:
                await self._sleep(self.retry.delay(attempt - 1, last.delay_s if last else None))
            url, headers, body = build()  # built per attempt: a retry may drop what the server refused
            started = False
            try:
                async with self.client.stream("POST", url, json=body, headers=headers) as response:
                    if response.status_code != 200:
                        raise await self._refusal(response)
                    usage_seen = False
                    out_chars = 0
                    async for item in self.read_turn(response):
                        started = True
                        usage_seen = usage_seen or isinstance(item, UsageChunk)
                        out_chars += _chars(item)
                        queue.put_nowait(item)
                    if not usage_seen:
                        # Some OpenAI-compatible servers send no usage: count 4 characters a token and say so.
                        estimate = Usage(len(json.dumps(body)) // 4, out_chars // 4, estimated=True)
                        queue.put_nowait(UsageChunk(estimate))
                return
            except RetryableFailure as failure:
                if started:
                    raise ProviderError(f"{self.provider}: {failure} (after part of the turn had arrived)") from None
                last = failure
            except CONNECTION_ERRORS as error:
                if started:
                    raise ProviderError(f"{self.provider}: the connection broke mid-turn: {error!r}") from None
                last = RetryableFailure(f"cannot reach {url}: {type(error).__name__} {error}".rstrip())
        raise ProviderError(f"{self.provider}: gave up after {self.retry.attempts} attempts: {last}")

    async def _refusal(self, response: httpx.Response) -> Exception:
        raw = (await response.aread()).decode("utf-8", "replace")
        message = _error_message(raw)
        text = f"{self.provider} answered HTTP {response.status_code}: {message}"
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
    exception, or the deadline passes. Leaving (for any reason) cancels the producer at once."""
    queue: asyncio.Queue[object] = asyncio.Queue()
    producer = asyncio.create_task(produce(queue))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + deadline_s
    try:
        while True:
            try:
                # Not wait_for: in 3.11 it can swallow a cancel that lands as the item arrives,
                # and the kill switch's cancel must never be lost.
                async with asyncio.timeout_at(deadline):
                    item = await queue.get()
            except TimeoutError:
                raise TurnDeadlineExceeded(
                    f"{provider} did not finish the turn within its deadline of {deadline_s:g} s; the stream was closed"
                ) from None
            if item is END:
                return
            if isinstance(item, BaseException):
                raise item
            yield item  # type: ignore[misc]  # the queue holds TurnItems besides the END marker and errors
    finally:
        producer.cancel()
        await asyncio.wait([producer], timeout=2.0)


def _error_message(raw: str) -> str:
    try:
        payload = json.loads(raw)
    except json.JSONDecodeError:
        return raw.strip()[:300] or "(no body)"
    error = payload.get("error") if isinstance(payload, dict) else None
    if isinstance(error, dict) and error.get("message"):
        return str(error["message"])[:300]
    if isinstance(error, str):
        return error[:300]
    return raw.strip()[:300]


def _chars(item: TurnItem) -> int:
    if isinstance(item, TextChunk):
        return len(item.text)
    if isinstance(item, ToolCallChunk):
        return len(json.dumps(item.call.arguments))
    return 0


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
