"""Running the completion gate for one phase attempt: the verify commands (and the baseline
before the phase's first change), the rules of gate.py, the adjudicator session, and the record of
the decision (gate row, ledger, defects, audit, the `verdict` event) written as one transaction.
The rules themselves are plain code in gate.py; this module does the I/O around them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..agent import KillSwitch, ProgressReporterPort
from ..tools import Tool
from ..workspace import Workspace
from .adjudicator import adjudicate
from .events import VerdictReached
from .gate import (
    GateDecision,
    changed_files,
    decide,
    executable,
    last_write,
    mechanical,
    preexisting,
)
from .ledger import phase_summary
from .plan import Blueprint, Phase
from .retries import nudge_for
from .run_options import Outcome, RunOptions
from .session import BlueprintSession
from .store import GateRecord, RunStore
from .verification import VerifyResult, run_verification
from .watchdog import Watchdog

OpenSession = Callable[[str, Phase, int, dict[str, Tool[Any]], frozenset[str]], BlueprintSession]


class PhaseGate:
    def __init__(self, store: RunStore, run_id: str, blueprint: Blueprint, workspace: Workspace, reporter: ProgressReporterPort,
                 watchdog: Watchdog, switch: KillSwitch, options: RunOptions, open_session: OpenSession) -> None:
        self.store = store
        self.run_id = run_id
        self.blueprint = blueprint
        self.workspace = workspace
        self.reporter = reporter
        self.watchdog = watchdog
        self.switch = switch
        self.options = options
        self.open_session = open_session

    async def judge(self, phase: Phase, attempt: int) -> GateDecision:
        calls = self.store.calls(self.run_id, phase.id, role="executor")
        vetoes = mechanical(phase, calls)
        changed = changed_files(calls)
        results = await self.verify(phase, attempt, changed, last_write(calls)) if phase.verify else []
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
            verdict, problem, session_id = await adjudicate(adjudicator, self.blueprint, phase, changed, vetoes, results,
                                                            deadline_s=self.options.adjudicator_deadline_s, known=notes)
        finally:
            self.watchdog.watch(None)
        self.store.end_session(session_id, "verdict" if verdict else "no_verdict")
        if problem == "killed" or self.switch.killed:
            raise Outcome("killed", self.switch.reason or "killed")
        return decide(phase, vetoes, verdict, problem, notes)

    async def verify(self, phase: Phase, attempt: int, touched: tuple[str, ...], last_write_seq: int) -> list[VerifyResult]:
        """Run the phase's verify commands and record them (attempt 0: the baseline before any change)."""
        self.watchdog.busy(len(phase.verify) * phase.verify_timeout_s + self.options.tick_s)
        verifying = asyncio.ensure_future(run_verification(
            phase.verify, self.workspace, touched, timeout_s=phase.verify_timeout_s,
            last_call=self.store.last_call_seq, last_write=last_write_seq))
        try:
            with self.switch.cancels(verifying):  # a kill stops the command's process group at once
                results = await verifying
        finally:
            self.watchdog.busy(None)
        for r in results:
            self.store.record_verification(self.run_id, phase.id, attempt, r.command, r.after_call, r.exit_code, r.outcome, r.output, list(r.implication.failing))
        return results

    async def baseline(self, phase: Phase) -> None:
        """Before the phase's first change: how the verify commands fare now, so a failure that was
        already there (in files the phase never touches) is not held against the phase."""
        if not phase.verify or self.store.calls(self.run_id, phase.id, role="executor"):
            return
        if any(row["attempt"] == 0 for row in self.store.verifications(self.run_id, phase.id)):
            return
        await self.verify(phase, 0, (), 0)

    def record(self, phase: Phase, attempt: int, decision: GateDecision, step: str) -> GateRecord:
        verdict = decision.verdict
        nudge = nudge_for(decision, {t.id: t.text for t in phase.tasks}) if step != "close" else ""
        evidence = list(verdict.evidence_json()) if verdict else []
        detail = {"nudge": nudge, "evidence": evidence, "defects": list(decision.defects), "problem": decision.problem,
                  "vetoes": [{"rung": v.rung, "code": v.code, "message": v.message} for v in decision.vetoes]}
        record = GateRecord(phase.id, attempt, step, decision.tier, verdict.verdict if verdict else None, decision.outstanding, detail)
        closing = step == "close"
        calls = self.store.calls(self.run_id, phase.id)
        attempts = attempt
        self.store.record_gate(
            self.run_id, record,
            summary=phase_summary(phase, calls, record, attempts) if closing else None,
            defects=decision.defects if closing else (),
            audit={"kind": "gate", "tier": decision.tier, "verdict": record.verdict, "evidence": evidence, "defects": list(decision.defects),
                   "detail": {"attempt": attempt, "decision": step, "outstanding": list(decision.outstanding),
                              "vetoes": detail["vetoes"], "problem": decision.problem}},
            phase_status="closed" if closing else ("stalled" if step in ("stalled", "exhausted") else ("parked" if step == "no_verdict" else None)),
        )
        message = decision.problem or nudge
        self.reporter.report(VerdictReached(self.run_id, phase.id, attempt, decision.tier, record.verdict, step, decision.outstanding,
                                            tuple(evidence), decision.defects, tuple(v.message for v in decision.vetoes), message))
        return record
