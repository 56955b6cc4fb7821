"""Compaction: the older part of a long transcript is replaced by a summary the model writes PLUS a
block of facts built in plain code (`session_facts.py`) that the summary cannot get wrong.

Two ways in:
- near the context limit, before a model turn (`compact_near_limit`, called by the loop): this
  replaces the plain trim of `context_window.fit` whenever the model can be asked for a summary;
  if that call fails the trim still keeps the turn sendable, and a `warning` event says so;
- on demand (`/compact` in the workbench): `compact_session(session_id, model, workspace)`.

What the model is sent afterwards: one user message (a header saying how much was replaced, the
summary, the facts) followed by the most recent messages unchanged. The session file keeps the full
history; a `compacted` line records the replacement so a resumed session continues from it, and a
`compacted` event tells the person where it happened.
"""

from __future__ import annotations

import contextlib
import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from ..workspace import Workspace
from .context_window import fit, size_of
from .events import Compacted, ProgressReporterPort, ProviderWarning
from .ports import (
    AssistantMessage,
    Message,
    ModelCallPort,
    Notice,
    Restart,
    TextChunk,
    ToolResultMessage,
    Usage,
    UsageChunk,
    UserMessage,
)
from .session_facts import SessionFacts, facts_of
from .sessions import SessionLog, message_json
from .sessions import load as load_session

NEAR_LIMIT = 0.85  # compact when the transcript reaches this share of the context budget
KEEP_SHARE = 0.25  # ... and keep about this share of it verbatim (the most recent messages)
ON_REQUEST_KEEP_CHARS = 12_000  # what `/compact` keeps verbatim
RETRY_GROWTH = 0.25  # after a failed summary, ask again only once the transcript grew by this share
HEADER = re.compile(r"^\[compacted: (\d+) earlier messages, (\d+) model turns")

SUMMARY_SYSTEM = """\
You are summarising the earlier part of a coding session so that the work can continue without it.
Write a compact, factual summary for yourself: what the person asked for, what you found out about the
code (files, functions, causes), what you changed and why, what you tried that failed, decisions made,
and what remains to be done next. Do not call tools. Do not invent file revisions: a block of exact
facts (files and revisions, conflicts, outstanding items) is attached separately by the tool."""
SUMMARY_REQUEST = "Summarise the session so far as instructed, in at most about 400 words."


class NothingToCompact(ValueError):
    """The transcript is too short to have an older part to replace."""


@dataclass(frozen=True)
class CompactionResult:
    transcript: list[Message]  # what the model is sent from now on
    summary: str  # what the model wrote
    facts: SessionFacts  # what code built
    replaced: int  # messages of the old transcript replaced by the compaction message
    kept: int  # messages kept verbatim after it
    chars_before: int
    chars_after: int
    usage: Usage  # what the summary call cost

    @property
    def message(self) -> UserMessage:
        first = self.transcript[0]
        assert isinstance(first, UserMessage)
        return first

    def event(self, turn: int, trigger: str) -> Compacted:
        return Compacted(turn, trigger, self.replaced, self.kept, self.chars_before, self.chars_after, len(self.facts.read),
                         len(self.facts.changed), len(self.facts.conflicts), len(self.summary))


def chars_of(transcript: Sequence[Message]) -> int:
    return sum(size_of(m) for m in transcript)


def model_turns(transcript: Sequence[Message]) -> int:
    """Model turns so far, those folded into compaction messages included (the scripted provider
    and turn numbering count them)."""
    folded = 0
    for message in transcript:
        if isinstance(message, UserMessage):
            header = HEADER.match(message.text)
            folded += int(header.group(2)) if header else 0
    return folded + sum(isinstance(m, AssistantMessage) for m in transcript)


def split_point(transcript: Sequence[Message], keep_chars: int) -> int:
    """Where the kept tail starts: at a user or assistant message (never between a tool call and its
    result), holding at most about `keep_chars`, and always the latest turn."""
    starts = [i for i in range(1, len(transcript)) if not isinstance(transcript[i], ToolResultMessage)]
    split = starts[-1] if starts else len(transcript)
    kept = chars_of(transcript[split:])
    for index, nxt in zip(reversed(starts[:-1]), reversed(starts[1:])):
        kept += chars_of(transcript[index:nxt])
        if kept > keep_chars:
            break
        split = index
    older = transcript[:split]
    fresh = [m for m in older if not (isinstance(m, UserMessage) and HEADER.match(m.text))]
    if len(older) < 2 or not fresh:
        raise NothingToCompact(f"nothing to compact: the conversation has {len(transcript)} messages and the older part is already a summary or too short")
    return split


