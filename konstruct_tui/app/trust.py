"""The workbench's trust questions: which call a question is about, what the person is shown (the
preview), and the grant their answer becomes. The UI only shows the prompt and returns the answer.

The loop asks its gate; `PreviewingGate` tells `PreviewingBroker` which call the coming question is
for; the trust layer's `TrustSession` then asks the broker, which builds the preview (on the loop's
thread) and awaits the person's answer through the UI's `ask`. Grants are recorded by
`TrustSession` (the `always` ones in the trust store), never here.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ..agent import SessionGate, ToolStarted, TrustQuestion
from ..trust import BadGrant, CommandRule, TrustDecision, TrustRequest, TrustSession, TrustStore
from ..workspace import Workspace
from .grant_choices import file_globs
from .trust_preview import TrustPreview, build_preview

MAX_MESSAGE_CHARS = 4000  # a denial's message is read by the model: a note, not a document


@dataclass(frozen=True)
class TrustAnswer:
    """The person's answer in the prompt. Granted, it may be narrowed: `paths` (edit) are the files
    asked (each covers itself) or globs; `command` (commands) is `("exact", argv)` or
    `("prefix", words)`; for a chain, `chain` is this exact chain (its steps) and `rules` a rule
    for each step that needs a grant (kept as one grant each); none of them means the whole
    capability. Denied, it may carry a `message` the agent receives as the call's result."""

    granted: bool
    scope: str | None = None  # once, session, always (trust.SCOPES)
    paths: tuple[str, ...] = ()
    command: tuple[str, tuple[str, ...]] | None = None
    message: str = ""
    chain: tuple[tuple[str | None, tuple[str, ...]], ...] = ()
    rules: tuple[tuple[str, ...], ...] = ()


DENY = TrustAnswer(False)
AskPerson = Callable[[TrustPreview], Awaitable[TrustAnswer]]


class CallLedger:
    """The arguments of the tool calls reported so far, by call id: the trust question names its
    call, and the prompt needs that call's edits to preview the diff."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._arguments: dict[str, dict[str, Any]] = {}

    def note(self, event: object) -> None:
        if isinstance(event, ToolStarted):
            with self._lock:
                self._arguments[event.call_id] = event.arguments

    def arguments(self, call_id: str) -> dict[str, Any] | None:
        with self._lock:
            return self._arguments.get(call_id)


class PreviewingBroker:
    """A `TrustBroker` that shows the person a preview of the call and keeps their answer's scope."""

    def __init__(self, workspace: Workspace | None, ledger: CallLedger, ask: AskPerson) -> None:
        self._workspace = workspace
        self._ledger = ledger
        self._ask = ask
        self._question: TrustQuestion | None = None

    def about(self, question: TrustQuestion) -> None:
        """The gate says which call the next request is for (see PreviewingGate)."""
        self._question = question

    async def request(self, request: TrustRequest) -> TrustDecision:
        question = self._question
        tool = question.tool if question else "?"
        arguments = self._ledger.arguments(question.call_id) if question and question.call_id else None
        preview = await asyncio.to_thread(build_preview, self._workspace, tool, request.capability, request.detail, arguments)
        answer = await self._ask(preview)
        if not answer.granted:
            return TrustDecision.deny(answer.message[:MAX_MESSAGE_CHARS])
        return self._decision(request, answer)

    def _decision(self, request: TrustRequest, answer: TrustAnswer) -> TrustDecision:
        """The grant the answer names, as the trust layer keeps it. An answer that cannot be a grant
        (a rule with no words) is a denial, never a wider grant."""
        paths: tuple[str, ...] = ()
        if request.capability == "edit" and answer.paths:
            if answer.paths == request.paths:  # "these files": each exactly itself, as resolved
                paths = file_globs(self._workspace.root, answer.paths) if self._workspace else ()
                if not paths:
                    return TrustDecision.deny()
            else:  # a glob the prompt checked
                paths = answer.paths
        commands = request.capability == "commands"
        try:
            command = CommandRule(*answer.command) if answer.command and commands else None
            if answer.chain and commands:
                command = CommandRule("chain", (), answer.chain)
            rules = tuple(CommandRule("prefix", words) for words in answer.rules) if commands else ()
        except BadGrant:
            return TrustDecision.deny()
        return TrustDecision(True, answer.scope, paths, command, rules=rules)


class PreviewingGate:
    """Wraps the loop's trust gate so the broker knows which call it is asked about."""

    def __init__(self, inner: SessionGate, broker: PreviewingBroker) -> None:
        self._inner = inner
        self._broker = broker
        self.grants = inner.grants

    async def ask(self, question: TrustQuestion) -> bool:
        self._broker.about(question)
        return await self._inner.ask(question)

    async def obtain(self, question: TrustQuestion) -> bool:
        self._broker.about(question)
        return await self._inner.obtain(question)

    def denial_message(self, call_id: str) -> str:
        return self._inner.denial_message(call_id)


def workbench_gate(root: Any, broker: PreviewingBroker) -> PreviewingGate:
    """A fresh gate: session grants live as long as it; `always` grants come from the trust store."""
    return PreviewingGate(SessionGate(TrustSession(root, TrustStore(), broker)), broker)
