"""The completion gate: three rungs, run after every settled phase turn, whatever the executor
claimed. The first two are plain code and may only say no; only the third, an adjudicator with none
of the executor's history, can say yes, and without a valid verdict from it the phase stays open.

The changed set is measured on disk (disk.py), whatever made the change; the functions below that
read it from tool-call records remain for the record of what the executor's tools reported.

Removed on purpose: a rung that closed a phase because the executor had marked every task done.
Self-marks cost the executor nothing, so an executor that marks everything done (or a model that
hallucinates progress) would close its own phase; marks are kept as claims for the record and the
report, and never count toward closing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..tools import matches as glob_matches
from .plan import Phase
from .store import ToolCallRecord
from .verdict import Verdict
from .verification import VerifyResult, output_excerpt

WRITE_TOOLS = frozenset({"write_code", "delete_code"})
LANDED = frozenset({"written", "created", "deleted"})


@dataclass(frozen=True)
class Veto:
    rung: str  # mechanical, executable
    code: str  # no_change, relevant_untouched, verify_failed, verify_failed_elsewhere, verify_weakened, verify_stale
    message: str


@dataclass(frozen=True)
class GateDecision:
    closes: bool
    tier: str  # the rung that decided: mechanical, executable, adjudicator
    verdict: Verdict | None
    outstanding: tuple[str, ...]  # task ids, and `veto:<code>` for each standing veto
    defects: tuple[str, ...]
    vetoes: tuple[Veto, ...]
    problem: str = ""  # why there is no verdict (the adjudicator failed): fail-closed


def changed_files(calls: Sequence[ToolCallRecord]) -> tuple[str, ...]:
    """Files whose changes landed, from the results of every write/delete call of the phase."""
    found: dict[str, None] = {}
    for call in calls:
        if call.tool in WRITE_TOOLS and call.ok:
            for entry in call.result.get("results", []):
                if isinstance(entry, dict) and entry.get("status") in LANDED and isinstance(entry.get("path"), str):
                    found.setdefault(entry["path"], None)
    return tuple(found)


def last_write(calls: Sequence[ToolCallRecord]) -> int:
    """The record sequence of the phase's last landed write (0: none)."""
    seqs = [c.seq for c in calls if c.tool in WRITE_TOOLS and c.ok and any(
        isinstance(e, dict) and e.get("status") in LANDED for e in c.result.get("results", []))]
    return max(seqs, default=0)


def is_relevant(path: str, relevant: Sequence[str]) -> bool:
    for pattern in relevant:
        pattern = pattern.removeprefix("./")
        if path == pattern or (pattern.endswith("/") and path.startswith(pattern)) or path.startswith(pattern.rstrip("/") + "/"):
            return True
        if any(ch in pattern for ch in "*?[{") and glob_matches(pattern, path):  # the globs search uses
            return True
    return False


def mechanical(phase: Phase, changes: Sequence[ToolCallRecord] | Sequence[str]) -> list[Veto]:
    """Did any file change; did the changes touch the phase's relevant files. Judged from the disk
    (`changes`: the workspace-normalised paths that differ from the phase's start), or from the tool
    calls of every session the phase used; never from what the executor says it did."""
    on_disk = all(isinstance(c, str) for c in changes)
    changed = tuple(changes) if on_disk else changed_files(changes)
    if not changed:
        why = "the disk holds what it held when the phase began" if on_disk else "no write or delete landed"
        return [Veto("mechanical", "no_change", f"no file was changed in this phase ({why})")]
    if phase.relevant and not any(is_relevant(path, phase.relevant) for path in changed):
        return [Veto("mechanical", "relevant_untouched",
                     f"none of the phase's relevant files ({', '.join(phase.relevant)}) was changed; changed: {', '.join(changed)}")]
    return []


def executable(results: Sequence[VerifyResult], baseline: Mapping[str, Sequence[str]] | None = None) -> list[Veto]:
    """Vetoes from the verify commands. A failure confined to files the phase never touched, all of
    which already failed when the phase began (`baseline`: command -> failing paths before any
    change), is not the phase's doing and is left to `preexisting` instead."""
    vetoes = []
    for result in results:
        if result.weakened:
            # Plain code, whatever the adjudicator says: a pass that exists only because the phase
            # edited its own verification is no pass (a fix is judged by the original checks).
            vetoes.append(Veto("executable", "verify_weakened",
                               f"`{result.command}` passes only with this phase's own edits to {', '.join(result.ignored)}, which the gate "
                               "does not count: a fix is judged by the checks as they stood when the phase began"))
        elif result.outcome == "ok" and not result.counts:
            vetoes.append(Veto("executable", "verify_stale", f"`{result.command}` passed before the phase's last change, so it proves nothing"))
        elif result.outcome != "ok" and not _preexisting(result, baseline):
            blame = result.implication
            code = "verify_failed_elsewhere" if blame.failing and not blame.implicated else "verify_failed"
            ignored = f" (the phase's edits to {', '.join(result.ignored)} were ignored: pinned verification)" if result.ignored else ""
            vetoes.append(Veto("executable", code, f"`{result.command}` {result.outcome} (exit {result.exit_code}): {blame.describe()}{ignored}"
                               + _said(result.output)))
    return vetoes


def _said(output: str) -> str:
    """The command's own words under its veto (head and tail): the person and the executor read
    what the check complained of, not only that it failed."""
    excerpt = output_excerpt(output)
    return ("\n" + "\n".join(f"    {line}" for line in excerpt)) if excerpt else ""


def preexisting(results: Sequence[VerifyResult], baseline: Mapping[str, Sequence[str]] | None) -> list[str]:
    """Failures that were there before the phase began, in files it never touched: recorded as
    defects (carried forward and reported), not held against the phase."""
    return [f"`{r.command}` already failed before phase work began, in files the phase did not touch: {', '.join(r.implication.failing)}"
            for r in results if r.outcome != "ok" and not r.weakened and _preexisting(r, baseline)]


def _preexisting(result: VerifyResult, baseline: Mapping[str, Sequence[str]] | None) -> bool:
    before = (baseline or {}).get(result.command)
    blame = result.implication
    return before is not None and bool(blame.failing) and not blame.implicated and set(blame.failing) <= set(before)


def decide(phase: Phase, vetoes: Sequence[Veto], verdict: Verdict | None, problem: str = "", notes: Sequence[str] = ()) -> GateDecision:
    veto_marks = tuple(dict.fromkeys(f"veto:{v.code}" for v in vetoes))
    tier = vetoes[0].rung if vetoes else "adjudicator"
    if verdict is None:
        # Fail-closed: no adjudicator, no close, whatever the other rungs said.
        return GateDecision(False, "adjudicator", None, phase.task_ids() + veto_marks, (), tuple(vetoes), problem or "no verdict")
    outstanding = verdict.outstanding + veto_marks
    closes = verdict.verdict in ("complete", "complete_with_defects") and not vetoes
    return GateDecision(closes, tier, verdict, outstanding, verdict.defects + tuple(notes), tuple(vetoes))
