"""The sessions of this workspace, newest first, for the sessions screen, and a stored session
replayed as events for the panes. Plain Python, run on a worker thread. Reads only the session
logs' own lines (agent/sessions.py writes them); a torn or foreign line is skipped, never an error."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..agent import (
    AgentEvent,
    AssistantMessage,
    SessionRecord,
    TextDelta,
    ToolFinished,
    ToolResultMessage,
    ToolStarted,
    UserMessage,
    sessions_dir,
)
from ..userdirs import workspace_key

MAX_LISTED = 50


@dataclass(frozen=True)
class SessionSummary:
    session_id: str
    request: str
    provider: str
    model: str
    finished: str | None  # the last run's finish reason; None: it never finished (crash, or running)


def list_sessions(root: Path, folder: Path | None = None) -> list[SessionSummary]:
    folder = folder or sessions_dir()
    key = workspace_key(root)
    found: list[SessionSummary] = []
    try:
        paths = sorted(folder.glob("*.jsonl"), reverse=True)  # ids start with a UTC timestamp
    except OSError:
        return []
    for path in paths:
        summary = _summary(path, key)
        if summary is not None:
            found.append(summary)
        if len(found) >= MAX_LISTED:
            break
    return found


def _summary(path: Path, key: str) -> SessionSummary | None:
    header: dict | None = None
    finished: str | None = None
    try:
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if entry.get("kind") == "header" and header is None:
                    header = entry
                    if header.get("workspace") != key:
                        return None
                elif entry.get("kind") == "finished":
                    finished = str(entry.get("reason"))
                elif entry.get("kind") == "resumed":
                    finished = None
    except (OSError, UnicodeDecodeError):
        return None
    if header is None:
        return None
    return SessionSummary(
        str(header.get("session_id", path.stem)),
        str(header.get("request") or ""),
        str(header.get("provider", "")),
        str(header.get("model", "")),
        finished,
    )


Replayed = list[tuple[str | None, AgentEvent | None]]


def replay_events(record: SessionRecord) -> Replayed:
    """A stored session as what the panes show: (request text, None) for each request the person
    made, (None, event) for the assistant's text and each tool call with its result."""
    messages = record.history or record.transcript  # the whole story, also where it was compacted
    results = {m.call_id: m for m in messages if isinstance(m, ToolResultMessage)}
    shown: list[tuple[str | None, AgentEvent | None]] = []
    turn = 0
    for message in messages:
        if isinstance(message, UserMessage):
            text = message.text
            if turn == 0 and _REQUEST_MARK in text:  # the opening wraps the request in context
                text = text.rsplit(_REQUEST_MARK, 1)[1]
            shown.append((text.strip(), None))
        elif isinstance(message, AssistantMessage):
            turn += 1
            if message.text:
                shown.append((None, TextDelta(turn, message.text)))
            for call in message.tool_calls:
                shown.append((None, ToolStarted(turn, call.id, call.name, call.arguments)))
                result = results.get(call.id)
                if result is None:
                    continue
                try:
                    payload = json.loads(result.content)
                except json.JSONDecodeError:
                    payload = {"error": result.content}
                payload = payload if isinstance(payload, dict) else {"result": payload}
                entries = [e for e in payload.get("results", []) if isinstance(e, dict)]
                statuses = tuple(str(e.get("status", "")) for e in entries)
                error = str(payload.get("error")) if result.is_error else None
                shown.append((None, ToolFinished(turn, call.id, call.name, not result.is_error, payload, statuses, error)))
    return shown


_REQUEST_MARK = "Request:\n"
