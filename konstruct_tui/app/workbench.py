"""The workbench's side of the core: the project it opened, one agent run at a time (follow-ups
continuing the same session), blueprint runs, the trust gate, and what the panes read at start-up
(the graph overview, the request history, past sessions).

No Textual here: the app calls `run` on a worker thread and `kill` from its own thread. The loop gets
its own asyncio event loop on that worker thread, so its file and session I/O never stalls the screen.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..agent import Finished, KillSwitch, ProgressReporterPort, SessionStarted, load_session
from ..providers import ProviderSettings
from ..workspace import Workspace
from .graph_overview import GraphOverview, graph_overview
from .request_history import append_history, load_history
from .runs import agent_loop, drive, neighborhood_ranker
from .session_list import Replayed, SessionSummary, list_sessions, replay_events
from .trust import AskPerson, CallLedger, PreviewingBroker, PreviewingGate, workbench_gate
from .workbench_setup import WorkbenchSetup, start_resource_tracker


class NoModel(RuntimeError):
    """A request was made but no model is configured; the message says how to configure one."""


class SessionRuns:
    """Owns the project's workspace, the kill switch of the run in flight and the id of the session
    follow-ups continue. `ask` is how the UI puts a trust question to the person."""

    def __init__(self, setup: WorkbenchSetup, reporter: ProgressReporterPort, ask: AskPerson) -> None:
        self.setup = setup
        self.workspace = Workspace(setup.root)
        self.ledger = CallLedger()
        self.broker = PreviewingBroker(self.workspace, self.ledger, ask)
        if setup.demo:
            from .demo.director import DemoDirector

            reporter = DemoDirector(reporter, self.workspace)
        self.reporter = _Noting(reporter, self.ledger, self._session_began)
        self._in_request = False  # a request (not a blueprint run) is in flight: its session is the one to follow
        self._ranker = neighborhood_ranker()
        self._lock = threading.Lock()
        self.switch: KillSwitch | None = None
        self.session_id: str | None = None
        self.session_since: float | None = None  # when this session's first run began (/diff)
        self.gate = self._fresh_gate()
        self._requests = 0

    def _fresh_gate(self) -> PreviewingGate:
        return workbench_gate(self.workspace.root, self.broker)

    def scrub(self, text: str) -> str:
        """`text` without the project's absolute location (what the screen may show)."""
        return self.workspace.scrub(text)

    def close(self) -> None:
        self.kill()
        self.workspace.close()

    @property
    def running(self) -> bool:
        with self._lock:
            return self.switch is not None

    def run(self, request: str) -> Finished:
        """Blocking: run one request to its end (done, a budget, killed, error)."""
        settings = self.setup.settings
        if settings is None:
            raise NoModel(self.setup.model_problem or "no model is configured")
        if self.setup.follow_up_settings is not None and self._requests > 0:
            settings, self.session_id = self.setup.follow_up_settings, None
        self._requests += 1
        if self.session_since is None:
            self.session_since = time.time()  # the journal stamps its batches with the same clock
        record = load_session(self.session_id) if self.session_id else None
        switch = KillSwitch()
        with self._lock:
            self.switch = switch
            self._in_request = True
        try:
            loop = agent_loop(self.workspace, settings, self.reporter, self.gate, self.setup.limits, switch, self._ranker)
            finished: Finished = asyncio.run(drive(loop, request, record))
        finally:
            with self._lock:
                self.switch = None
                self._in_request = False
        self.session_id = finished.session_id
        return finished

    def run_blueprint(self, path: Path) -> Finished:
        """Blocking: a whole blueprint run, killable like a request."""
        from .blueprint_runs import read_blueprint, run_blueprint

        settings = self.setup.blueprint_settings or self.setup.settings
        if settings is None:
            raise NoModel(self.setup.model_problem or "no model is configured")
        plan = read_blueprint(path, self.workspace)
        switch = KillSwitch()
        with self._lock:
            self.switch = switch
        try:
            limits = self.setup.limits
            return run_blueprint(plan, self.workspace, settings, self.reporter, switch, max_tokens=limits.max_tokens, max_cost_usd=limits.max_cost_usd)
        finally:
            with self._lock:
                self.switch = None

    def kill(self) -> bool:
        """Throw the switch of the run in flight. False when nothing runs."""
        with self._lock:
            switch = self.switch
        if switch is None:
            return False
        switch.kill("killed")
        return True

    def _session_began(self, session_id: str) -> None:
        # Known from the first event on, not only when the run returns: a /compact or /diff typed the
        # moment the screen says "done" must already see this session.
        with self._lock:
            if self._in_request:
                self.session_id = session_id

    def new_session(self) -> None:
        self.session_id = None
        self.session_since = None
        self.gate = self._fresh_gate()

    def use_model(self, settings: ProviderSettings) -> None:
        """A model chosen in the workbench (/model): the next request goes to it, demo or not."""
        from dataclasses import replace

        self.setup = replace(self.setup, settings=settings, model_problem=None, follow_up_settings=None)

    def continue_session(self, session_id: str) -> None:
        self.session_id = session_id
        self.session_since = session_started_at(session_id)  # /diff covers the whole session

    # What the panes read, each on a worker thread.

    def graph_overview(self) -> GraphOverview:
        """Brings the index up to date (opening the workbench does, so the ranker has one)."""
        return graph_overview(self.workspace)

    def history(self) -> list[str]:
        return load_history(self.workspace.root)

    def remember(self, request: str) -> None:
        append_history(self.workspace.root, request)

    def sessions(self) -> list[SessionSummary]:
        return list_sessions(self.workspace.root)

    def replay(self, session_id: str) -> Replayed:
        return replay_events(load_session(session_id))


def session_started_at(session_id: str) -> float | None:
    """When a session began, from its id (a UTC timestamp first, see agent/sessions.py)."""
    import calendar

    try:
        return float(calendar.timegm(time.strptime(session_id[:15], "%Y%m%d-%H%M%S")))
    except ValueError:
        return None


class _Noting:
    """Reports every event on, after the call ledger (which the trust preview reads) has noted it."""

    def __init__(self, inner: ProgressReporterPort, ledger: CallLedger, session_began: Callable[[str], None]) -> None:
        self._inner = inner
        self._ledger = ledger
        self._session_began = session_began

    def report(self, event: Any) -> None:
        self._ledger.note(event)
        if type(event) is SessionStarted:  # a blueprint's RunStarted is not a session to follow up
            self._session_began(event.session_id)
        self._inner.report(event)
