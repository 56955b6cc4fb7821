"""Sessions persist as they happen: one JSON object per line in `data_dir()/sessions/ID.jsonl`.

Lines: a `header` (id, workspace, provider, model, request), then each transcript `message` as soon
as it exists (the assistant turn when it is complete, each tool result when its tool returns), a
`budget` line after each turn, a `compacted` line where compaction replaced the older messages (they
stay in the file; `load` continues from the replacement), and a `finished` line at the end. A crash loses at most the turn in
flight. `load` rebuilds the transcript; a tool call whose result never got written (the process died
while it ran) is answered on resume with a note that its effect is unknown.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..userdirs import data_dir, private_dir, workspace_key
from .ports import AssistantMessage, Message, ReasoningPart, ToolCall, ToolResultMessage, UserMessage

_ID = re.compile(r"^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$")


class SessionMissing(LookupError):
    """No session with that id (or a malformed id)."""


def sessions_dir() -> Path:
    return data_dir() / "sessions"


def new_session_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + secrets.token_hex(3)


def message_json(message: Message) -> dict[str, Any]:
    if isinstance(message, UserMessage):
        return {"role": "user", "text": message.text}
    if isinstance(message, AssistantMessage):
        calls = [{"id": c.id, "name": c.name, "arguments": c.arguments, "problem": c.problem, **({"extra": c.extra} if c.extra else {})}
                 for c in message.tool_calls]
        entry: dict[str, Any] = {"role": "assistant", "text": message.text, "tool_calls": calls}
        if message.reasoning:  # kept with its turn: the provider may need it back on the next call
            entry["reasoning"] = [{"provider": r.provider, "text": r.text, "data": r.data} for r in message.reasoning]
        return entry
    return {"role": "tool", "call_id": message.call_id, "name": message.name, "content": message.content, "is_error": message.is_error}


def message_from_json(data: dict[str, Any]) -> Message:
    role = data.get("role")
    if role == "user":
        return UserMessage(str(data["text"]))
    if role == "assistant":
        calls = tuple(ToolCall(c["id"], c["name"], c.get("arguments") or {}, c.get("problem"), c.get("extra") or None)
                      for c in data.get("tool_calls") or ())
        reasoning = tuple(ReasoningPart(str(r.get("provider") or ""), str(r.get("text") or ""), dict(r.get("data") or {}))
                          for r in data.get("reasoning") or () if isinstance(r, dict))
        return AssistantMessage(str(data.get("text") or ""), calls, reasoning)
    return ToolResultMessage(str(data["call_id"]), str(data["name"]), str(data["content"]), bool(data.get("is_error")))


@dataclass
class SessionRecord:
    """What `load` found: the header, the transcript, and the budget used so far."""

    session_id: str
    header: dict[str, Any]
    transcript: list[Message] = field(default_factory=list)  # what a resumed run continues from (compacted)
    budget: dict[str, Any] = field(default_factory=dict)
    history: list[Message] = field(default_factory=list)  # every message, compaction or not (for showing)


class SessionLog:
    """Appends a session's lines; each line is flushed and fsynced before the run goes on."""

    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self.path = private_dir(sessions_dir()) / f"{session_id}.jsonl"

    def append(self, kind: str, **fields: Any) -> None:
        line = json.dumps({"kind": kind, "at": round(time.time(), 3), **fields}, ensure_ascii=False)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, (line + "\n").encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)

    def start(self, root: Path, provider: str, model: str, request: str, **extra: Any) -> None:
        self.append("header", session_id=self.session_id, workspace=workspace_key(root), root=str(root), provider=provider, model=model, request=request, **extra)

    def message(self, message: Message) -> None:
        self.append("message", message=message_json(message))


def load(session_id: str) -> SessionRecord:
    if not _ID.match(session_id):
        raise SessionMissing(f"{session_id!r} is not a session id (they look like 20260101-120000-a1b2c3)")
    path = sessions_dir() / f"{session_id}.jsonl"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise SessionMissing(f"no session {session_id!r} in the sessions folder") from None
    record = SessionRecord(session_id, {})
    for line in lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line torn by a crash mid-write: everything before it still counts
        kind = entry.get("kind")
        if kind == "header" and not record.header:
            record.header = entry
        elif kind == "message":
            record.transcript.append(message_from_json(entry["message"]))
            record.history.append(record.transcript[-1])
        elif kind == "budget":
            record.budget = entry
        elif kind == "compacted" and isinstance(entry.get("replaced"), int) and isinstance(entry.get("message"), dict):
            # The messages before it stay in the file (the full history); a resumed run continues
            # from the compaction message and what followed it, as the run itself did.
            record.transcript = [message_from_json(entry["message"]), *record.transcript[entry["replaced"]:]]
    if not record.header:
        raise SessionMissing(f"session {session_id!r} has no header line")
    record.transcript = _answer_orphans(record.transcript)
    record.history = _answer_orphans(record.history)
    return record


def _answer_orphans(transcript: list[Message]) -> list[Message]:
    """Every tool call gets its result right after its turn, in call order; a call whose result is
    missing was running when the process died, and says so."""
    results = {m.call_id: m for m in transcript if isinstance(m, ToolResultMessage)}
    ordered: list[Message] = []
    for message in transcript:
        if isinstance(message, ToolResultMessage):
            continue
        ordered.append(message)
        if isinstance(message, AssistantMessage):
            for call in message.tool_calls:
                ordered.append(results.get(call.id) or ToolResultMessage(call.id, call.name, _INTERRUPTED, True))
    return ordered


_INTERRUPTED = json.dumps(
    {"error": "interrupted: the session stopped while this call ran; its effect is unknown. Re-read the files before changing them."}
)
