"""The turn loop: the model sees the transcript and either calls tools or reports it is done; each
tool call of a turn runs for real, in order, before the next turn.

Every way a run ends goes through `_finish`, which reports `finished` with its reason, the entries
that landed on disk, and (after a kill mid-call) what the interrupted call did.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..commands import Cancellation
from ..tools import TOOLS, ToolContext
from ..workspace import EditRun, Workspace, WriteJournal
from .budgets import BudgetMeter, Limits, PricePort
from .compaction import compact_after_overflow, compact_near_limit, model_turns
from .context_window import DEFAULT_BUDGET_CHARS, fit
from .events import (
    BudgetUpdate,
    Finished,
    ProgressReporterPort,
    ProviderWarning,
    SessionStarted,
    TextDelta,
    TurnStarted,
    finished_message,
)
from .execution import ToolCrashed, ToolRunner
from .killswitch import KillSwitch
from .ports import (
    AssistantMessage,
    Message,
    ModelCallPort,
    Notice,
    Restart,
    TextChunk,
    ToolCall,
    ToolCallChunk,
    ToolResultMessage,
    ToolSpec,
    TurnEnd,
    Usage,
    UsageChunk,
    UserMessage,
)
from .prompt import agents_md, opening, system_prompt
from .sessions import SessionLog, SessionRecord, new_session_id
from .trust_gate import TrustGate

# Tools that only a blueprint run's executor or adjudicator gets.
BLUEPRINT_ONLY = frozenset({"phase_done", "mark_task", "submit_verdict"})
NEIGHBORHOOD_WAIT_S = 2.0  # the graph may add what it knows by then; the run never waits longer

Ranker = Callable[[Workspace, str], Sequence[dict[str, Any]]]


def tool_specs(exclude: frozenset[str] = BLUEPRINT_ONLY) -> list[ToolSpec]:
    """The tools as the model sees them, taken from the registry at run time."""
    return [ToolSpec(t.name, t.description, t.schema()) for name, t in TOOLS.items() if name not in exclude]


@dataclass
class AgentLoop:
    workspace: Workspace
    model: ModelCallPort
    reporter: ProgressReporterPort
    gate: TrustGate
    limits: Limits = field(default_factory=Limits)
    price: PricePort | None = None
    switch: KillSwitch = field(default_factory=KillSwitch)
    rank_neighborhoods: Ranker | None = None
    journal: WriteJournal | None = None
    note: str | None = None  # shown in session_started (the scripted provider says it replays)
    header_extra: dict[str, Any] = field(default_factory=dict)  # kept in the session header (e.g. the script path)
    context_chars: int = DEFAULT_BUDGET_CHARS  # what is sent per turn; older large tool results are elided past it

    async def run(self, request: str | None, resume: SessionRecord | None = None) -> Finished:
        self.meter = BudgetMeter(self.limits, self.model.model, self.price)
        self.landed: list[dict[str, Any]] = []
        self.turn = 0
        self._crash: ToolCrashed | None = None
        tools = tool_specs()
        self.context = ToolContext(self.workspace, run=EditRun(), journal=self.journal, killed=self.switch)
        # run_command reads these two by name: the grants it spends, and the handle whose cancel
        # kills its process group from the killing thread itself.
        self.context.trust = getattr(self.gate, "grants", None)
        self.context.cancellation = cancellation = Cancellation()
        self.switch.on_kill(cancellation.cancel)
        self.runner = ToolRunner(self.context, self.gate, self.switch, self.reporter, self.workspace.scrub)
        self.system = system_prompt(tools)
        self.tools = tools
        if resume is None:
            self.session = SessionLog(new_session_id())
            transcript, started = await self._open(request or "", tools)
        else:
            self.session = SessionLog(resume.session_id)
            transcript, started = self._reopen(resume, request, tools)
        self.reporter.report(started)
        timer = None
        if self.limits.timeout_s is not None:
            timer = asyncio.get_running_loop().call_later(self.limits.timeout_s, self.switch.kill, "timeout")
        try:
            return await self._turns(transcript)
        finally:
            if timer is not None:
                timer.cancel()

    async def _open(self, request: str, tools: list[ToolSpec]) -> tuple[list[Message], SessionStarted]:
        agents = agents_md(self.workspace)
        hoods = await self._neighborhoods(request)
        first = UserMessage(opening(request, agents, hoods))
        self.session.start(self.workspace.root, self.model.provider, self.model.model, request, **self.header_extra)
        self.session.message(first)
        started = SessionStarted(
            self.session.session_id, self.model.provider, self.model.model, False, self.note,
            tuple(t.name for t in tools), agents is not None, tuple(hoods),
        )
        return [first], started

    def _reopen(self, record: SessionRecord, request: str | None, tools: list[ToolSpec]) -> tuple[list[Message], SessionStarted]:
        # A resumed session is a new run: its own budgets, its own 65% edit guard (the person chose
        # to go on); only the turn numbers continue, so events and the session file read in order.
        transcript = list(record.transcript)
        self.turn = model_turns(transcript)  # turns folded into a compaction count too
        follow_up = request or ("Continue." if transcript and isinstance(transcript[-1], AssistantMessage) else None)
        if follow_up:
            transcript.append(UserMessage(follow_up))
            self.session.message(transcript[-1])
        self.session.append("resumed", provider=self.model.provider, model=self.model.model, request=request)
        started = SessionStarted(record.session_id, self.model.provider, self.model.model, True, self.note, tuple(t.name for t in tools))
        return transcript, started

    async def _neighborhoods(self, request: str) -> list[dict[str, Any]]:
        """Best effort: whatever the graph ranks within a short wait; nothing if it is missing,
        building, slow or failing (the run never waits on it, and says nothing it does not know)."""
        if self.rank_neighborhoods is None:
            return []
        loop = asyncio.get_running_loop()
        found: asyncio.Future[list[dict[str, Any]]] = loop.create_future()

        def work() -> None:
            try:
                hoods = list(self.rank_neighborhoods(self.workspace, request))  # type: ignore[misc]
            except Exception:  # noqa: BLE001 - the graph is best-effort: a failure means no neighborhoods
                hoods = []
            try:
                loop.call_soon_threadsafe(lambda: found.done() or found.set_result(hoods))
            except RuntimeError:
                pass  # the run ended (and its event loop closed) before the graph answered

        threading.Thread(target=work, name="neighborhoods", daemon=True).start()
        deadline = loop.time() + NEIGHBORHOOD_WAIT_S
        while not found.done() and not self.switch.killed and loop.time() < deadline:
            await asyncio.wait({found}, timeout=0.05)  # in slices: a kill must not wait for the graph
        return found.result() if found.done() else []

    async def _turns(self, transcript: list[Message]) -> Finished:
        while True:
            if self.switch.killed:
                return self._finish(self.switch.reason or "killed")
            if not self.meter.turns_left():
                return self._finish("max_turns", f"the run used its {self.limits.max_turns} turns and the model still had work to do")
            self.turn += 1
            self._streamed_chars = 0  # text of this turn so far (a turn cut by a kill still cost it)
            self.meter.count_turn()
            self.reporter.report(TurnStarted(self.turn))
            task = asyncio.create_task(self._model_turn(transcript))
            try:
                with self.switch.cancels(task):
                    text, calls, usage = await self._until_killed(task)
            except asyncio.CancelledError:
                if not self.switch.killed:
                    raise
                if self._streamed_chars:  # the cut turn cost what streamed; the server never said how much
                    self.meter.add(Usage(0, self._streamed_chars // 4, estimated=True))
                self._report_budget()
                return self._finish(self.switch.reason or "killed", "the model turn in flight was cut off")
            except Exception as error:  # noqa: BLE001 - ProviderError, or a wire format we could not read
                self.meter.add(getattr(error, "usage", None) or Usage())  # a failed turn still cost what streamed
                self._report_budget()
                return self._finish("error", self.workspace.scrub(str(error)))
            self.meter.add(usage)
            calls = self._unique_ids(calls, transcript)
            reply = AssistantMessage(text, calls)
            transcript.append(reply)
            self.session.message(reply)
            self._report_budget()
            if not calls:
                return self._finish("done", finished_message(text))
            interrupted = await self._run_calls(calls, transcript)
            if interrupted is not None:
                return self._finish(self.switch.reason or "killed", "killed while a tool ran", interrupted)
            if isinstance(self._crash, ToolCrashed):
                return self._finish("error", str(self._crash))
            reason = self.meter.exhausted()
            if reason is not None:
                return self._finish(reason, f"budget reached: {reason}")

    async def _until_killed(self, task: asyncio.Task[Any]) -> Any:
        """The turn's result; after a kill, CancelledError once the turn has stopped. The switch
        cancels the task itself; should a library swallow that cancel, it is repeated here."""
        loop = asyncio.get_running_loop()
        killed = asyncio.Event()
        unregister = self.switch.on_kill(lambda: loop.call_soon_threadsafe(killed.set))
        waiter = asyncio.ensure_future(killed.wait())
        try:
            while True:
                if waiter.done():
                    done, _ = await asyncio.wait({task}, timeout=0.05)
                else:
                    done, _ = await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
                if task in done:
                    return task.result()
                if waiter.done():
                    task.cancel()
        finally:
            unregister()
            waiter.cancel()

    async def _model_turn(self, transcript: list[Message]) -> tuple[str, tuple[ToolCall, ...], Usage]:
        # Near the context limit the older transcript becomes a summary plus code-built facts
        # (agent/compaction.py); `fit` still trims whatever remains too large. When the server
        # says the window is full before anything streamed, compact once and ask again.
        usage = await compact_near_limit(transcript, self.model, self.workspace, self.context_chars, self.session, self.reporter, self.turn) or Usage()
        try:
            return await self._stream_turn(transcript, usage)
        except Exception as error:
            spent = await compact_after_overflow(error, transcript, self.model, self.workspace, self.session, self.reporter, self.turn)
            if spent is None:
                raise
            return await self._stream_turn(transcript, usage + spent)

    async def _stream_turn(self, transcript: list[Message], usage: Usage) -> tuple[str, tuple[ToolCall, ...], Usage]:
        text: list[str] = []
        calls: list[ToolCall] = []
        stream = self.model.stream_turn(self.system, fit(transcript, self.context_chars), self.tools)
        async with contextlib.aclosing(stream):  # type: ignore[type-var]
            async for item in stream:
                if isinstance(item, TextChunk):
                    text.append(item.text)
                    self._streamed_chars += len(item.text)
                    self.reporter.report(TextDelta(self.turn, item.text))
                elif isinstance(item, ToolCallChunk):
                    calls.append(item.call)
                elif isinstance(item, UsageChunk):
                    usage = usage + item.usage
                elif isinstance(item, Notice):
                    self.reporter.report(ProviderWarning(self.turn, item.kind, item.text))
                elif isinstance(item, Restart):
                    text.clear()  # the provider asks again: what streamed so far is void (a warning said so)
                elif isinstance(item, TurnEnd):
                    pass
        return "".join(text), tuple(calls), usage

    async def _run_calls(self, calls: tuple[ToolCall, ...], transcript: list[Message]) -> dict[str, Any] | None:
        """Run the turn's calls in order. Returns what was interrupted when the switch was thrown."""
        for index, tool_call in enumerate(calls):
            if self.switch.killed:
                self._skip(calls[index:], transcript, "not run: the run was killed before this call")
                return {"tool": tool_call.name, "call_id": tool_call.id, "ran": False, "landed": []}
            try:
                outcome = await self.runner.run(self.turn, tool_call)
            except ToolCrashed as crash:
                self._crash = crash
                self._skip(calls[index:], transcript, "not run: an earlier call in this turn failed inside konstruct")
                return None
            transcript.append(outcome.message)
            self.session.message(outcome.message)
            self.landed.extend(outcome.landed)
            if self.switch.killed:
                self._skip(calls[index + 1 :], transcript, "not run: the run was killed before this call")
                return {
                    "tool": tool_call.name,
                    "call_id": tool_call.id,
                    "ran": True,
                    "outcome": "unknown: it had not returned" if outcome.unfinished else "returned",
                    "statuses": list(outcome.statuses),
                    "landed": [entry["path"] for entry in outcome.landed],
                }
        return None

    def _skip(self, calls: Sequence[ToolCall], transcript: list[Message], why: str) -> None:
        for tool_call in calls:
            message = ToolResultMessage(tool_call.id, tool_call.name, f'{{"error": "{why}"}}', True)
            transcript.append(message)
            self.session.message(message)

    def _unique_ids(self, calls: tuple[ToolCall, ...], transcript: list[Message]) -> tuple[ToolCall, ...]:
        """Some local servers number calls from 0 every turn; results are matched by id, so make them unique."""
        seen = {c.id for m in transcript if isinstance(m, AssistantMessage) for c in m.tool_calls}
        unique = []
        for number, tool_call in enumerate(calls, 1):
            if not tool_call.id or tool_call.id in seen:
                tool_call = ToolCall(f"call_{self.turn}_{number}", tool_call.name, tool_call.arguments, tool_call.problem)
            seen.add(tool_call.id)
            unique.append(tool_call)
        return tuple(unique)

    def _report_budget(self) -> BudgetUpdate:
        update = self.meter.update()
        self.reporter.report(update)
        self.session.append("budget", turns=update.turns, input_tokens=update.input_tokens, output_tokens=update.output_tokens, tokens_estimated=update.tokens_estimated, cost_usd=update.cost_usd)
        return update

    def _finish(self, reason: str, message: str = "", interrupted: dict[str, Any] | None = None) -> Finished:
        finished = Finished(reason, self.session.session_id, self.meter.turns, message, tuple(self.landed), interrupted)
        self.session.append("finished", reason=reason, message=message, landed=self.landed, interrupted=interrupted)
        self.reporter.report(finished)
        return finished
