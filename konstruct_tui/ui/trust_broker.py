"""Putting a trust question to the person: the trust modal, awaited with `push_screen_wait` inside a
worker on the app's own loop.

`ask` is called on the loop's thread (its own asyncio loop in a worker thread). It starts the
prompting worker on the app's thread and waits on a thread-safe future, so the loop's event loop
stays free while the person reads (and a kill can still reach it). What the prompt shows and what
the answer grants are the application layer's (`app.trust`); this module only asks.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import Any

from textual.app import App

from ..app import DENY, TrustAnswer, TrustPreview
from .trust_prompt import TrustPrompt


class ModalTrustBroker:
    def __init__(self, app: App[Any], syntax_theme: Callable[[], str]) -> None:
        self._app = app
        self._syntax_theme = syntax_theme

    async def ask(self, preview: TrustPreview) -> TrustAnswer:
        answered: concurrent.futures.Future[TrustAnswer] = concurrent.futures.Future()

        async def prompt() -> None:
            answer: TrustAnswer | None = None
            try:
                answer = await self._app.push_screen_wait(TrustPrompt(preview, self._syntax_theme()))
            finally:  # cancelled (the app is closing): nobody said yes
                if not answered.done():
                    answered.set_result(answer or DENY)

        def start() -> None:
            self._app.run_worker(prompt(), name="trust prompt", group="trust", exit_on_error=False)

        try:
            self._app.call_from_thread(start)
        except RuntimeError:
            if not self._app.is_running:  # the app is closing: nobody is there to say yes
                return DENY
            start()  # already on the app's own thread
        return await asyncio.wrap_future(answered)
