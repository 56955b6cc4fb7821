"""Running the completion gate for one phase attempt: the verify commands (and the baseline
before the phase's first change), the rules of gate.py, the adjudicator session, and the record of
the decision (gate row, ledger, defects, audit, the `verdict` event) written as one transaction.
The rules themselves are plain code in gate.py; this module does the I/O around them.

Everything is judged from the disk (disk.py): the changed set is the diff against the phase's
start, the verify commands run on the verification as it stood then (in a scratch copy with the
phase's edits to pinned files reverted when there are any: scratch.py, pinning.py), and a pass counts
only if the disk still holds what was verified when the gate decides."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..agent import KillSwitch, ProgressReporterPort
from ..tools import Tool
from ..workspace import TreeSnapshot, Workspace, changes_between
from .adjudicator import adjudicate
from .disk import Change, PhaseDisk
from .events import VerdictReached
from .gate import (
    GateDecision,
    Veto,
    decide,
    executable,
    mechanical,
    preexisting,
)
from .ledger import phase_summary
from .plan import Blueprint, Phase
from .retries import nudge_for
from .run_options import Outcome, RunOptions, run_unit
from .scratch import ScratchCopy
from .session import BlueprintSession
from .store import GateRecord, RunStore
from .verification import VerifyResult, run_verification
from .watchdog import Watchdog

OpenSession = Callable[[str, Phase, int, dict[str, Tool[Any]], frozenset[str]], BlueprintSession]


class PhaseGate:
    def __init__(self, store: RunStore, run_id: str, blueprint: Blueprint, workspace: Workspace, reporter: ProgressReporterPort,
                 watchdog: Watchdog, switch: KillSwitch, options: RunOptions, open_session: OpenSession, disk: PhaseDisk) -> None:
        self.store = store
        self.run_id = run_id
        self.blueprint = blueprint
        self.workspace = workspace
        self.reporter = reporter
        self.watchdog = watchdog
        self.switch = switch
        self.options = options
        self.open_session = open_session
        self.disk = disk
        self.changes: list[Change] = []
        self.ignored: tuple[str, ...] = ()

    async def judge(self, phase: Phase, attempt: int) -> GateDecision:
        now = self.disk.refresh()
        self.changes = self.disk.changes(now)
        changed = tuple(c.path for c in self.changes)
        vetoes = mechanical(phase, changed)
        revert = self.disk.reversion(now) if phase.verify else {}
        self.ignored = tuple(sorted(revert))
        results = await run_unit(self.options, f"verify {phase.id}.{attempt}", lambda: self.verify(phase, attempt, changed, now, revert)) if phase.verify else []
        baseline = {row["command"]: row["failing"] for row in self.store.verifications(self.run_id, phase.id)
                    if row["attempt"] == 0 and row["outcome"] != "ok"}
        vetoes += executable(results, baseline)
        notes = preexisting(results, baseline)

        opened: list[BlueprintSession] = []

        def adjudicator(role: str, tools: dict[str, Tool[Any]], settle_after: frozenset[str]) -> BlueprintSession:
            opened.append(self.open_session(role, phase, attempt, tools, settle_after))
            self.watchdog.watch(opened[-1])
            return opened[-1]

        try:
            verdict, problem, session_id = await run_unit(self.options, f"adjudicate {phase.id}.{attempt}", lambda: adjudicate(
                adjudicator, self.blueprint, phase, self.changes, vetoes, results, deadline_s=self.options.adjudicator_deadline_s,
                known=notes, ignored=self.disk.ignored_diff(revert) if revert else ""))
        finally:
            self.watchdog.watch(None)
        self.store.end_session(session_id, "verdict" if verdict else "no_verdict")
        if problem == "killed" or self.switch.killed:
            raise Outcome("killed", self.switch.reason or "killed")
        if phase.verify:
            moved = self._moved_since(now)
            if moved:  # something changed the disk after it was verified: that pass proves nothing
                vetoes.append(Veto("executable", "verify_stale", f"the disk changed after the verification ran ({', '.join(moved[:10])}), so its pass proves nothing"))
        return decide(phase, vetoes, verdict, problem, notes)

    async def verify(self, phase: Phase, attempt: int, touched: tuple[str, ...], now: TreeSnapshot | None = None,
                     revert: Mapping[str, bytes | None] | None = None) -> list[VerifyResult]:
        """Run the phase's verify commands in a scratch copy of the disk `now` with the `revert`
        (pinned) bytes put back, and record them (attempt 0: the baseline before any change)."""
        revert = dict(revert or {})
        results = await self._run(phase.verify, phase, touched, revert)
        results = [replace(r, ignored=tuple(sorted(revert))) for r in results]
        failed = tuple(r.command for r in results if r.outcome != "ok")
        if revert and failed:
            # Would it pass on the phase's own edits to its verification? Then that is all it passes on.
            loose = {r.command for r in await self._run(failed, phase, touched, {}) if r.outcome == "ok"}
            results = [replace(r, weakened=r.command in loose) for r in results]
        added = self.disk.added_tests(now) if now is not None else ()
        passed = tuple(r.command for r in results if r.outcome == "ok")
        if added and passed:
            # New tests run, but the original ones must pass without them: a new test file that
            # ends the run early (os._exit(0)) or patches the code under test rigs the verdict.
            strict = {r.command for r in await self._run(passed, phase, touched, revert | dict.fromkeys(added))
                      if r.outcome != "ok" and not _ran_no_tests(r)}
            results = [replace(r, weakened=True, ignored=r.ignored + added) if r.command in strict else r for r in results]
        moved = self._moved_since(now) if now is not None else ()
        results = [replace(r, counts=not moved) for r in results]
        for r in results:
            self.store.record_verification(self.run_id, phase.id, attempt, r.command, r.after_call, r.exit_code, r.outcome, r.output, list(r.implication.failing))
        return results

    async def _run(self, commands: Sequence[str], phase: Phase, touched: tuple[str, ...], revert: dict[str, bytes | None]) -> list[VerifyResult]:
        """With nothing to revert the commands run in the workspace itself, as a person's would (what
        they write there is labelled `verification`, never the phase's change); otherwise in a scratch
        copy holding the reverted bytes, so the person's tree is never touched."""
        self.watchdog.busy(len(commands) * phase.verify_timeout_s + self.options.tick_s)
        try:
            if not revert:
                results = []
                for command in commands:
                    with self.disk.verifying(command):
                        results += await self._verify_in(command, touched, phase, None)
                return results
            with ScratchCopy(self.workspace.root, revert) as folder:
                results = []
                for command in commands:
                    results += await self._verify_in(command, touched, phase, folder)
                return results
        finally:
            self.watchdog.busy(None)

    async def _verify_in(self, command: str, touched: tuple[str, ...], phase: Phase, folder: Path | None) -> list[VerifyResult]:
        verifying = asyncio.ensure_future(run_verification(
            [command], self.workspace, touched, timeout_s=phase.verify_timeout_s, last_call=self.store.last_call_seq, folder=folder))
        with self.switch.cancels(verifying):  # a kill stops the command's process group at once
            return await verifying

    def _moved_since(self, then: TreeSnapshot) -> tuple[str, ...]:
        """What changed on disk since `then`, leaving out what only in-place verification wrote (a
        file the phase changed that moves while it is verified makes the pass stale all the same)."""
        moved = changes_between(then, self.disk.refresh()).paths
        mine = self.disk.only_verification()
        return tuple(p for p in moved if p not in mine)

    async def baseline(self, phase: Phase) -> None:
        """Before the phase's first change: how the verify commands fare now, so a failure that was
        already there (in files the phase never touches) is not held against the phase."""
        if not phase.verify or self.store.calls(self.run_id, phase.id, role="executor"):
            return
        if any(row["attempt"] == 0 for row in self.store.verifications(self.run_id, phase.id)):
            return
        await self.verify(phase, 0, ())

    def record(self, phase: Phase, attempt: int, decision: GateDecision, step: str) -> GateRecord:
        verdict = decision.verdict
        nudge = nudge_for(decision, {t.id: t.text for t in phase.tasks}) if step != "close" else ""
        evidence = list(verdict.evidence_json()) if verdict else []
        changed = [c.json() for c in self.changes]
        detail = {"nudge": nudge, "evidence": evidence, "defects": list(decision.defects), "problem": decision.problem,
                  "vetoes": [{"rung": v.rung, "code": v.code, "message": v.message} for v in decision.vetoes],
                  "changed": changed, "pinned_edited": list(self.ignored)}
        record = GateRecord(phase.id, attempt, step, decision.tier, verdict.verdict if verdict else None, decision.outstanding, detail)
        closing = step == "close"
        calls = self.store.calls(self.run_id, phase.id)
        attempts = attempt
        paths = [c.path for c in self.changes]
        self.store.record_gate(
            self.run_id, record,
            summary=phase_summary(phase, calls, record, attempts, paths) if closing else None,
            defects=decision.defects if closing else (),
            audit={"kind": "gate", "tier": decision.tier, "verdict": record.verdict, "evidence": evidence, "defects": list(decision.defects),
                   "detail": {"attempt": attempt, "decision": step, "outstanding": list(decision.outstanding),
                              "vetoes": detail["vetoes"], "problem": decision.problem,
                              "changed": changed, "pinned_edited": list(self.ignored)}},
            phase_status="closed" if closing else ("stalled" if step in ("stalled", "exhausted") else ("parked" if step == "no_verdict" else None)),
        )
        message = decision.problem or nudge
        self.reporter.report(VerdictReached(self.run_id, phase.id, attempt, decision.tier, record.verdict, step, decision.outstanding,
                                            tuple(evidence), decision.defects, tuple(v.message for v in decision.vetoes), message,
                                            tuple(changed), self.ignored))
        return record


_NO_TESTS = ("no tests ran", "Ran 0 tests", "No tests found", "collected 0 items")


def _ran_no_tests(result: VerifyResult) -> bool:
    """Without the phase's new tests there were none to run (pytest exits 5): nothing was rigged."""
    return any(marker in result.output for marker in _NO_TESTS)
