"""The agent: the turn loop, budgets, the kill switch, progress events and sessions.

Ports: `ModelCallPort` (providers implement it) and `ProgressReporterPort` (the CLI prints events as
JSON lines, the UI posts them as Textual messages). Nothing here knows HTTP or Textual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..package_face import lazy_face

if TYPE_CHECKING:
    from .budgets import BudgetMeter, Limits, PricePort
    from .compaction import SUMMARY_SYSTEM, NothingToCompact, compact_session, model_turns
    from .context_window import DEFAULT_BUDGET_CHARS
    from .events import (
        FINISH_REASONS,
        AgentEvent,
        BudgetUpdate,
        CollectingReporter,
        Compacted,
        Event,
        Finished,
        ProgressReporterPort,
        ProviderWarning,
        ReasoningDelta,
        SessionStarted,
        TextDelta,
        ToolFinished,
        ToolStarted,
        TrustRequested,
        TurnStarted,
        event_json,
    )
    from .execution import CallOutcome
    from .killswitch import KillSwitch
    from .loop import AgentLoop, Stop, TurnHooks, tool_specs
    from .ports import (
        AssistantMessage,
        Message,
        ModelCallPort,
        Notice,
        Restart,
        TextChunk,
        ToolCall,
        ReasoningChunk,
        ReasoningDone,
        ReasoningPart,
        ToolCallChunk,
        ToolResultMessage,
        ToolSpec,
        TurnDeadlinePassed,
        TurnEnd,
        TurnItem,
        Usage,
        UsageChunk,
        UserMessage,
    )
    from .prompt import system_prompt
    from .session_facts import carried_facts
    from .sessions import SessionMissing, SessionRecord, load as load_session, session_held, sessions_dir
    from .trust_gate import SessionGate, TrustGate, TrustQuestion, edited_paths, headless_gate, question_for

__all__ = [
    "NothingToCompact",
    "compact_session",
    "DEFAULT_BUDGET_CHARS",
    "FINISH_REASONS",
    "SUMMARY_SYSTEM",
    "AgentEvent",
    "AgentLoop",
    "AssistantMessage",
    "BudgetMeter",
    "BudgetUpdate",
    "CallOutcome",
    "CollectingReporter",
    "Compacted",
    "Event",
    "Finished",
    "KillSwitch",
    "Limits",
    "Message",
    "ModelCallPort",
    "Notice",
    "PricePort",
    "ProgressReporterPort",
    "ProviderWarning",
    "ReasoningChunk",
    "ReasoningDelta",
    "ReasoningDone",
    "ReasoningPart",
    "Restart",
    "SessionGate",
    "SessionMissing",
    "SessionRecord",
    "SessionStarted",
    "Stop",
    "TextChunk",
    "TextDelta",
    "ToolCall",
    "ToolCallChunk",
    "ToolFinished",
    "ToolResultMessage",
    "ToolSpec",
    "ToolStarted",
    "TrustGate",
    "TrustQuestion",
    "TrustRequested",
    "TurnDeadlinePassed",
    "TurnEnd",
    "TurnHooks",
    "TurnItem",
    "TurnStarted",
    "Usage",
    "UsageChunk",
    "UserMessage",
    "carried_facts",
    "edited_paths",
    "event_json",
    "headless_gate",
    "load_session",
    "model_turns",
    "question_for",
    "session_held",
    "sessions_dir",
    "system_prompt",
    "tool_specs",
]

__getattr__, __dir__ = lazy_face(__name__, __file__)