async def compact(transcript: Sequence[Message], model: ModelCallPort, workspace: Workspace | None = None, *,
                  keep_chars: int = ON_REQUEST_KEEP_CHARS, budget_chars: int | None = None) -> CompactionResult:
    """Replace the older part of `transcript` by the model's summary plus the code-built facts.
    Raises NothingToCompact, or the provider's error when the summary call fails (nothing changes)."""
    split = split_point(transcript, keep_chars)
    older, recent = list(transcript[:split]), list(transcript[split:])
    summary, usage = await _summary(model, older, budget_chars)
    facts = facts_of(older + recent, workspace)
    turns = model_turns(older)
    header = (f"[compacted: {len(older)} earlier messages, {turns} model turns, replaced by this summary; "
              "the session file keeps them]")
    message = UserMessage(f"{header}\n\nSummary of the session so far (written by the model):\n{summary.strip() or '(empty)'}\n\n{facts.render()}")
    compacted: list[Message] = [message, *recent]
    return CompactionResult(compacted, summary.strip(), facts, len(older), len(recent), chars_of(transcript), chars_of(compacted), usage)


async def _summary(model: ModelCallPort, older: list[Message], budget_chars: int | None) -> tuple[str, Usage]:
    sent = fit(older, budget_chars) if budget_chars else older
    text: list[str] = []
    usage = Usage()
    stream = model.stream_turn(SUMMARY_SYSTEM, [*sent, UserMessage(SUMMARY_REQUEST)], ())
    async with contextlib.aclosing(stream):  # type: ignore[type-var]
        async for item in stream:
            if isinstance(item, TextChunk):
                text.append(item.text)
            elif isinstance(item, Restart):
                text.clear()
            elif isinstance(item, UsageChunk):
                usage = usage + item.usage
            elif isinstance(item, Notice):
                pass  # a skipped line or a retry while summarising: the summary is still usable
    return "".join(text), usage


def record(session: SessionLog | None, result: CompactionResult, trigger: str) -> None:
    """The session file keeps every message; this line says which of them the compaction message
    replaces from here on, so a resumed session continues compacted (see sessions.load). A blueprint
    session has no session file (its run store keeps its calls): nothing to write."""
    if session is None:
        return
    session.append("compacted", trigger=trigger, replaced=result.replaced, kept=result.kept, message=message_json(result.message),
                   summary=result.summary, chars_before=result.chars_before, chars_after=result.chars_after)


async def compact_session(session_id: str, model: ModelCallPort, workspace: Workspace | None = None, *,
                          keep_chars: int = ON_REQUEST_KEEP_CHARS) -> CompactionResult:
    """`/compact`: compact a stored session now; its next run (a resume) starts from the result."""
    stored = load_session(session_id)
    result = await compact(stored.transcript, model, workspace, keep_chars=keep_chars)
    record(SessionLog(session_id), result, "request")
    return result


# Per model port, the transcript size at which its summary call last failed (weak: a port that is
# gone takes its entry with it).
_failed_at: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()


async def compact_near_limit(transcript: list[Message], model: ModelCallPort, workspace: Workspace, budget_chars: int,
                             session: SessionLog | None, reporter: ProgressReporterPort, turn: int) -> Usage | None:
    """Before a model turn: when the transcript nears the context budget, compact it in place.
    Returns what the summary call cost (None when nothing was spent). A failed summary leaves the
    transcript as it was (the loop's trim still applies) and says so in a `warning` event."""
    size = chars_of(transcript)
    if size < NEAR_LIMIT * budget_chars or size < _failed_at.get(model, 0) + RETRY_GROWTH * budget_chars:
        return None
    try:
        result = await compact(transcript, model, workspace, keep_chars=int(budget_chars * KEEP_SHARE), budget_chars=budget_chars)
    except NothingToCompact:
        return None
    except Exception as error:  # noqa: BLE001 - ProviderError or an unreadable answer: fall back to the trim
        _failed_at[model] = size  # not again every turn: a server that refused once likely refuses again
        reporter.report(ProviderWarning(turn, "compaction_failed", f"compaction failed, older tool results are trimmed instead: {error}"))
        return getattr(error, "usage", None)
    transcript[:] = result.transcript
    record(session, result, "auto")
    reporter.report(result.event(turn, "auto"))
    return result.usage


async def compact_after_overflow(error: BaseException, transcript: list[Message], model: ModelCallPort, workspace: Workspace,
                                 session: SessionLog | None, reporter: ProgressReporterPort, turn: int) -> Usage | None:
    """The server refused the turn because the conversation no longer fits the model's window
    (`error.window_full`, set by the providers) and nothing of it had streamed: compact whatever
    the transcript holds now, keeping a quarter of it, and return what that cost so the loop asks
    once more. None when this error is something else or nothing could be compacted."""
    if not getattr(error, "window_full", False) or getattr(error, "usage", None) is not None:
        return None  # another failure, or the turn had begun: never a silent second ask
    size = chars_of(transcript)
    try:
        result = await compact(transcript, model, workspace, keep_chars=int(size * KEEP_SHARE), budget_chars=int(size * 0.5))
    except NothingToCompact:
        return None
    except Exception as failure:  # noqa: BLE001 - the summary call hit the same wall: report the first error
        reporter.report(ProviderWarning(turn, "compaction_failed", f"compaction after a full context window failed: {failure}"))
        return None
    transcript[:] = result.transcript
    record(session, result, "overflow")
    reporter.report(result.event(turn, "overflow"))
    return result.usage
