"""The agent's two outward ports and the records that cross them.

`ModelCallPort` is what a provider implements: given the system prompt, the transcript and the tool
specs, stream one turn as `TurnItem`s. `ProgressReporterPort` (in `events.py`, beside the events) is
where the loop reports what it does. The loop knows nothing of HTTP or Textual; both sides only see these records.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class TurnDeadlinePassed(Exception):
    """A model turn ran past its deadline and its stream was closed. Providers raise a subclass
    (`TurnDeadlineExceeded`); a blueprint phase treats it as the end of a slow turn, not as an
    unreachable model, so the loop must recognise it without importing a provider."""


@dataclass(frozen=True)
class ToolSpec:
    """A tool as the model sees it."""

    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model made. `problem` is set when its argument string could not be read as
    a JSON object: the loop answers it as a tool error the model sees, never a crash."""

    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None
    # Opaque data the provider must send back with this call (Gemini's thought signature), keyed by
    # the provider that made it; never shown, never interpreted.
    extra: dict[str, Any] | None = None


@dataclass(frozen=True)
class Usage:
    """Tokens of one turn. `input_tokens` is the whole prompt; the cache counts are the parts of it
    read from (or written to) the server's prompt cache, which are priced differently."""

    input_tokens: int = 0
    output_tokens: int = 0
    estimated: bool = False  # the provider sent no usage; counted from characters (4 per token)
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0  # of output_tokens, spent thinking (when the server says; billed as output)

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.estimated or other.estimated,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
            self.reasoning_tokens + other.reasoning_tokens,
        )


# The transcript, provider-neutral. Each provider translates it to its own wire shape.


@dataclass(frozen=True)
class UserMessage:
    text: str


@dataclass(frozen=True)
class ReasoningPart:
    """What the model thought before (or between) its answer and calls in one turn: the text the
    person may read, and the opaque data its API wants back on the next call (Anthropic's
    `signature` or `redacted_thinking` data, a Responses item's id and `encrypted_content`).
    `provider` names who made it: a part is only ever sent back to the provider that made it."""

    provider: str
    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AssistantMessage:
    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    reasoning: tuple[ReasoningPart, ...] = ()  # in the order the model produced them, before text and calls


@dataclass(frozen=True)
class ToolResultMessage:
    call_id: str
    name: str
    content: str  # the tool's JSON result (or error) as text
    is_error: bool = False


Message = UserMessage | AssistantMessage | ToolResultMessage


# What a provider streams for one turn.


@dataclass(frozen=True)
class TextChunk:
    text: str


@dataclass(frozen=True)
class ReasoningChunk:
    """A piece of the model's reasoning as it streams (shown dimmed, never part of the answer)."""

    text: str


@dataclass(frozen=True)
class ReasoningDone:
    """One finished reasoning block, with whatever the provider must get back next call."""

    part: ReasoningPart


@dataclass(frozen=True)
class ToolCallChunk:
    """A complete tool call (providers assemble the argument fragments before yielding it)."""

    call: ToolCall


@dataclass(frozen=True)
class UsageChunk:
    usage: Usage


@dataclass(frozen=True)
class TurnEnd:
    stop_reason: str  # the provider's own word: stop, tool_calls, end_turn, tool_use, length, ...


@dataclass(frozen=True)
class Notice:
    """Something the person should know about this turn that did not end it (a malformed line the
    provider skipped, a retry). `kind` is a stable word: `malformed_line`, `retry`, `non_streamed`."""

    kind: str
    text: str


@dataclass(frozen=True)
class Restart:
    """The server failed mid-turn before any tool call began, and the provider asks again: the text
    streamed so far in this turn is void (its tokens were already counted)."""

    reason: str


TurnItem = TextChunk | ReasoningChunk | ReasoningDone | ToolCallChunk | UsageChunk | TurnEnd | Notice | Restart


class ModelCallPort(Protocol):
    """Streams one model turn. Raises `ProviderError` (providers/errors.py) for what retries could
    not fix; cancellation closes the underlying HTTP stream at once."""

    provider: str
    model: str

    def stream_turn(self, system: str, transcript: Sequence[Message], tools: Sequence[ToolSpec]) -> AsyncIterator[TurnItem]: ...

    async def aclose(self) -> None: ...
