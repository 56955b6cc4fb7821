"""The Textual messages the workbench passes around. Core events arrive wrapped in `Reported`;
widgets never hold core objects, only the frozen records inside these messages."""

from __future__ import annotations

from typing import Union

from textual.message import Message

from ..agent.events import AgentEvent
from .run_events import RunEvent

Reportable = Union[AgentEvent, RunEvent]


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
