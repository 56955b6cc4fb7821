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
    Event,
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
from .ports import (
    AssistantMessage,
    Message,
    ModelCallPort,
    ToolCall,
    ToolResultMessage,
    ToolSpec,
    TurnDeadlinePassed,
    Usage,
    UserMessage,
)
from .sessions import SessionMissing, SessionRecord, sessions_dir
from .sessions import load as load_session
from .trust_gate import SessionGate, TrustGate, TrustQuestion, edited_paths, headless_gate

__all__ = [
    "FINISH_REASONS",
    "AgentEvent",
    "AgentLoop",
    "AssistantMessage",
    "BudgetMeter",
    "BudgetUpdate",
    "CollectingReporter",
    "Event",
    "Finished",
    "KillSwitch",
    "Limits",
    "Message",
    "ModelCallPort",
    "ProgressReporterPort",
    "SessionGate",
    "SessionMissing",
    "SessionRecord",
    "SessionStarted",
    "Stop",
    "TextDelta",
    "ToolCall",
    "ToolFinished",
    "ToolResultMessage",
    "ToolSpec",
    "ToolStarted",
    "TrustGate",
    "TrustQuestion",
    "TrustRequested",
    "TurnDeadlinePassed",
    "TurnHooks",
    "TurnStarted",
    "Usage",
    "UserMessage",
    "edited_paths",
    "event_json",
    "headless_gate",
    "load_session",
    "sessions_dir",
    "tool_specs",
]
