"""What reaches the screen besides the agent's own events: the blueprint layer's run events (the
gate pane renders them) and the workbench's own notices."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Union

from ..blueprint import (
    PhaseClosed,
    PhaseStarted,
    RunStarted,
    VerdictReached,
    WatchdogAlarm,
)


@dataclass(frozen=True)
class Notice:
    """A line the workbench itself adds to the transcript (the demo saying what it staged)."""

    name: ClassVar[str] = "notice"
    text: str


RunEvent = Union[RunStarted, PhaseStarted, VerdictReached, PhaseClosed, WatchdogAlarm, Notice]
