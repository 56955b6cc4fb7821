"""What a blueprint run reports, beside the agent's own events (agent/events.py), through the same
`ProgressReporterPort`. The gate pane renders these; `konstruct blueprint run --headless` prints
them as JSON lines (`event_json` works on them unchanged).

A run's stream: `session_started` (session_id is the run id) first, then per phase attempt
`phase_started`, `session_opened` as each model session begins, the executor's turn and tool events, the adjudicator's turn and tool events (each
session numbers its own turns from 1), `verdict` after every gate, `phase_closed` when a phase
closes, and `finished` last (reason `done`, `stalled`, `error`, `killed`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..agent import SessionStarted


@dataclass(frozen=True)
class RunStarted(SessionStarted):
    """The agent's `session_started`, for a blueprint run: `session_id` and `run_id` are the run id,
    so a reader of either the agent's stream or a blueprint's finds the id where it looks."""

    run_id: str = ""
    title: str = ""
    phases: tuple[str, ...] = ()


@dataclass(frozen=True)
class PhaseStarted:
    name: ClassVar[str] = "phase_started"
    run_id: str
    phase: str
    title: str
    attempt: int
    session_id: str
    fresh: bool  # a new session (first attempt, second retry on, resume) rather than a nudge
    tasks: tuple[dict[str, str], ...] = ()
    nudge: str = ""


@dataclass(frozen=True)
class SessionOpened:
    """A model session of the run begins: which role (executor, adjudicator), for which phase and
    attempt. The workbench's transcript marks where each session's turns start."""

    name: ClassVar[str] = "session_opened"
    run_id: str
    phase: str
    attempt: int
    role: str
    session_id: str


@dataclass(frozen=True)
class VerdictReached:
    """One gate run: which rung decided (`tier`), what the adjudicator said and why the phase did
    or did not close."""

    name: ClassVar[str] = "verdict"
    run_id: str
    phase: str
    attempt: int
    tier: str  # mechanical, executable, adjudicator
    verdict: str | None  # complete, complete_with_defects, incomplete; None: no valid verdict
    decision: str  # close, retry, stalled, exhausted, no_verdict
    outstanding: tuple[str, ...] = ()
    evidence: tuple[dict[str, str], ...] = ()
    defects: tuple[str, ...] = ()
    vetoes: tuple[str, ...] = ()  # mechanical and executable findings: one line each, then (a failing check) its output, indented
    message: str = ""
    changed: tuple[dict[str, str], ...] = ()  # what differs on disk from the phase's start: path, kind, how, detail
    pinned_edited: tuple[str, ...] = ()  # pinned verification files the phase edited; verification ignored those edits


@dataclass(frozen=True)
class PhaseClosed:
    name: ClassVar[str] = "phase_closed"
    run_id: str
    phase: str
    verdict: str
    attempts: int
    status: str = "closed"
    defects: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()


@dataclass(frozen=True)
class WatchdogAlarm:
    name: ClassVar[str] = "watchdog"
    run_id: str
    kind: str  # quiet (no session running) or silent (a session emitted nothing too long)
    phase: str | None
    session_id: str | None
    idle_s: float
    action: str


BlueprintEvent = RunStarted | PhaseStarted | SessionOpened | VerdictReached | PhaseClosed | WatchdogAlarm


def plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value
