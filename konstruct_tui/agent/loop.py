"""The turn loop: the model sees the transcript and either calls tools or reports it is done; each
tool call of a turn runs for real, in order, before the next turn.

One loop serves pair-coding (`run`: a whole session, logged, with budgets and a `finished` event)
and every blueprint session (`advance`: the phase's executor or the adjudicator, with its own tool
set, system prompt and settle-after rule, the run's hooks, and no session file of its own), so the
kill switch, the context trim, the trust gate and the handling of a tool's own crash are the same
in both. `run` ends through `_finish`, which reports `finished` with its reason, the entries that
landed on disk, and (after a kill mid-call) what the interrupted call did.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..commands import Cancellation
from ..tools import TOOLS, Tool, ToolContext
from ..workspace import EditRun, Workspace, WriteJournal
from .budgets import BudgetMeter, Limits, PricePort
from .compaction import compact_after_overflow, compact_near_limit, model_turns
from .context_window import DEFAULT_BUDGET_CHARS, fit
from .events import (
    BudgetUpdate,
    Finished,
    ProgressReporterPort,
    ProviderWarning,
    ReasoningDelta,
    SessionStarted,
    TextDelta,
    TurnStarted,
    finished_message,
)
from .execution import CallOutcome, ToolCrashed, ToolRunner
from .killswitch import KillSwitch
from .ports import (
    AssistantMessage,
    Message,
    ModelCallPort,
    Notice,
    ReasoningChunk,
    ReasoningDone,
    ReasoningPart,
    Restart,
    TextChunk,
    ToolCall,
    ToolCallChunk,
    ToolResultMessage,
    ToolSpec,
    TurnDeadlinePassed,
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
DEADLINE_BACKSTOP_S = 5.0  # the provider enforces a turn deadline itself; this is the loop's backstop

Ranker = Callable[[Workspace, str], Sequence[dict[str, Any]]]


def tool_specs(exclude: frozenset[str] = BLUEPRINT_ONLY, tools: Mapping[str, Tool[Any]] = TOOLS) -> list[ToolSpec]:
    """The tools as the model sees them, taken from the registry (or the given set) at run time."""
    return [ToolSpec(t.name, t.description, t.schema()) for name, t in tools.items() if name not in exclude]


def _nothing() -> None:
    return None


@dataclass(frozen=True)
class TurnHooks:
    """What a caller that owns more than one session (a blueprint run) hears from the loop.

    `alive`: any sign of life (a turn starting, a streamed chunk, a tool call starting or ending),
    the watchdog's clock. `record`: each tool call once answered, before its `tool_finished` event
    and before the next call runs (the run store keeps it). `on_usage`: each finished turn's usage; a caller that sets it owns the budget
    (it counts, reports and enforces it), so the loop reports no `budget` events of its own.
    """

    alive: Callable[[], None] = _nothing
    record: Callable[[ToolCall, CallOutcome], None] | None = None
    on_usage: Callable[[Usage], None] | None = None


@dataclass(frozen=True)
class Stop:
    """Why `advance` returned: `done` (the model settled), `max_turns`, `max_tokens`, `max_cost`,
    `deadline` (a turn ran past its deadline), `error`, or the kill switch's reason."""

    reason: str
    message: str = ""
    text: str = ""  # the last assistant text
    interrupted: dict[str, Any] | None = None


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
    # What a blueprint session sets; the defaults are pair-coding's.
    tools: Mapping[str, Tool[Any]] | None = None  # None: the registry without the blueprint-only tools
    system: str | None = None  # None: the pair-coding prompt over the tools
    settle_after: frozenset[str] = frozenset()  # a successful call to one of these ends the turn (`phase_done`)
    hooks: TurnHooks = field(default_factory=TurnHooks)
    turn_deadline_s: float | None = None  # a backstop past the provider's own deadline, if set

    def __post_init__(self) -> None:
        self.turn = 0
        self.landed: list[dict[str, Any]] = []
        self.session: SessionLog | None = None
        self._runner: ToolRunner | None = None
        self._last_piece = 0.0  # when the turn in flight last streamed something (the backstop's clock)

    @property
    def specs(self) -> list[ToolSpec]:
        if self.tools is None:
            return tool_specs()
        return tool_specs(frozenset(), self.tools)

    def _prepare(self) -> ToolRunner:
        """The run's budget meter, tool context and runner, made once per loop (a blueprint session
        advances the same loop with every nudge)."""
        if self._runner is not None:
            return self._runner
        self.meter = BudgetMeter(self.limits, self.model.model, self.price)
        cancellation = Cancellation()
        self.switch.on_kill(cancellation.cancel)  # kills run_command's process groups from the killing thread
        # A gate that only answers `ask` has no grants for run_command to consult: the runner then asks first.
        grants = getattr(self.gate, "grants", None)
        context = ToolContext(self.workspace, run=EditRun(), journal=self.journal, killed=self.switch, trust=grants, cancellation=cancellation)
        tools = TOOLS if self.tools is None else self.tools
        self._runner = ToolRunner(context, self.gate, self.switch, self.reporter, self.workspace.scrub, tools, self.hooks.record)
        self._specs = self.specs
        self._system = self.system if self.system is not None else system_prompt(self._specs)
        return self._runner

    async def run(self, request: str | None, resume: SessionRecord | None = None) -> Finished:
        """A whole pair-coding session (or a resumed one): logged, timed, ended by `finished`."""
        self._prepare()
        if resume is None:
            self.session = SessionLog(new_session_id())
            transcript, started = await self._open(request or "", self._specs)
        else:
            self.session = SessionLog(resume.session_id)
            transcript, started = self._reopen(resume, request, self._specs)
        self.reporter.report(started)
        timer = None
        if self.limits.timeout_s is not None:
            timer = asyncio.get_running_loop().call_later(self.limits.timeout_s, self.switch.kill, "timeout")
        try:
            stop = await self._turns(transcript)
        finally:
            if timer is not None:
                timer.cancel()
        # Finish reasons are a contract (DESIGN §11): a slow turn is an `error` of the run.
        reason = "error" if stop.reason == "deadline" else stop.reason
        return self._finish(reason, stop.message, stop.interrupted)

    async def advance(self, transcript: list[Message], user_text: str) -> Stop:
        """Add a user message (a session's opening, or a nudge) and run turns until the model settles."""
        self._prepare()
        transcript.append(UserMessage(user_text))
        return await self._turns(transcript)

    async def _open(self, request: str, tools: list[ToolSpec]) -> tuple[list[Message], SessionStarted]:
        agents = agents_md(self.workspace)
        hoods = await self._neighborhoods(request)
        first = UserMessage(opening(request, agents, hoods))
        assert self.session is not None
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
        assert self.session is not None
        if follow_up:
            transcript.append(UserMessage(follow_up))
            self.session.message(transcript[-1])
        self.session.append("resumed", provider=self.model.provider, model=self.model.model, request=request)
        started = SessionStarted(record.session_id, self.model.provider, self.model.model, True, self.note, tuple(t.name for t in tools))
        return transcript, started

    async def _neighborhoods(self, request: str) -> list[dict[str, Any]]:
        """Best effort: whatever the graph ranks within a short wait; nothing if it is missing,
        building, slow or failing (the run never waits on it, and says nothing it does not know)."""
        rank = self.rank_neighborhoods
        if rank is None:
            return []
        loop = asyncio.get_running_loop()
        found: asyncio.Future[list[dict[str, Any]]] = loop.create_future()

        def work() -> None:
            try:
                hoods = list(rank(self.workspace, request))
            except Exception:  # noqa: BLE001 - the graph is best-effort: a failure means no neighborhoods
                hoods = []
            def settle() -> None:
                if not found.done():
                    found.set_result(hoods)

            try:
                loop.call_soon_threadsafe(settle)
            except RuntimeError:
                pass  # the run ended (and its event loop closed) before the graph answered

        threading.Thread(target=work, name="neighborhoods", daemon=True).start()
        deadline = loop.time() + NEIGHBORHOOD_WAIT_S
        while not found.done() and not self.switch.killed and loop.time() < deadline:
            await asyncio.wait({found}, timeout=0.05)  # in slices: a kill must not wait for the graph
        return found.result() if found.done() else []

    async def _turns(self, transcript: list[Message]) -> Stop:
        text = ""
        while True:
            if self.switch.killed:
                return Stop(self.switch.reason or "killed", text=text)
            if not self.meter.turns_left():
                return Stop("max_turns", f"the run used its {self.limits.max_turns} turns and the model still had work to do", text)
            self.turn += 1
            self._streamed_chars = 0  # text of this turn so far (a turn cut by a kill still cost it)
            self.meter.count_turn()
            self.reporter.report(TurnStarted(self.turn))
            self.hooks.alive()
            turn: Any = self._model_turn(transcript)
            if self.turn_deadline_s is not None:
                turn = self._until_silent(turn, self.turn_deadline_s + DEADLINE_BACKSTOP_S)
            task = asyncio.ensure_future(turn)
            try:
                with self.switch.cancels(task):
                    text, calls, usage, thought = await self._until_killed(task)
            except asyncio.CancelledError:
                if not self.switch.killed:
                    raise
                cut = Usage(0, self._streamed_chars // 4, estimated=True) if self._streamed_chars else None
                self._account(cut)  # the cut turn cost what streamed; the server never said how much
                return Stop(self.switch.reason or "killed", "the model turn in flight was cut off", text)
            except (TimeoutError, TurnDeadlinePassed) as late:
                # A slow or hung turn is not an unreachable model: a blueprint's gate judges what the
                # session left, and a retry starts afresh.
                self._account(getattr(late, "usage", None))
                said = self.workspace.scrub(str(late)) if isinstance(late, TurnDeadlinePassed) else ""
                return Stop("deadline", said or f"a model turn sent nothing for longer than {self.turn_deadline_s or 0:g} s", text)
            except Exception as error:  # noqa: BLE001 - ProviderError, or a wire format we could not read
                self._account(getattr(error, "usage", None))  # a failed turn still cost what streamed
                return Stop("error", self.workspace.scrub(str(error)), text)
            calls = self._unique_ids(calls, transcript)
            reply = AssistantMessage(text, calls, thought)
            transcript.append(reply)
            self._log(reply)
            self._account(usage)
            if not calls:
                return Stop("done", finished_message(text), text)
            settled, interrupted, crash = await self._run_calls(calls, transcript)
            if interrupted is not None:
                return Stop(self.switch.reason or "killed", "killed while a tool ran", text, interrupted)
            if crash is not None:
                return Stop("error", str(crash), text)
            reason = self.meter.exhausted()
            if reason is not None:
                return Stop(reason, f"budget reached: {reason}", text)
            if settled:
                return Stop("done", finished_message(text), text)

    async def _until_silent(self, turn: Any, limit_s: float) -> Any:
        """The turn's result, or TimeoutError once nothing arrived for `limit_s`: counted from the
        last streamed piece, so a model that reasons aloud for long is not cut while it streams."""
        loop = asyncio.get_running_loop()
        self._last_piece = loop.time()
        task = asyncio.ensure_future(turn)
        try:
            while True:
                left = self._last_piece + limit_s - loop.time()
                if left <= 0:
                    raise TimeoutError
                done, _ = await asyncio.wait({task}, timeout=left)
                if task in done:
                    return task.result()
        finally:
            if not task.done():
                task.cancel()
                await asyncio.wait({task})

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

    async def _model_turn(self, transcript: list[Message]) -> tuple[str, tuple[ToolCall, ...], Usage, tuple[ReasoningPart, ...]]:
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

    async def _stream_turn(self, transcript: list[Message], usage: Usage) -> tuple[str, tuple[ToolCall, ...], Usage, tuple[ReasoningPart, ...]]:
        text: list[str] = []
        calls: list[ToolCall] = []
        thought: list[ReasoningPart] = []  # kept with the turn: some APIs want it back on the next call
        stream = self.model.stream_turn(self._system, fit(transcript, self.context_chars), self._specs)
        # aclosing() wants an AsyncGenerator; the port promises only an AsyncIterator with aclose().
        async with contextlib.aclosing(stream):  # type: ignore[type-var]
            async for item in stream:
                self.hooks.alive()
                self._last_piece = asyncio.get_running_loop().time()
                if isinstance(item, TextChunk):
                    text.append(item.text)
                    self._streamed_chars += len(item.text)
                    self.reporter.report(TextDelta(self.turn, item.text))
                elif isinstance(item, ReasoningChunk):
                    self._streamed_chars += len(item.text)
                    self.reporter.report(ReasoningDelta(self.turn, item.text))
                elif isinstance(item, ReasoningDone):
                    thought.append(item.part)
                elif isinstance(item, ToolCallChunk):
                    calls.append(item.call)
                elif isinstance(item, UsageChunk):
                    usage = usage + item.usage
                elif isinstance(item, Notice):
                    self.reporter.report(ProviderWarning(self.turn, item.kind, item.text))
                elif isinstance(item, Restart):
                    text.clear()  # the provider asks again: what streamed so far is void (a warning said so)
                    thought.clear()
        return "".join(text), tuple(calls), usage, tuple(thought)

    async def _run_calls(self, calls: tuple[ToolCall, ...], transcript: list[Message]) -> tuple[bool, dict[str, Any] | None, ToolCrashed | None]:
        """Run the turn's calls in order. Returns (settled, what was interrupted when the switch was
        thrown, the tool's own crash that ends the run)."""
        assert self._runner is not None
        settled = False
        for index, tool_call in enumerate(calls):
            if self.switch.killed:
                self._skip(calls[index:], transcript, "not run: the run was killed before this call")
                return settled, {"tool": tool_call.name, "call_id": tool_call.id, "ran": False, "landed": []}, None
            self.hooks.alive()
            try:
                outcome = await self._runner.run(self.turn, tool_call)
            except ToolCrashed as crash:
                self._skip(calls[index:], transcript, "not run: an earlier call in this turn failed inside konstruct")
                return settled, None, crash
            transcript.append(outcome.message)
            self._log(outcome.message)
            self.landed.extend(outcome.landed)
            self.hooks.alive()
            settled = settled or (outcome.ok and tool_call.name in self.settle_after)
            if self.switch.killed:
                self._skip(calls[index + 1 :], transcript, "not run: the run was killed before this call")
                return settled, {
                    "tool": tool_call.name,
                    "call_id": tool_call.id,
                    "ran": True,
                    "outcome": "unknown: it had not returned" if outcome.unfinished else "returned",
                    "statuses": list(outcome.statuses),
                    "landed": [entry["path"] for entry in outcome.landed],
                }, None
        return settled, None, None

    def _skip(self, calls: Sequence[ToolCall], transcript: list[Message], why: str) -> None:
        for tool_call in calls:
            message = ToolResultMessage(tool_call.id, tool_call.name, f'{{"error": "{why}"}}', True)
            transcript.append(message)
            self._log(message)

    def _unique_ids(self, calls: tuple[ToolCall, ...], transcript: list[Message]) -> tuple[ToolCall, ...]:
        """Some local servers number calls from 0 every turn; results are matched by id, so make them unique."""
        seen = {c.id for m in transcript if isinstance(m, AssistantMessage) for c in m.tool_calls}
        unique = []
        for number, tool_call in enumerate(calls, 1):
            if not tool_call.id or tool_call.id in seen:
                tool_call = ToolCall(f"call_{self.turn}_{number}", tool_call.name, tool_call.arguments, tool_call.problem, tool_call.extra)
            seen.add(tool_call.id)
            unique.append(tool_call)
        return tuple(unique)

    def _account(self, usage: Usage | None) -> None:
        """Count a turn's usage (None: the turn was cut off). A caller with `on_usage` owns the budget."""
        if self.hooks.on_usage is not None:
            if usage is not None:
                self.hooks.on_usage(usage)
            return
        if usage is not None:
            self.meter.add(usage)
        update: BudgetUpdate = self.meter.update()
        self.reporter.report(update)
        if self.session is not None:
            self.session.append("budget", turns=update.turns, input_tokens=update.input_tokens, output_tokens=update.output_tokens,
                                tokens_estimated=update.tokens_estimated, cost_usd=update.cost_usd, reasoning_tokens=update.reasoning_tokens)

    def _log(self, message: Message) -> None:
        if self.session is not None:  # a blueprint session is kept by its run store instead
            self.session.message(message)

    def _finish(self, reason: str, message: str = "", interrupted: dict[str, Any] | None = None) -> Finished:
        assert self.session is not None
        finished = Finished(reason, self.session.session_id, self.meter.turns, message, tuple(self.landed), interrupted)
        self.session.append("finished", reason=reason, message=message, landed=self.landed, interrupted=interrupted)
        self.reporter.report(finished)
        return finished
