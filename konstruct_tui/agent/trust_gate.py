"""The loop's side of trust: which grant a mutating tool call needs, and the gate that answers.

Capability words are DESIGN.md §7's (`edit`, `scripts`, `commands`). `SessionGate` answers from the
trust layer's `TrustSession`: a grant in force (the store's `always` grants, this session's grants)
lets the call through without a question; otherwise the session's `TrustBroker` is asked (the UI's
modal; headless `GrantForRun` for `--yes`, `DenyAll` without it) and its answer is kept at its scope.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Protocol

from ..trust import DenyAll, GrantForRun, TrustBroker, TrustDecision, TrustRequest, TrustSession, TrustStore


@dataclass(frozen=True)
class TrustQuestion:
    tool: str
    capability: str  # edit, scripts, commands
    detail: str  # what exactly would happen, for the person deciding
    paths: tuple[str, ...] = ()  # the files an edit touches
    call_id: str = ""


class TrustGate(Protocol):
    """`ask`: may this call go ahead (spending a `once` grant)? `obtain`: ask and keep the answer
    for a tool that spends grants itself. `grants` is what such a tool checks (`use(capability)`).
    A gate may also offer `denial_message(call_id)`: what the person said when denying that call
    (see SessionGate)."""

    @property
    def grants(self) -> object: ...

    async def ask(self, question: TrustQuestion) -> bool: ...

    async def obtain(self, question: TrustQuestion) -> bool: ...


class SessionGate:
    def __init__(self, session: TrustSession) -> None:
        self.session = session
        self.grants = session
        self._messages: dict[str, str] = {}  # call id -> what the person said when denying it

    def denial_message(self, call_id: str) -> str:
        """What the person said when denying the call (once; "" when they said nothing)."""
        return self._messages.pop(call_id, "")

    def _keep(self, question: TrustQuestion, decision: TrustDecision) -> None:
        if not decision.granted and decision.message.strip():
            self._messages[question.call_id] = decision.message.strip()

    async def obtain(self, question: TrustQuestion) -> bool:
        paths = question.paths if question.capability == "edit" else ()
        request = TrustRequest(question.capability, question.detail, paths)
        decision = await self.session.broker.request(request)
        self._keep(question, decision)
        return self.session.record(request, decision) is not None

    async def ask(self, question: TrustQuestion) -> bool:
        paths = question.paths if question.capability == "edit" else ()
        if paths and all(self.session.is_granted("edit", path) for path in paths):
            return all(self.session.use("edit", path) for path in paths)
        if not paths and self.session.use(question.capability):
            return True
        request = TrustRequest(question.capability, question.detail, paths)
        decision = await self.session.broker.request(request)
        self._keep(question, decision)
        if self.session.record(request, decision) is None:
            return False
        # A fresh grant covers this whole call; spend it once (a `once` grant is one call, not one file).
        self.session.use(question.capability, paths[0] if paths else None)
        return True


def headless_gate(root: str | os.PathLike[str], *, grant: bool, store: TrustStore | None = None) -> SessionGate:
    """`konstruct run`: stored `always` grants apply; anything else is granted for this run only
    with `--yes` (nothing stored) and denied without it."""
    broker: TrustBroker = GrantForRun() if grant else DenyAll()
    return SessionGate(TrustSession(root, store, broker))


def question_for(tool: str, arguments: dict[str, Any], call_id: str) -> TrustQuestion:
    if tool == "run_command":
        if arguments.get("script"):
            return TrustQuestion(tool, "scripts", f"run the project script {arguments['script']!r}", (), call_id)
        return TrustQuestion(tool, "commands", f"run the command {str(arguments.get('command', ''))!r}", (), call_id)
    paths = edited_paths(arguments)
    shown = ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")
    verb = "delete" if tool == "delete_code" else "change"
    return TrustQuestion(tool, "edit", f"{verb} {shown or 'files'}", tuple(paths), call_id)


def edited_paths(arguments: dict[str, Any]) -> list[str]:
    """The paths a write_code or delete_code call names (what an `edit` grant is asked for)."""
    entries = arguments.get("edits") or arguments.get("paths") or []
    paths = []
    for entry in entries if isinstance(entries, list) else []:
        path = entry.get("path") if isinstance(entry, dict) else entry
        if isinstance(path, str):
            paths.append(path)
    return paths
