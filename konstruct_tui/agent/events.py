"""What the loop reports, as frozen records, and the port that receives them.

Every event has a stable JSON name (`konstruct run` prints `{"event": name, ...}` per line, DESIGN.md
§11); the UI wraps the same records in Textual messages. Fields are plain data: no core objects leak.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Protocol


@dataclass(frozen=True)
class SessionStarted:
    name: ClassVar[str] = "session_started"
    session_id: str
    provider: str
    model: str
    resumed: bool = False
    note: str | None = None  # e.g. the scripted provider saying no model is called
    tools: tuple[str, ...] = ()
    agents_md: bool = False  # the project's AGENTS.md was put in front of the model
    neighborhoods: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class TurnStarted:
    name: ClassVar[str] = "turn_started"
    turn: int


@dataclass(frozen=True)
class TextDelta:
    name: ClassVar[str] = "text_delta"
    turn: int
    text: str


@dataclass(frozen=True)
class ReasoningDelta:
    """A piece of the model's reasoning as it streams: shown apart from the answer (dimmed in the
    workbench), never part of `finished.message`. Sent only where the server shows its reasoning."""

    name: ClassVar[str] = "reasoning"
    turn: int
    text: str


@dataclass(frozen=True)
class ToolStarted:
    name: ClassVar[str] = "tool_started"
    turn: int
    call_id: str
    tool: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ToolFinished:
    name: ClassVar[str] = "tool_finished"
    turn: int
    call_id: str
    tool: str
    ok: bool
    result: dict[str, Any]  # the tool's JSON result, or {"error": ...} as the model saw it
    statuses: tuple[str, ...] = ()  # per-entry statuses of a batch, in order
    error: str | None = None


@dataclass(frozen=True)
class TrustRequested:
    name: ClassVar[str] = "trust_request"
    turn: int
    call_id: str
    tool: str
    capability: str  # edit, scripts, commands
    detail: str
    decision: str  # granted / denied: reported once the broker (a stored grant, the UI prompt, or headless) answered


@dataclass(frozen=True)
class BudgetUpdate:
    name: ClassVar[str] = "budget"
    turns: int
    max_turns: int | None
    input_tokens: int
    output_tokens: int
    max_tokens: int | None
    tokens_estimated: bool
    cost_usd: float | None  # None: the price of this model is unknown (see cost_note)
    max_cost_usd: float | None
    cost_note: str | None
    elapsed_s: float
    timeout_s: float | None
    cache_read_tokens: int = 0  # of input_tokens, read from the provider's prompt cache (cheaper)
    cache_write_tokens: int = 0  # of input_tokens, written to it
    reasoning_tokens: int = 0  # of output_tokens, spent thinking (where the server reports it)


@dataclass(frozen=True)
class Finished:
    name: ClassVar[str] = "finished"
    reason: str  # done, max_turns, max_tokens, max_cost, timeout, killed, error
    session_id: str
    turns: int
    message: str = ""
    landed: tuple[dict[str, Any], ...] = ()  # every write/delete entry this run applied
    interrupted: dict[str, Any] | None = None  # the tool call in flight when killed, and what of it landed


@dataclass(frozen=True)
class ProviderWarning:
    """Something about the model call the person should know that did not end the turn: a malformed
    line skipped (reported once per turn), a retry after part of the turn had streamed (the turn's
    text so far is void: `kind` "retry"), a whole answer where a stream was asked for."""

    name: ClassVar[str] = "warning"
    turn: int
    kind: str  # malformed_line, retry, non_streamed, compaction_failed, run_store (a damaged run store set aside)
    message: str


@dataclass(frozen=True)
class Compacted:
    """The older transcript was replaced by a summary plus a block of facts built in code (what the
    model is sent from now on); the session file keeps the full history."""

    name: ClassVar[str] = "compacted"
    turn: int
    trigger: str  # "auto" (near the context limit), "overflow" (the server said the window is full), "request" (/compact)
    replaced_messages: int
    kept_messages: int
    chars_before: int
    chars_after: int
    files_read: int
    files_changed: int
    conflicts: int
    summary_chars: int


AgentEvent = SessionStarted | TurnStarted | TextDelta | ReasoningDelta | ToolStarted | ToolFinished | TrustRequested | BudgetUpdate | ProviderWarning | Compacted | Finished

FINISH_REASONS = ("done", "max_turns", "max_tokens", "max_cost", "timeout", "killed", "error")
MESSAGE_LIMIT = 2000  # characters of the model's final reply kept in `finished.message`


def finished_message(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """The model's final reply for `finished.message`: whole when it fits, else its beginning cut at
    a word boundary with a marker (the whole reply is in the text_delta events and the session)."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    cut = cut if cut > limit // 2 else limit
    rest = len(text) - cut
    return f"{text[:cut].rstrip()} […{rest} more characters in this turn's text_delta events and the session file]"


class Event(Protocol):
    """What a reporter takes: a frozen dataclass that names itself (the `event` key of its JSON
    line). The agent's own are `AgentEvent`; a blueprint run adds its own (blueprint/events.py),
    and the workbench its notices."""

    name: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, Any]]


def event_json(event: Event) -> dict[str, Any]:
    return {"event": event.name, **_plain(asdict(event))}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


class ProgressReporterPort(Protocol):
    """Receives the loop's events in order. Must return quickly: it is called on the loop's thread."""

    def report(self, event: Event) -> None: ...


@dataclass
class CollectingReporter:
    """Keeps every event (tests, and callers that read the run afterwards)."""

    events: list[Event] = field(default_factory=list)

    def report(self, event: Event) -> None:
        self.events.append(event)

    def of(self, kind: type) -> list[Any]:
        return [event for event in self.events if isinstance(event, kind)]
