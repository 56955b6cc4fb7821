"""The agent: the turn loop, budgets, the kill switch, progress events and sessions.

Ports: `ModelCallPort` (providers implement it) and `ProgressReporterPort` (the CLI prints events as
JSON lines, the UI posts them as Textual messages). Nothing here knows HTTP or Textual.
"""

from .budgets import BudgetMeter, Limits
from .events import (
    FINISH_REASONS,
    AgentEvent,
    BudgetUpdate,
    CollectingReporter,
    Finished,
    ProgressReporterPort,
    SessionStarted,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TrustRequested,
    TurnStarted,
    event_json,
)
from .killswitch import KillSwitch
from .loop import AgentLoop, Stop, TurnHooks, tool_specs
from .ports import Message, ModelCallPort, ToolCall, ToolSpec, TurnDeadlinePassed, Usage
from .sessions import SessionMissing
from .sessions import load as load_session
from .trust_gate import SessionGate, TrustGate, TrustQuestion, headless_gate

__all__ = [
    "FINISH_REASONS",
    "AgentEvent",
    "AgentLoop",
    "BudgetMeter",
    "BudgetUpdate",
    "CollectingReporter",
    "Finished",
    "KillSwitch",
    "Limits",
    "Message",
    "ModelCallPort",
    "ProgressReporterPort",
    "SessionGate",
    "SessionMissing",
    "SessionStarted",
    "Stop",
    "TextDelta",
    "ToolCall",
    "ToolFinished",
    "ToolSpec",
    "ToolStarted",
    "TrustGate",
    "TrustQuestion",
    "TrustRequested",
    "TurnDeadlinePassed",
    "TurnHooks",
    "TurnStarted",
    "Usage",
    "event_json",
    "headless_gate",
    "load_session",
    "tool_specs",
]
