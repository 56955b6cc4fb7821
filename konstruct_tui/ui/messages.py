"""The Textual messages the workbench passes around. Core events arrive wrapped in `Reported`;
widgets never hold core objects, only the frozen records inside these messages."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.message import Message

from ..agent import Event
from ..app import GraphOverview, Replayed, SessionSummary

# Any event the core reports: the agent's (`AgentEvent`), a blueprint run's and the workbench's own
# notices (`app.RunEvent`). Panes are routed only the types they draw (`EventRoutes`).
Reportable = Event


class Reported(Message):
    """One event from the agent loop (or a blueprint run), in the order it happened."""

    def __init__(self, event: Reportable) -> None:
        super().__init__()
        self.event = event


class RequestSubmitted(Message):
    """The person asked for something in the request input."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class KillRequested(Message):
    """The kill control was pressed (the key binding goes straight to the app action)."""


# What the workers bring back, one message type each (the worker posts it; a failure is routed
# through `Worker.StateChanged` instead).


class RunEnded(Message):
    """The agent or blueprint run worker returned (`failed`: it raised; the error is shown apart)."""

    def __init__(self, failed: bool) -> None:
        super().__init__()
        self.failed = failed


class CompactionDone(Message):
    """The compaction worker's outcome: the `compacted` marker, or the error that changed nothing."""

    def __init__(self, outcome: object) -> None:
        super().__init__()
        self.outcome = outcome


class FilesListed(Message):
    """The project's files, for @ completion."""

    def __init__(self, files: list[str]) -> None:
        super().__init__()
        self.files = files


class GraphLoaded(Message):
    def __init__(self, overview: GraphOverview) -> None:
        super().__init__()
        self.overview = overview


class HistoryLoaded(Message):
    def __init__(self, requests: list[str]) -> None:
        super().__init__()
        self.requests = requests


class SessionsListed(Message):
    def __init__(self, sessions: list[SessionSummary]) -> None:
        super().__init__()
        self.sessions = sessions


class SessionReplayed(Message):
    def __init__(self, session_id: str, shown: Replayed) -> None:
        super().__init__()
        self.session_id = session_id
        self.shown = shown


class EventRoutes:
    """Which panes draw which event: each pane lists the event types it draws (`DRAWS`), and an
    event goes only to the panes that listed its type or a base of it (a blueprint run's
    `RunStarted` is a `SessionStarted` too)."""

    def __init__(self, panes: Iterable[Any]) -> None:
        self._panes = tuple(panes)
        self._routes: dict[type, tuple[Any, ...]] = {}

    def panes_for(self, event: object) -> tuple[Any, ...]:
        kind = type(event)
        routed = self._routes.get(kind)
        if routed is None:
            routed = self._routes[kind] = tuple(p for p in self._panes if any(issubclass(kind, t) for t in p.DRAWS))
        return routed
