"""The adjudicator's verdict: its shape, the plain-code checks every verdict must pass, and the
`submit_verdict` tool (offered only to adjudicator sessions).

The same `read_verdict` runs twice: in the tool, so the adjudicator is told what is wrong and can
submit again, and in the gate on the recorded arguments, so no verdict reaches a phase close on
the tool's word alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import Field, ValidationError

from ..tools import Tool, ToolContext, ToolError, ToolInput, ToolResult
from .plan import Phase

MIN_EVIDENCE_CHARS = 40
MIN_EVIDENCE_WORDS = 6
VERDICTS = ("complete", "complete_with_defects", "incomplete")


class TaskEvidenceInput(ToolInput):
    id: str
    evidence: str = Field(description=f"what you saw that shows the task's state: file, function, lines, behaviour (at least {MIN_EVIDENCE_CHARS} characters)")


class SubmitVerdictInput(ToolInput):
    verdict: Literal["complete", "complete_with_defects", "incomplete"]
    tasks: list[TaskEvidenceInput] = Field(description="one entry per task of the phase, each with evidence")
    defects: list[str] = Field(default_factory=list, description="problems that do not block closing (complete_with_defects)")
    outstanding: list[str] = Field(default_factory=list, description="ids of the tasks not done (incomplete)")


@dataclass(frozen=True)
class Verdict:
    verdict: str
    evidence: tuple[tuple[str, str], ...]  # (task id, evidence), in the phase's task order
    defects: tuple[str, ...] = ()
    outstanding: tuple[str, ...] = ()

    def evidence_json(self) -> tuple[dict[str, str], ...]:
        return tuple({"id": task, "evidence": text} for task, text in self.evidence)


class VerdictRejected(ValueError):
    """The verdict is malformed; the message lists every problem."""


def read_verdict(arguments: dict[str, Any], phase: Phase) -> Verdict:
    try:
        params = SubmitVerdictInput.model_validate(arguments)
    except ValidationError as invalid:
        first = invalid.errors(include_url=False)[0]
        raise VerdictRejected(f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None
    return _checked(params, phase)


def _checked(params: SubmitVerdictInput, phase: Phase) -> Verdict:
    problems: list[str] = []
    known = phase.task_ids()
    given: dict[str, str] = {}
    for entry in params.tasks:
        if entry.id not in known:
            problems.append(f"task {entry.id!r} is not in this phase (tasks: {', '.join(known)})")
        elif entry.id in given:
            problems.append(f"task {entry.id!r} is listed twice")
        else:
            given[entry.id] = entry.evidence.strip()
    for task_id in known:
        text = given.get(task_id)
        if text is None:
            problems.append(f"task {task_id!r} has no evidence")
        elif len(text) < MIN_EVIDENCE_CHARS or len(text.split()) < MIN_EVIDENCE_WORDS:
            problems.append(
                f"evidence for {task_id!r} is too short ({len(text)} characters): name the file, the code and "
                f"what it does (at least {MIN_EVIDENCE_CHARS} characters and {MIN_EVIDENCE_WORDS} words)"
            )
    outstanding = tuple(dict.fromkeys(item.strip() for item in params.outstanding if item.strip()))
    defects = tuple(text.strip() for text in params.defects if text.strip())
    unknown = [item for item in outstanding if item not in known]
    if unknown:
        problems.append(f"outstanding names unknown tasks: {', '.join(unknown)}")
    if params.verdict == "incomplete" and not outstanding:
        problems.append("an incomplete verdict must name the outstanding task ids")
    if params.verdict != "incomplete" and outstanding:
        problems.append(f"a {params.verdict} verdict cannot have outstanding tasks; use incomplete")
    if params.verdict == "complete_with_defects" and not defects:
        problems.append("complete_with_defects needs at least one defect")
    if params.verdict == "complete" and defects:
        problems.append("defects were listed: use complete_with_defects")
    if problems:
        raise VerdictRejected("; ".join(problems))
    ordered = tuple(task for task in known if task in outstanding)
    return Verdict(params.verdict, tuple((task, given[task]) for task in known), defects, ordered)


@dataclass
class VerdictSlot:
    """Where the adjudicator's accepted verdict lands (the last valid one wins)."""

    phase: Phase
    verdict: Verdict | None = None
    arguments: dict[str, Any] | None = None  # the accepted call as submitted, checked again by the gate
    rejections: list[str] = field(default_factory=list)


class SubmitVerdict(Tool[SubmitVerdictInput]):
    name: ClassVar[str] = "submit_verdict"
    description: ClassVar[str] = (
        "Submit your verdict on the phase: complete, complete_with_defects (list the defects) or "
        "incomplete (list the outstanding task ids). Give evidence for every task: what you read that "
        f"shows its state, at least {MIN_EVIDENCE_CHARS} characters; a bare 'done' is refused."
    )
    Input = SubmitVerdictInput
    mutating: ClassVar[bool] = False

    def __init__(self, slot: VerdictSlot) -> None:
        self.slot = slot

    def run(self, params: SubmitVerdictInput, context: ToolContext) -> ToolResult:
        try:
            verdict = _checked(params, self.slot.phase)
        except VerdictRejected as rejected:
            self.slot.rejections.append(str(rejected))
            raise ToolError(f"verdict refused: {rejected}. Fix it and call submit_verdict again.") from None
        self.slot.verdict = verdict
        self.slot.arguments = params.model_dump()
        return ToolResult(self.name, {"status": "recorded", "verdict": verdict.verdict, "message": "recorded. End your turn."})

