"""The run's ledger: one summary per closed phase, written by replaying that phase's record (its
tool calls, the executor's claims, the gate's verdict), and the digest of earlier attempts a fresh
session is seeded with. Plain code over recorded facts: no model is asked to remember.
"""

from __future__ import annotations

from collections.abc import Sequence

from .gate import changed_files
from .plan import Phase
from .store import GateRecord, RunStore, ToolCallRecord

_CLAIM_CHARS = 400


def executor_claims(calls: Sequence[ToolCallRecord]) -> tuple[str | None, dict[str, str]]:
    """The last phase_done summary and each task's last mark (status: note), as claimed."""
    summary: str | None = None
    marks: dict[str, str] = {}
    for call in calls:
        if not call.ok:
            continue
        if call.tool == "phase_done":
            summary = str(call.arguments.get("summary", "")).strip() or summary
        elif call.tool == "mark_task":
            note = str(call.arguments.get("note", "")).strip()
            marks[str(call.arguments.get("id"))] = str(call.arguments.get("status", "done")) + (f": {note}" if note else "")
    return summary, marks


def recorded_changes(store: RunStore, run_id: str, phase_id: str) -> tuple[str, ...]:
    """The phase's changed files as its last gate measured them on disk (older runs: from its tool calls)."""
    for gate in reversed(store.gates(run_id, phase_id)):
        if "changed" in gate.detail:
            return tuple(c["path"] for c in gate.detail["changed"])
    return changed_files(store.calls(run_id, phase_id, role="executor"))


def phase_summary(phase: Phase, calls: Sequence[ToolCallRecord], gate: GateRecord, attempts: int, changed: Sequence[str] | None = None) -> str:
    executor = [c for c in calls if c.role == "executor"]
    changed = changed_files(executor) if changed is None else tuple(changed)
    claim, _ = executor_claims(executor)
    parts = [f"{phase.title}: closed {gate.verdict} after {attempts} attempt{'s' if attempts != 1 else ''}"]
    parts.append("changed " + (", ".join(changed) if changed else "no files"))
    if claim:
        parts.append(f"executor's summary: {claim[:_CLAIM_CHARS]}")
    defects = gate.detail.get("defects") or []
    if defects:
        parts.append("defects: " + "; ".join(defects))
    return ". ".join(parts) + "."


def attempts_digest(phase: Phase, calls: Sequence[ToolCallRecord], gates: Sequence[GateRecord], changed: Sequence[str] | None = None) -> str:
    """What earlier attempts did and what the gate said, for a fresh session."""
    executor = [c for c in calls if c.role == "executor"]
    lines = []
    changed = changed_files(executor) if changed is None else changed
    lines.append("files changed so far in this phase: " + (", ".join(changed) if changed else "none"))
    failed = [c for c in executor if not c.ok]
    if failed:
        lines.append(f"{len(failed)} tool call(s) failed, last: {failed[-1].tool}: {str(failed[-1].result.get('error', ''))[:200]}")
    _, marks = executor_claims(executor)
    if marks:
        lines.append("task marks claimed: " + "; ".join(f"{task} {mark}" for task, mark in marks.items()))
    for gate in gates:
        # What the gate found is in the nudges listed after the digest; here only the course of it.
        lines.append(f"attempt {gate.attempt}: gate said {gate.decision} (decided by the {gate.tier} rung, verdict {gate.verdict or 'none'})")
    return "\n".join(f"- {line}" for line in lines)
