"""The executor's blueprint-only tools: `phase_done` and `mark_task`. Both are requests, recorded
and shown, never decisions: the gate decides whether a phase closes (gate.py).

They are bound to one phase's `PhaseClaims` when a session opens and are offered only to blueprint
executor sessions, never through the general registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import Field

from ..tools import Tool, ToolContext, ToolError, ToolInput, ToolResult
from .plan import Phase


@dataclass
class PhaseClaims:
    """What the executor has said about its phase in the current session."""

    phase: Phase
    done_summary: str | None = None
    marks: dict[str, tuple[str, str]] = field(default_factory=dict)  # task id -> (status, note)


class PhaseDoneInput(ToolInput):
    summary: str = Field(min_length=1, description="what you did in this phase and how you checked it")


class MarkTaskInput(ToolInput):
    id: str = Field(description="the task id from the phase's task list")
    status: Literal["done", "in_progress", "blocked", "todo"] = "done"
    note: str = Field(default="", description="how it was done, or why it is blocked")


class PhaseDone(Tool[PhaseDoneInput], name="phase_done", mutating=False):
    """Ask for this phase to be closed, with a summary of what you did. This is a request: after your
    turn an independent completion gate (file checks, the phase's verification commands, a reviewer
    that reads the code) decides whether the phase is complete."""
    Input = PhaseDoneInput

    def __init__(self, claims: PhaseClaims) -> None:
        self.claims = claims

    def run(self, params: PhaseDoneInput, context: ToolContext) -> ToolResult:
        self.claims.done_summary = params.summary.strip()
        return ToolResult(self.name, {
            "status": "requested",
            "phase": self.claims.phase.id,
            "message": "recorded; the completion gate will now check the phase. End your turn.",
        })


class MarkTask(Tool[MarkTaskInput], name="mark_task", mutating=False):
    """Record the status of one task of this phase (done, in_progress, blocked, todo) with a note. A
    mark is your claim; the completion gate checks the work itself."""
    Input = MarkTaskInput

    def __init__(self, claims: PhaseClaims) -> None:
        self.claims = claims

    def run(self, params: MarkTaskInput, context: ToolContext) -> ToolResult:
        known = self.claims.phase.task_ids()
        if params.id not in known:
            raise ToolError(f"unknown task {params.id!r}; this phase's tasks are: {', '.join(known)}")
        self.claims.marks[params.id] = (params.status, params.note.strip())
        return ToolResult(self.name, {"status": "recorded", "id": params.id, "task_status": params.status})
