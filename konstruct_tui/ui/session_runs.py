"""Running requests for the workbench: one agent run at a time, follow-ups continuing the same session.

No Textual here: the app calls `run` on a worker thread and `kill` from its own thread. The loop gets
its own asyncio event loop on that worker thread, so its file and session I/O never stalls the screen.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agent import AgentLoop, KillSwitch, Limits, load_session
from ..agent.events import Finished, ProgressReporterPort
from ..providers import ProviderSettings, open_provider
from ..workspace import Workspace, WriteJournal


@dataclass(frozen=True)
class WorkbenchSetup:
    """What the CLI resolved before the screen opens."""

    root: Path
    settings: ProviderSettings | None  # None: no model is configured (see model_problem)
    model_problem: str | None = None
    limits: Limits = field(default_factory=Limits)
    demo: bool = False
    theme: str | None = None
    first_request: str | None = None  # sent as soon as the screen is up (the demo uses it)
    blueprint: Path | None = None  # a blueprint to run as soon as the screen is up (before first_request)
    blueprint_settings: ProviderSettings | None = None  # its model, when not `settings` (the demo's scripts)
    # The demo's answer to every request after its first (a script that says it is scripted): a
    # replayed session cannot follow up honestly, and must not replay its turns again.
    follow_up_settings: ProviderSettings | None = None


class NoModel(RuntimeError):
    """A request was made but no model is configured; the message says how to configure one."""


class SessionRuns:
    """Owns the kill switch of the run in flight and the id of the session follow-ups continue."""

    def __init__(
        self,
        setup: WorkbenchSetup,
        workspace: Workspace,
        reporter: ProgressReporterPort,
        gate_for: Callable[[], Any],  # a fresh trust gate: session grants live as long as it
        ranker: Callable[[Workspace, str], Sequence[dict[str, Any]]] | None = None,
    ) -> None:
        self.setup = setup
        self.workspace = workspace
        self.reporter = reporter
        self._gate_for = gate_for
        self._ranker = ranker
        self._lock = threading.Lock()
        self.switch: KillSwitch | None = None
        self.session_id: str | None = None
        self.session_since: float | None = None  # when this session's first run began (/diff)
        self.gate = gate_for()
        self._requests = 0

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
        try:
            model = open_provider(settings)
            loop = AgentLoop(
                self.workspace,
                model,
                self.reporter,
                self.gate,
                self.setup.limits,
                settings.price(),
                switch,
                self._ranker,
                WriteJournal(self.workspace.root),
                getattr(model, "note", None),
                {"script": os.path.abspath(settings.script)} if settings.script else {},
            )
            loop.context_chars = settings.context_chars() or loop.context_chars  # compaction starts near the model's window
            finished = asyncio.run(self._drive(loop, request, record))
        finally:
            with self._lock:
                self.switch = None
        self.session_id = finished.session_id
        return finished

    @staticmethod
    async def _drive(loop: AgentLoop, request: str, record: Any) -> Finished:
        try:
            return await loop.run(request, record)
        finally:
            await loop.model.aclose()

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

    def new_session(self) -> None:
        self.session_id = None
        self.session_since = None
        self.gate = self._gate_for()

    def use_model(self, settings: ProviderSettings) -> None:
        """A model chosen in the workbench (/model): the next request goes to it, demo or not."""
        from dataclasses import replace

        self.setup = replace(self.setup, settings=settings, model_problem=None, follow_up_settings=None)

    def continue_session(self, session_id: str) -> None:
        self.session_id = session_id
        self.session_since = session_started_at(session_id)  # /diff covers the whole session


def session_started_at(session_id: str) -> float | None:
    """When a session began, from its id (a UTC timestamp first, see agent/sessions.py)."""
    import calendar

    try:
        return float(calendar.timegm(time.strptime(session_id[:15], "%Y%m%d-%H%M%S")))
    except ValueError:
        return None


def graph_ranker() -> Callable[[Workspace, str], list[dict[str, Any]]]:
    """Neighborhoods relevant to a request, from an index that already exists (the run never waits
    for one to be built; the workbench builds it in the background at start-up)."""
    from ..graph.neighborhoods import rank_neighborhoods
    from ..tools.graph_access import ForegroundGraph

    def rank(workspace: Workspace, request: str) -> list[dict[str, Any]]:
        snapshot = ForegroundGraph(workspace).ensure(existing_only=True)
        if snapshot is None:
            return []
        return [{**hood.to_json(limit=40), "score": score} for hood, score in rank_neighborhoods(snapshot, request)]

    return rank
