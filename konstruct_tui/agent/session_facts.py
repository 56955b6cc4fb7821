"""The facts of a session that compaction must not lose, built in plain code from the transcript's
tool results and from the disk, never from what the model remembers.

A summary written by a model can get a revision wrong, forget a conflict, or drop the request's
exact words; this block cannot. It lists the request (and follow-ups) verbatim, every file read with
the latest revision the model saw, every file changed with its status, the current revision of each
on disk now, open conflicts, and what is outstanding. It is rendered twice in the compaction message:
as text for the model, and as one JSON line that the next compaction reads back, so facts carry
across any number of compactions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..workspace import NotAFile, PathMissing, PathRefused, Workspace
from .ports import AssistantMessage, Message, ToolResultMessage, UserMessage

FACTS_TAG = "session-facts"
COMPACTION_MARK = "[compacted: "  # how every compaction message starts (agent/compaction.py)
_FACTS_JSON = re.compile(rf"<{FACTS_TAG}>(.*?)</{FACTS_TAG}>", re.DOTALL)
CHANGED = frozenset({"written", "created", "deleted"})
NOT_APPLIED = frozenset({"rejected", "rolled_back", "refused", "not_found", "skipped", "too_large"})
UNREADABLE = "missing"


@dataclass
class SessionFacts:
    request: str = ""
    follow_ups: list[str] = field(default_factory=list)
    read: dict[str, str] = field(default_factory=dict)  # path -> latest revision the model was shown
    changed: dict[str, dict[str, str]] = field(default_factory=dict)  # path -> {"status", "revision"}
    conflicts: dict[str, str] = field(default_factory=dict)  # path -> reason, while unresolved
    outstanding: dict[str, str] = field(default_factory=dict)  # key -> what is still open
    current: dict[str, str] = field(default_factory=dict)  # path -> revision on disk at compaction

    def to_json(self) -> dict[str, Any]:
        return {
            "request": self.request, "follow_ups": self.follow_ups, "read": self.read, "changed": self.changed,
            "conflicts": self.conflicts, "outstanding": self.outstanding, "current": self.current,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SessionFacts:
        def table(key: str) -> dict[str, Any]:
            value = data.get(key)
            return dict(value) if isinstance(value, dict) else {}

        follow_ups = data.get("follow_ups")
        return cls(str(data.get("request") or ""), [str(f) for f in follow_ups] if isinstance(follow_ups, list) else [],
                   table("read"), table("changed"), table("conflicts"), table("outstanding"), table("current"))

    def render(self) -> str:
        """The block the model reads; the JSON copy at its end is for the next compaction."""
        lines = ["Facts built by konstruct from the tool results and the disk (exact: where the summary disagrees, these are right).",
                 "", "Original request (verbatim):", self.request or "(none recorded)"]
        if self.follow_ups:
            lines += ["", "Follow-up requests (verbatim, in order):", *[f"- {text}" for text in self.follow_ups]]
        lines += ["", "Files read (latest revision you were shown; current revision on disk now):"]
        lines += [f"- {path}: read at {revision}; {self._now(path, revision)}" for path, revision in sorted(self.read.items())] or ["- none"]
        lines += ["", "Files changed in this session (status; current revision on disk now):"]
        lines += [f"- {path}: {entry['status']}; {self._now(path, entry.get('revision', ''))}" for path, entry in sorted(self.changed.items())] or ["- none"]
        lines += ["", "Open conflicts (an edit was refused because the file had changed; not resolved since):"]
        lines += [f"- {path}: {reason}" for path, reason in sorted(self.conflicts.items())] or ["- none"]
        lines += ["", "Outstanding (failed or refused actions not redone since):"]
        lines += [f"- {text}" for text in self.outstanding.values()] or ["- none"]
        lines += ["", f"<{FACTS_TAG}>{json.dumps(self.to_json(), ensure_ascii=False, sort_keys=True)}</{FACTS_TAG}>"]
        return "\n".join(lines)

    def _now(self, path: str, seen: str) -> str:
        current = self.current.get(path)
        if current is None:
            return "not checked on disk"
        if current == UNREADABLE:
            return "now missing or unreadable on disk"
        if current == seen:
            return f"on disk now {current} (the same as you last saw)"
        return f"on disk now {current} (differs: read it again before editing it)"


def facts_of(transcript: Sequence[Message], workspace: Workspace | None) -> SessionFacts:
    """The facts of everything in `transcript`, with the current revision of every file named."""
    facts = SessionFacts()
    calls: dict[str, dict[str, Any]] = {}
    for message in transcript:
        if isinstance(message, UserMessage):
            _user(facts, message.text)
        elif isinstance(message, AssistantMessage):
            calls.update({c.id: c.arguments for c in message.tool_calls})
        elif isinstance(message, ToolResultMessage):
            _result(facts, message, calls.get(message.call_id, {}))
    if workspace is not None:
        for path in sorted(set(facts.read) | set(facts.changed)):
            facts.current[path] = current_revision(workspace, path)
    return facts


def current_revision(workspace: Workspace, path: str) -> str:
    try:
        return workspace.read(path).revision
    except (PathMissing, PathRefused, NotAFile, OSError):
        return UNREADABLE


def carried_facts(text: str) -> SessionFacts | None:
    """The facts an earlier compaction message carries, if `text` is one (a person's message that
    merely contains the tags is not: it does not start as compaction messages do)."""
    found = _FACTS_JSON.search(text) if text.startswith(COMPACTION_MARK) else None
    if not found:
        return None
    try:
        data = json.loads(found.group(1))
    except json.JSONDecodeError:
        return None
    return SessionFacts.from_json(data) if isinstance(data, dict) else None


def _user(facts: SessionFacts, text: str) -> None:
    earlier = carried_facts(text)
    if earlier is not None:  # an earlier compaction: its facts are the start of ours
        earlier.current = {}
        facts.__dict__.update(earlier.__dict__)
        return
    request = text.rsplit("Request:\n", 1)[1] if "Request:\n" in text else text  # the opening ends with it
    if not facts.request:
        facts.request = request.strip()
    elif request.strip() and request.strip() != "Continue.":
        facts.follow_ups.append(request.strip())


def _result(facts: SessionFacts, message: ToolResultMessage, arguments: dict[str, Any]) -> None:
    try:
        payload = json.loads(message.content)
    except json.JSONDecodeError:
        return
    if not isinstance(payload, dict):
        return
    key = f"{message.name}:{json.dumps(arguments, sort_keys=True)[:200]}"
    if message.is_error or "error" in payload and "results" not in payload:
        facts.outstanding[key] = f"{message.name} failed: {_short(payload.get('error', 'error'))}"
        return
    facts.outstanding.pop(key, None)  # the same call succeeded later
    for entry in payload.get("results") or ():
        if isinstance(entry, dict) and isinstance(entry.get("path"), str):
            _entry(facts, message.name, entry)


def _entry(facts: SessionFacts, tool: str, entry: dict[str, Any]) -> None:
    path, status = entry["path"], str(entry.get("status") or "")
    revision = str(entry["revision"]) if isinstance(entry.get("revision"), str) else ""
    if tool == "read_code" and status == "ok" and revision:
        facts.read[path] = revision
        facts.outstanding.pop(f"entry:{path}", None)
    elif status in CHANGED:
        facts.changed[path] = {"status": status, "revision": revision}
        if revision:
            facts.read[path] = revision  # the model built this content: it knows it at this revision
        elif status == "deleted":
            facts.read.pop(path, None)
        facts.conflicts.pop(path, None)
        facts.outstanding.pop(f"entry:{path}", None)
    elif status == "conflict":
        facts.conflicts[path] = _short(entry.get("reason") or "the file changed since the revision the edit was built on")
    elif status in NOT_APPLIED and tool in ("write_code", "delete_code"):
        facts.outstanding[f"entry:{path}"] = f"{tool} on {path}: {status}: {_short(entry.get('reason') or '')}".rstrip(": ")


def _short(value: object) -> str:
    """A reason on one line; a long one is cut at a word and says so (the full text is in the session)."""
    flat = " ".join(str(value).split())
    if len(flat) <= 300:
        return flat
    cut = flat.rfind(" ", 0, 300)
    return f"{flat[:cut if cut > 150 else 300]} […]"
