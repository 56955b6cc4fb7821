"""What the executor and the adjudicator read. The executor's rules are the agent's (revisions,
batches, edit limits) plus how a blueprint phase works; the adjudicator is told it is reviewing
someone else's work with read-only tools and must show evidence."""

from __future__ import annotations

from collections.abc import Sequence

from ..agent import ToolSpec, system_prompt
from .plan import Blueprint, Phase
from .verdict import MIN_EVIDENCE_CHARS

_EXECUTOR = """\
You are the executor of one phase of a blueprint run: a plan of phases that runs unattended.
Do the phase's tasks for real with the tools. Use mark_task to record each task's status as you go,
and call phase_done with a summary when you believe the phase is complete, then end your turn.
phase_done and mark_task are requests: after every turn that ends, an independent completion gate
checks the files you changed, runs the phase's verification commands, and asks a reviewer who reads
the code. If it finds work outstanding you will be told what, and asked to continue."""

_ADJUDICATOR = f"""\
You are the adjudicator of one phase of a blueprint run. Someone else did the work; you decide,
from the code as it is now, whether each task of the phase is done. You have read-only tools: read
the changed files (git_diff shows the changes when the project is a git repository) and whatever else
you need. Do not trust claims; look.

Then call submit_verdict once, with evidence for EVERY task: what you read that shows its state
(file, function, lines, behaviour), at least {MIN_EVIDENCE_CHARS} characters; a bare "done" is
refused. Verdicts: complete (every task done, nothing wrong), complete_with_defects (every task
done, with problems worth recording: list them in defects), incomplete (list the ids of the tasks
not done in outstanding). A verification failure in files the phase changed means the phase is not
complete. When submit_verdict says recorded, end your turn."""


def executor_system(tools: Sequence[ToolSpec]) -> str:
    return f"{system_prompt(tools)}\n{_EXECUTOR}\n"


def adjudicator_system(tools: Sequence[ToolSpec]) -> str:
    listing = "\n".join(f"- {t.name}: {t.description}" for t in tools)
    return f"{_ADJUDICATOR}\n\nTools:\n{listing}\n"


def phase_brief(blueprint: Blueprint, phase: Phase) -> str:
    lines = [f"Blueprint: {blueprint.title}", f"Phase {phase.id}: {phase.title}", f"Goal: {phase.goal}", "Tasks:"]
    lines += [f"- {task.id}: {task.text}" + (f" (targets: {', '.join(task.files)})" if task.files else "") for task in phase.tasks]
    if phase.relevant:
        lines.append("Relevant files: " + ", ".join(phase.relevant))
    if phase.verify:
        lines.append("Verification commands (run by the gate after your turn): " + "; ".join(phase.verify))
        lines.append("The gate runs them on the test files and checks they name or run as those stood when the phase "
                     "began (edits to them are ignored unless a task lists the file as its target).")
    return "\n".join(lines)


def executor_opening(
    blueprint: Blueprint,
    phase: Phase,
    ledger: Sequence[tuple[str, str]],
    defects: Sequence[tuple[str, str]],
    digest: str = "",
    nudges: Sequence[str] = (),
) -> str:
    parts = []
    if ledger:
        parts.append("Earlier phases (the run's ledger):\n" + "\n".join(f"- {pid}: {summary}" for pid, summary in ledger))
    if defects:
        parts.append("Accepted defects carried forward (known problems; fix them if this phase touches them):\n"
                     + "\n".join(f"- [{pid}] {text}" for pid, text in defects))
    parts.append(phase_brief(blueprint, phase))
    if digest:
        parts.append("Earlier attempts at this phase (what they did and why the gate did not close it):\n" + digest)
    if nudges:
        parts.append("The completion gate said:\n" + "\n".join(f"- {text}" for text in nudges))
    parts.append("Do the phase now.")
    return "\n\n".join(parts)


def nudge_message(nudges: Sequence[str]) -> str:
    return ("The completion gate did not close this phase. What it found, oldest first:\n"
            + "\n".join(f"- {text}" for text in nudges)
            + "\nContinue the phase: do what is outstanding, then call phase_done again.")


def adjudicator_brief(blueprint: Blueprint, phase: Phase, changed: Sequence[str], findings: Sequence[str], verification: Sequence[str],
                      known: Sequence[str] = (), ignored: str = "") -> str:
    parts = [phase_brief(blueprint, phase)]
    parts.append("Files changed in this phase (measured on disk against the phase's start): " + (", ".join(changed) if changed else "none"))
    if ignored:
        parts.append("The phase edited its own verification (pinned files: what the verify commands name or run). "
                     "The verification ignored these edits and ran on those files as they stood when the phase began; "
                     "judge whether the edits are legitimate or weaken the checks:\n" + ignored)
    if verification:
        parts.append("Verification, run after the phase's last change:\n" + "\n".join(f"- {line}" for line in verification))
    if findings:
        parts.append("Checks that already say no (the phase cannot close while they stand; still give your "
                     "verdict on every task):\n" + "\n".join(f"- {line}" for line in findings))
    if known:
        parts.append("Known before this phase began (recorded as defects, not held against it):\n" + "\n".join(f"- {line}" for line in known))
    parts.append("Review the phase now and call submit_verdict.")
    return "\n\n".join(parts)
