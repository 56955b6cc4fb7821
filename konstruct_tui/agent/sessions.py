"""Sessions persist as they happen: one JSON object per line in `data_dir()/sessions/ID.jsonl`.

Lines: a `header` (id, workspace, provider, model, request), then each transcript `message` as soon
as it exists (the assistant turn when it is complete, each tool result when its tool returns), a
`budget` line after each turn, a `compacted` line where compaction replaced the older messages (they
stay in the file; `load` continues from the replacement), and a `finished` line at the end. A crash loses at most the turn in
flight. `load` rebuilds the transcript; a tool call whose result never got written (the process died
while it ran) is answered on resume with a note that its effect is unknown.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..userdirs import StoreProblem, data_dir, private_dir, workspace_key
from .ports import AssistantMessage, Message, ReasoningPart, ToolCall, ToolResultMessage, UserMessage

_ID = re.compile(r"^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$")


class SessionMissing(LookupError):
    """No session with that id (or a malformed id)."""


class SessionDamaged(SessionMissing):
    """The session file is there but cannot be resumed (unreadable, no header): one line naming it."""


class SessionBusy(StoreProblem):
    """Another process is continuing the session."""


class SessionRepaired(UserWarning):
    """A session file's last line was torn by a crash and was cut off before appending."""


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
    skipped: int = 0  # lines that could not be read (a crash's torn last line, or damage): left out


class SessionLog:
    """Appends a session's lines; each line is flushed and fsynced before the run goes on."""

    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self.path = private_dir(sessions_dir()) / f"{session_id}.jsonl"
        self._checked = False

    def append(self, kind: str, **fields: Any) -> None:
        line = json.dumps({"kind": kind, "at": round(time.time(), 3), **fields}, ensure_ascii=False)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                if not self._checked:
                    self._checked = True
                    _cut_torn_tail(fd, self.path)
                os.write(fd, (line + "\n").encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as error:
            raise StoreProblem(f"cannot write the session file {self.path} ({error.strerror or error}): make it and its folder "
                               "writable (or free some space); what the session said before is kept there") from None

    def start(self, root: Path, provider: str, model: str, request: str, **extra: Any) -> None:
        self.append("header", session_id=self.session_id, workspace=workspace_key(root), root=str(root), provider=provider, model=model, request=request, **extra)

    def message(self, message: Message) -> None:
        self.append("message", message=message_json(message))


@contextlib.contextmanager
def session_held(session_id: str) -> Iterator[None]:
    """One process continues a session at a time: a second `konstruct run --resume` of it is
    refused with the holder's pid, rather than both appending and interleaving their messages."""
    path = sessions_dir() / f"{session_id}.lock"
    try:
        handle = open(path, "a+")  # "a+": opening must not wipe the holder's pid before the lock is ours
    except OSError as error:
        raise StoreProblem(f"cannot lock the session {session_id} ({path}: {error.strerror or error}): make the "
                           "sessions folder writable and resume again (nothing was changed)") from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            pid = handle.read().strip()
            raise SessionBusy(f"session {session_id} is being continued by another konstruct "
                              f"({'pid ' + pid if pid.isdigit() else 'another process'}); wait for it to finish "
                              "or stop it, then resume again") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        yield
    finally:
        handle.close()  # the kernel drops the lock, after a SIGKILL too


def _cut_torn_tail(fd: int, path: Path) -> None:
    """A crash mid-write can leave the last line without its newline; appended to as it is, the
    next line would be glued to it and both lost on resume. Cut the torn piece off, keep every
    whole line before it, and say so."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return
    start = max(0, size - (1 << 20))
    tail = os.pread(fd, size - start, start)
    cut = start + tail.rfind(b"\n") + 1 if b"\n" in tail else 0
    if cut == 0 and start > 0:
        return  # a last "line" of over a megabyte: not a torn tail of ours; leave the file alone
    os.ftruncate(fd, cut)
    os.fsync(fd)
    warnings.warn(f"the session file {path} ended in a line torn by a crash ({size - cut} bytes); it was cut off and every "
                  "line before it kept", SessionRepaired, stacklevel=4)


def load(session_id: str) -> SessionRecord:
    if not _ID.match(session_id):
        raise SessionMissing(f"{session_id!r} is not a session id (they look like 20260101-120000-a1b2c3)")
    path = sessions_dir() / f"{session_id}.jsonl"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SessionMissing(f"no session {session_id!r} in the sessions folder") from None
    except OSError as error:
        raise SessionDamaged(f"the session file {path} cannot be read ({error.strerror or error}): fix its permissions "
                             "to resume it, or start a new session (nothing was changed)") from None
    record = SessionRecord(session_id, {})
    for line in data.splitlines():
        try:
            entry = json.loads(line.decode("utf-8"))
            if isinstance(entry, dict):
                _take(record, entry)
                continue
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            pass
        record.skipped += 1  # a line torn by a crash mid-write (or damaged): every other line still counts
    if not record.header:
        raise SessionDamaged(f"the session file {path} has no readable header line (it is damaged or not a session): it "
                             "cannot be resumed; start a new session (the file was left as it is)")
    record.transcript = _answer_orphans(record.transcript)
    record.history = _answer_orphans(record.history)
    return record


def _take(record: SessionRecord, entry: dict[str, Any]) -> None:
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
