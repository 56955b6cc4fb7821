"""The workbench's `TrustBroker`: asks the person with the trust modal and waits for the answer.

Called on the loop's thread (its own asyncio loop in a worker thread). The modal is pushed onto the
app's thread and answered there; the answer crosses back through a thread-safe future, so the loop's
event loop stays free while the person reads (and a kill can still reach it). Grants are recorded by
the trust layer's `TrustSession` (the `always` ones in the trust store), never here.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable
from typing import Any

from textual.app import App

from ..agent.events import ToolStarted
from ..agent.trust_gate import TrustQuestion
from ..trust import TrustDecision, TrustRequest
from ..workspace import Workspace
from .trust_preview import TrustPreview, build_preview
from .trust_prompt import DENY, TrustAnswer, TrustPrompt


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


class ModalTrustBroker:
    def __init__(self, app: App[Any], workspace: Workspace | None, ledger: CallLedger, syntax_theme: Callable[[], str]) -> None:
        self._app = app
        self._workspace = workspace
        self._ledger = ledger
        self._syntax_theme = syntax_theme
        self._question: TrustQuestion | None = None

    def about(self, question: TrustQuestion) -> None:
        """The gate tells the broker which call the next request is for (see PreviewingGate)."""
        self._question = question

    async def request(self, request: TrustRequest) -> TrustDecision:
        question = self._question
        tool = question.tool if question else "?"
        arguments = self._ledger.arguments(question.call_id) if question and question.call_id else None
        preview = await asyncio.to_thread(build_preview, self._workspace, tool, request.capability, request.detail, arguments)
        answer = await self.ask(preview)
        if not answer.granted:
            return TrustDecision.deny()
        # A grant from the prompt covers the whole project for its capability; narrower path globs
        # can be granted from `konstruct trust` (the prompt keeps to four plain answers).
        return TrustDecision(True, answer.scope, ())

    async def ask(self, preview: TrustPreview) -> TrustAnswer:
        answered: concurrent.futures.Future[TrustAnswer] = concurrent.futures.Future()

        def settle(answer: TrustAnswer | None) -> None:
            if not answered.done():
                answered.set_result(answer or DENY)

        screen = TrustPrompt(preview, self._syntax_theme())
        try:
            self._app.call_from_thread(self._app.push_screen, screen, settle)
        except RuntimeError:
            if not self._app.is_running:  # the app is closing: nobody is there to say yes
                return DENY
            self._app.push_screen(screen, settle)  # already on the app's own thread
        return await asyncio.wrap_future(answered)


class PreviewingGate:
    """Wraps the loop's trust gate so the broker knows which call it is asked about."""

    def __init__(self, inner: Any, broker: ModalTrustBroker) -> None:
        self._inner = inner
        self._broker = broker

    async def ask(self, question: TrustQuestion) -> bool:
        self._broker.about(question)
        return bool(await self._inner.ask(question))
