"""The core behind the workbench's screen, loaded after the first frame.

The agent loop, the tools, the graph and the trust broker take about a second to import on a cold
start; the person sees the screen first (issue #27: first paint within a second). `LazyCore` loads
them once, right after the first frame (`Workbench._start_core`) or sooner when something needs
them, and hands them out as properties. A mixin of `Workbench`: it reads the app's `setup`,
`start_tracker` and `syntax_theme`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .reporter import MessageReporter

if TYPE_CHECKING:
    from textual.app import App

    from ..app import CostLedger, SessionRuns
    from .slash_dispatch import SlashDispatch
    from .trust_broker import ModalTrustBroker

    _Host = App[None]  # a mixin of the Textual app: type checkers see the app it is mixed into
else:
    _Host = object


class LazyCore(_Host):
    _core: tuple[SessionRuns, ModalTrustBroker, SlashDispatch, CostLedger] | None = None

    @property
    def runs(self) -> SessionRuns:
        return self._loaded_core()[0]

    @property
    def broker(self) -> ModalTrustBroker:
        return self._loaded_core()[1]

    @property
    def slash(self) -> SlashDispatch:
        return self._loaded_core()[2]

    @property
    def costs(self) -> CostLedger:
        return self._loaded_core()[3]

    def _loaded_core(self) -> tuple[SessionRuns, ModalTrustBroker, SlashDispatch, CostLedger]:
        if self._core is None:
            from ..app import CostLedger, SessionRuns, start_resource_tracker

            if self.start_tracker:  # before anything can start the indexer's process pool
                with_real_stderr(start_resource_tracker)
            from .slash_dispatch import SlashDispatch
            from .trust_broker import ModalTrustBroker

            broker = ModalTrustBroker(self, self.syntax_theme)
            runs = SessionRuns(self.setup, MessageReporter(self), broker.ask)
            self._core = (runs, broker, SlashDispatch(self), CostLedger())
        return self._core

    @property
    def workspace(self) -> Any:
        """The project the runs work on (the app layer owns it; slash commands and mentions read it)."""
        return self.runs.workspace


def with_real_stderr(start: Callable[[], None]) -> None:
    """Run `start` with the terminal's own stderr as sys.stderr. multiprocessing's resource tracker
    (`app.start_resource_tracker`) hands sys.stderr's descriptor to its child; inside the running app
    sys.stderr is Textual's capture, which has none. Started before the app instead, the tracker (a
    Python process of its own) competed with the first frame for the CPU."""
    captured = sys.stderr
    sys.stderr = sys.__stderr__ or captured
    try:
        start()
    finally:
        sys.stderr = captured
