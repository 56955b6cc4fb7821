"""A blueprint run: phases in order, one fresh executor session per phase, the gate after every
settled phase turn, retries, the watchdog, and the report and audit written as things happen.

Everything the run decides from is read back from the run store, so `resume` after a crash (even
SIGKILL) continues from what was recorded: closed phases stay closed, an attempt that was cut off
is re-run in a fresh session seeded with what its tool calls did, and a gate that found no
adjudicator is run again before any more executor work.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from ..agent import (
    BudgetMeter,
    Finished,
    KillSwitch,
    Limits,
    PricePort,
    ProgressReporterPort,
    SessionGate,
    ToolSpec,
    ToolStarted,
    Usage,
)
from ..tools import TOOLS, Tool
from ..trust import DenyAll, TrustSession
from ..workspace import Workspace, WriteJournal
from . import report
from .claims import MarkTask, PhaseClaims, PhaseDone
from .disk import PhaseDisk
from .events import PhaseClosed, PhaseStarted, RunStarted, SessionOpened, WatchdogAlarm
from .ledger import attempts_digest, recorded_changes
from .models import ModelSource
from .owner import owner_token
from .phase_gate import PhaseGate
from .plan import Blueprint, Phase
from .prompts import (
    adjudicator_system,
    executor_opening,
    executor_system,
    nudge_message,
)
from .retries import RetryPolicy
from .run_options import Outcome, RunBroker, RunOptions, run_unit
from .session import BlueprintSession, PhaseSession
from .store import GateRecord, RunStore
from .watchdog import Alarm, Watchdog

_TOUCH_EVERY_S = 1.0


def new_run_id() -> str:
    return time.strftime("bp-%Y%m%d-%H%M%S-", time.gmtime()) + uuid.uuid4().hex[:6]


class Orchestrator:
    def __init__(self, store: RunStore, run_id: str, blueprint: Blueprint, workspace: Workspace, models: ModelSource,
                 reporter: ProgressReporterPort, options: RunOptions | None = None, switch: KillSwitch | None = None,
                 price: PricePort | None = None) -> None:
        self.store = store
        self.run_id = run_id
        self.blueprint = blueprint
        self.workspace = workspace
        self.models = models
        self.reporter = reporter
        self.options = options = options or RunOptions()
        self.switch = switch or KillSwitch()
        self.policy = RetryPolicy(options.max_retries)
        self.watchdog = Watchdog(run_id, self._alarm, options.tick_s, options.silent_after_s, options.quiet_after_s)
        self.trust = SessionGate(TrustSession(workspace.root, broker=options.broker or RunBroker(options.grant_commands)))
        self._quiet: Alarm | None = None
        self.meter = BudgetMeter(Limits(max_turns=None, max_tokens=options.max_tokens, max_cost_usd=options.max_cost_usd), models.model, price)
        # Budgets are per process run, as in `konstruct run`: a resume is the person's decision to go
        # on and starts with budgets of its own (the store keeps every session's usage for the record).
        self._main: asyncio.Task[Any] | None = None
        self.disk = PhaseDisk(store, run_id, workspace)
        self.gate = PhaseGate(store, run_id, blueprint, workspace, reporter, self.watchdog, self.switch, options, self._open, self.disk)

    # The run.

    async def run(self, resumed: bool = False) -> Finished:
        self.reporter.report(RunStarted(
            session_id=self.run_id, provider=self.models.provider, model=self.models.model, resumed=resumed,
            note=getattr(self.models, "note", None), tools=tuple(TOOLS) + ("phase_done", "mark_task"),
            run_id=self.run_id, title=self.blueprint.title, phases=tuple(p.id for p in self.blueprint.phases)))
        # Who drives the run (pid and start time): `status` says `interrupted` once that process is gone.
        self.store.claim_run(self.run_id, owner_token())
        interrupted = self.store.end_open_sessions(self.run_id, "interrupted")
        if resumed:
            self.store.add_audit(self.run_id, None, {"kind": "resumed", "detail": {"interrupted_sessions": interrupted}})
        self.store.set_run(self.run_id, "running")
        report.backfill_phase_sections(self.store, self.run_id, self.blueprint)
        self.watchdog.start()
        self._main = asyncio.current_task()
        try:
            for index, phase in enumerate(self.blueprint.phases):
                status = {p.phase_id: p.status for p in self.store.phases(self.run_id)}[phase.id]
                if status != "closed":
                    await self._phase(phase)
                    if self.options.pause_after_phase and index + 1 < len(self.blueprint.phases):
                        return self._end("parked", "checkpoint", f"phase {phase.id} closed; the run goes on from this checkpoint")
            return self._end("done", "done", f"all {len(self.blueprint.phases)} phases closed")
        except Outcome as outcome:
            reason = (self.switch.reason or "killed") if outcome.reason == "killed" else outcome.reason
            if reason in ("max_tokens", "max_cost"):
                outcome.message = f"budget reached ({reason}); the run is parked: `konstruct blueprint resume {self.run_id}` goes on with a budget of its own"
            return self._end("stalled" if reason == "stalled" else "parked", reason, outcome.message)
        except asyncio.CancelledError:
            if self._quiet is not None:
                return self._end("parked", "error", f"watchdog: no session running and no progress for {self._quiet.idle_s:.0f} s")
            return self._end("parked", "killed", self.switch.reason or "killed")
        except Exception as error:  # noqa: BLE001 - a bug: the run is parked with what it recorded, and says what broke
            return self._end("parked", "error", f"internal error: {type(error).__name__}: {self.workspace.scrub(str(error))}")
        finally:
            await self.watchdog.stop()
            await self.models.aclose()

    def _end(self, status: str, reason: str, message: str) -> Finished:
        self.store.end_open_sessions(self.run_id, reason)
        for phase in self.store.phases(self.run_id):
            if phase.status == "running":  # cut off mid-phase (killed, a failed model): resumable
                self.store.set_phase(self.run_id, phase.phase_id, "parked")
        report.write_final_sections(self.store, self.run_id, self.blueprint, status, reason, message)
        self.store.set_run(self.run_id, status, reason, message)
        changed = []
        for phase in self.blueprint.phases:
            changed += [{"phase": phase.id, "path": p} for p in recorded_changes(self.store, self.run_id, phase.id)]
        finished = Finished(reason=reason, session_id=self.run_id, turns=self.meter.turns, message=message, landed=tuple(changed))
        self.reporter.report(finished)
        return finished

    def _alarm(self, alarm: Alarm) -> None:
        phase = next((p.phase_id for p in self.store.phases(self.run_id) if p.status == "running"), None)
        action = "session stopped; the gate judges what it left" if alarm.kind == "silent" else "run stopped and parked"
        self.store.add_audit(self.run_id, phase, {"kind": "watchdog", "detail": {"kind": alarm.kind, "session": alarm.session_id, "idle_s": round(alarm.idle_s, 1), "action": action}})
        self.reporter.report(WatchdogAlarm(self.run_id, alarm.kind, phase, alarm.session_id, round(alarm.idle_s, 1), action))
        if alarm.kind == "quiet" and self._main is not None:
            self._quiet = alarm
            self._main.cancel()

    # One phase.

    async def _phase(self, phase: Phase) -> None:
        store, run_id = self.store, self.run_id
        gates = store.gates(run_id, phase.id)
        attempt = max((g.attempt for g in gates), default=0)
        started = store.attempts(run_id, phase.id)
        regate = bool(gates) and gates[-1].decision == "no_verdict"
        if not regate:
            attempt = max(attempt + 1, started)  # an attempt cut off before its gate is run again
        store.set_phase(run_id, phase.id, "running")
        self.disk.begin(phase)  # the phase's start as the disk shows it (recorded: a resume measures from it too)
        await run_unit(self.options, f"baseline {phase.id}", lambda: self.gate.baseline(phase))
        session: BlueprintSession | None = None
        while True:
            if not regate:
                current = session
                session = await run_unit(self.options, f"attempt {phase.id}.{attempt}", lambda: self._work(phase, attempt, current, gates))
            regate = False
            decision = await self.gate.judge(phase, attempt)
            step = "no_verdict" if decision.verdict is None else self.policy.next_step(attempt, decision, gates)
            record = self.gate.record(phase, attempt, decision, step)
            gates.append(record)
            if step == "close":
                if session is not None:
                    store.end_session(session.session_id, "retired")
                self.reporter.report(PhaseClosed(
                    run_id, phase.id, verdict=decision.verdict.verdict if decision.verdict else "", attempts=attempt,
                    defects=decision.defects, changed=tuple(c.path for c in self.gate.changes)))
                report.write_phase_section(store, run_id, self.blueprint, phase, "closed")
                return
            if step in ("no_verdict", "stalled", "exhausted"):
                report.write_phase_section(store, run_id, self.blueprint, phase, "stalled" if step != "no_verdict" else "parked")
                if step == "no_verdict":
                    raise Outcome("error", f"phase {phase.id} not closed: {decision.problem} (fail-closed; resume to ask again)")
                why = ("the same outstanding set twice running: " + ", ".join(decision.outstanding)) if step == "stalled" \
                    else f"still outstanding after {attempt} attempts: " + ", ".join(decision.outstanding)
                raise Outcome("stalled", f"phase {phase.id} stalled: {why}")
            attempt += 1

    async def _work(self, phase: Phase, attempt: int, session: BlueprintSession | None, gates: list[GateRecord]) -> BlueprintSession | None:
        """One executor turn of the phase: open or nudge a session and run it until it settles."""
        nudges = [g.detail["nudge"] for g in gates if g.decision != "no_verdict" and g.detail.get("nudge")]
        fresh = session is None or self.policy.fresh_session(attempt)
        if fresh:
            if session is not None:
                self.store.end_session(session.session_id, "retired")
            claims = PhaseClaims(phase)
            tools: dict[str, Tool[Any]] = dict(TOOLS)
            tools.update({"phase_done": PhaseDone(claims), "mark_task": MarkTask(claims)})
            try:
                session = self._open("executor", phase, attempt, tools, frozenset({"phase_done"}))
            except Exception as error:  # noqa: BLE001 - no model to talk to (a missing script, an unusable setting)
                raise Outcome("error", f"phase {phase.id}: the executor's model could not be started: {error}") from None
            calls = self.store.calls(self.run_id, phase.id, role="executor")
            digest = attempts_digest(phase, calls, gates, recorded_changes(self.store, self.run_id, phase.id)) if (gates or calls) else ""
            text = f"Executor session {session.session_id} (phase {phase.id}, attempt {attempt}).\n\n" + executor_opening(
                self.blueprint, phase, self.store.ledger(self.run_id), self.store.defects(self.run_id), digest, nudges)
        else:
            assert session is not None
            text = nudge_message(nudges)
        self.store.start_attempt(self.run_id, phase.id, attempt, nudges[-1] if nudges and attempt > 1 else "")
        self.disk.refresh()  # the attempt's start: whatever moved since the last look was not this session
        self.reporter.report(PhaseStarted(self.run_id, phase.id, phase.title, attempt, session.session_id, fresh,
                                          tuple({"id": t.id, "text": t.text} for t in phase.tasks), nudges[-1] if nudges and not fresh else ""))
        self.watchdog.watch(session)
        try:
            outcome = await session.advance(text)
        finally:
            self.watchdog.watch(None)
        if outcome.reason == "killed":
            raise Outcome("killed", self.switch.reason or "killed")
        if outcome.reason == "error":
            self.store.end_session(session.session_id, "error", outcome.text)
            raise Outcome("error", f"phase {phase.id}: the executor's model failed: {outcome.message}")
        if outcome.reason != "settled":  # silent, deadline, max_turns: this session is not reused
            self.store.end_session(session.session_id, outcome.reason, outcome.text)
            return None
        return session

    def _open(self, role: str, phase: Phase, attempt: int, tools: dict[str, Tool[Any]], settle_after: frozenset[str]) -> PhaseSession:
        session_id = f"{self.run_id}-{phase.id}-{role[:3]}{attempt}-{uuid.uuid4().hex[:6]}"
        self.store.start_session(session_id, self.run_id, phase.id, attempt, role)
        self.reporter.report(SessionOpened(self.run_id, phase.id, attempt, role, session_id))
        last_touch = [0.0]

        is_executor = role == "executor"

        def record(tool: str, arguments: dict[str, Any], ok: bool, result: dict[str, Any]) -> None:
            self.store.record_call(session_id, self.run_id, phase.id, role, tool, arguments, ok, result)
            if is_executor:
                self.disk.after_call(tool, arguments, result)  # label what this call changed on disk

        def alive() -> None:
            self.watchdog.alive()
            now = time.monotonic()
            if now - last_touch[0] >= _TOUCH_EVERY_S:
                last_touch[0] = now
                self.store.touch_session(session_id)

        def on_usage(usage: Usage) -> None:
            self.store.add_usage(session_id, usage.input_tokens, usage.output_tokens)
            self.meter.count_turn()
            self.meter.add(usage)
            self.reporter.report(self.meter.update())
            spent = self.meter.exhausted()
            if spent is not None:  # the budget is for the whole unattended run: stop it, parked
                self.switch.kill(spent)

        return PhaseSession(
            session_id,
            system=self._system(role, tools),
            tools=tools,
            model=self.models.open(role, phase.id, attempt),
            workspace=self.workspace,
            reporter=_WatchingReporter(self.reporter, self.disk) if is_executor else self.reporter,
            record=record,
            alive=alive,
            trust=self.trust if is_executor else SessionGate(TrustSession(self.workspace.root, broker=DenyAll())),
            switch=self.switch,
            turn_deadline_s=self.options.turn_deadline_s,
            max_turns=self.options.executor_max_turns if is_executor else self.options.adjudicator_max_turns,
            settle_after=settle_after,
            on_usage=on_usage,
            journal=WriteJournal(self.workspace.root) if is_executor else None,  # `konstruct undo` can take edits back
        )

    def _system(self, role: str, tools: dict[str, Tool[Any]]) -> str:
        specs = [ToolSpec(t.name, t.description, {}) for t in tools.values()]
        return executor_system(specs) if role == "executor" else adjudicator_system(specs)


class _WatchingReporter:
    """The executor's events pass through unchanged; before a call that can change files starts, the
    disk is looked at, so what the call changes is told apart from what happened before it."""

    def __init__(self, inner: ProgressReporterPort, disk: PhaseDisk) -> None:
        self.inner = inner
        self.disk = disk

    def report(self, event: Any) -> None:
        if isinstance(event, ToolStarted):
            self.disk.before_call(event.tool)
        self.inner.report(event)
