"""One blueprint session (a phase's executor, or an adjudicator): a transcript, a model and a tool
set chosen by the run, driven turn by turn until the model settles.

Why not `agent.AgentLoop`: a blueprint session needs its own tool set (the executor gets
`phase_done`/`mark_task`, the adjudicator only read-only tools and `submit_verdict`), its own system
prompt, nudges appended to a live transcript, and a stop the watchdog can pull. The loop takes
none of these today (it reads the registry and its own prompt), so this is a small loop over the
same ports: `ModelCallPort`, the agent's events, `KillSwitch` and `TrustGate`.

Every tool call is handed to `record` as it finishes (the run store keeps it before the next call
runs) and every sign of life to `alive` (the watchdog's clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import ValidationError

from ..agent.events import (
    ProgressReporterPort,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TrustRequested,
    TurnStarted,
)
from ..agent.killswitch import KillSwitch
from ..agent.ports import (
    AssistantMessage,
    Message,
    ModelCallPort,
    TextChunk,
    ToolCall,
    ToolCallChunk,
    ToolResultMessage,
    ToolSpec,
    Usage,
    UsageChunk,
    UserMessage,
)
from ..agent.trust_gate import TrustGate, question_for
from ..providers.errors import TurnDeadlineExceeded
from ..tools.base import Tool, ToolContext, ToolError
from ..workspace import EditRun, Workspace, WriteJournal

_BACKSTOP_S = 5.0
Recorder = Callable[[str, dict[str, Any], bool, dict[str, Any]], None]


@dataclass(frozen=True)
class SessionOutcome:
    reason: str  # settled, max_turns, error, killed, silent, deadline
    text: str = ""
    message: str = ""


class SessionStopped(Exception):
    pass


class BlueprintSession(Protocol):
    """What the orchestrator needs of a session: the seam where `agent.AgentLoop` can replace
    `PhaseSession` once it takes a tool set, a system prompt and nudges (see the module docstring)."""

    session_id: str
    turns: int

    async def advance(self, user_text: str) -> SessionOutcome: ...

    def stop(self, reason: str) -> None: ...


class PhaseSession:
    def __init__(
        self,
        session_id: str,
        *,
        system: str,
        tools: dict[str, Tool[Any]],
        model: ModelCallPort,
        workspace: Workspace,
        reporter: ProgressReporterPort,
        record: Recorder,
        alive: Callable[[], None],
        trust: TrustGate,
        switch: KillSwitch,
        turn_deadline_s: float,
        max_turns: int,
        settle_after: frozenset[str] = frozenset(),
        on_usage: Callable[[Usage], None] = lambda usage: None,
        journal: WriteJournal | None = None,
    ) -> None:
        self.session_id = session_id
        self.system = system
        self.tools = tools
        self.specs = [ToolSpec(t.name, t.description, t.schema()) for t in tools.values()]
        self.model = model
        self.workspace = workspace
        self.reporter = reporter
        self.record = record
        self.alive = alive
        self.trust = trust
        self.switch = switch
        self.turn_deadline_s = turn_deadline_s
        self.max_turns = max_turns
        self.settle_after = settle_after  # a successful call to one of these ends the phase turn
        self.on_usage = on_usage
        self.transcript: list[Message] = []
        self.turns = 0
        self.context = ToolContext(workspace, run=EditRun(), journal=journal, killed=switch)
        self._task: asyncio.Task[Any] | None = None
        self._stop: str | None = None

    def stop(self, reason: str) -> None:
        """Stop the session now (the watchdog found it silent): the turn in flight is cancelled."""
        self._stop = reason
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def advance(self, user_text: str) -> SessionOutcome:
        """Add a user message (the opening, or a nudge) and run turns until the model settles."""
        self.transcript.append(UserMessage(user_text))
        text = ""
        while True:
            if self.switch.killed:
                return SessionOutcome("killed", text, self.switch.reason or "killed")
            if self._stop:
                return SessionOutcome(self._stop, text, "stopped by the watchdog")
            if self.turns >= self.max_turns:
                return SessionOutcome("max_turns", text, f"the session used its {self.max_turns} turns")
            self.turns += 1
            self.reporter.report(TurnStarted(turn=self.turns))
            self.alive()
            try:
                # The provider enforces the turn deadline itself; this one is the backstop.
                text, calls = await self._guarded(self._model_turn(), self.turn_deadline_s + _BACKSTOP_S)
            except SessionStopped as stopped:
                return SessionOutcome(str(stopped), text, "the model turn in flight was cut off")
            except (TimeoutError, TurnDeadlineExceeded):
                # A slow or hung turn is not an unreachable model: the gate judges what the session
                # left, and a retry starts afresh.
                return SessionOutcome("deadline", text, f"a model turn took longer than {self.turn_deadline_s:g} s")
            except Exception as error:  # noqa: BLE001 - ProviderError, or an answer that could not be read
                return SessionOutcome("error", text, self.workspace.scrub(str(error)))
            self.transcript.append(AssistantMessage(text, calls))
            if not calls:
                return SessionOutcome("settled", text)
            settle = False
            for number, tool_call in enumerate(calls):
                try:
                    ok, name = await self._guarded(self._run_call(tool_call), None)
                except SessionStopped as stopped:
                    for skipped in calls[number:]:
                        self.transcript.append(ToolResultMessage(skipped.id, skipped.name, '{"error": "not run: the session was stopped"}', True))
                    return SessionOutcome(str(stopped), text, "stopped while a tool ran")
                settle = settle or (ok and name in self.settle_after)
            if settle:
                return SessionOutcome("settled", text)

    async def _guarded(self, work: Any, timeout: float | None) -> Any:
        """Run `work` so that the kill switch and `stop` can cancel it at once."""
        self._task = asyncio.ensure_future(asyncio.wait_for(work, timeout) if timeout else work)
        try:
            with self.switch.cancels(self._task):
                return await self._task
        except asyncio.CancelledError:
            if self.switch.killed:
                raise SessionStopped("killed") from None
            if self._stop:
                raise SessionStopped(self._stop) from None
            raise
        finally:
            self._task = None

    async def _model_turn(self) -> tuple[str, tuple[ToolCall, ...]]:
        text: list[str] = []
        calls: list[ToolCall] = []
        usage = Usage()
        stream = self.model.stream_turn(self.system, list(self.transcript), self.specs)
        async with contextlib.aclosing(stream):  # type: ignore[type-var]
            async for item in stream:
                self.alive()
                if isinstance(item, TextChunk):
                    text.append(item.text)
                    self.reporter.report(TextDelta(turn=self.turns, text=item.text))
                elif isinstance(item, ToolCallChunk):
                    calls.append(item.call)
                elif isinstance(item, UsageChunk):
                    usage = Usage(usage.input_tokens + item.usage.input_tokens, usage.output_tokens + item.usage.output_tokens,
                                  usage.estimated or item.usage.estimated)
        self.on_usage(usage)
        seen: set[str] = {c.id for m in self.transcript if isinstance(m, AssistantMessage) for c in m.tool_calls}
        unique = []
        for number, call in enumerate(calls, 1):  # results are matched by id; some servers reuse them
            if not call.id or call.id in seen:
                call = ToolCall(f"{self.session_id}_{self.turns}_{number}", call.name, call.arguments, call.problem)
            seen.add(call.id)
            unique.append(call)
        return "".join(text), tuple(unique)

    async def _run_call(self, call: ToolCall) -> tuple[bool, str]:
        self.reporter.report(ToolStarted(turn=self.turns, call_id=call.id, tool=call.name, arguments=call.arguments))
        self.alive()
        tool = self.tools.get(call.name)
        if call.problem or tool is None:
            problem = call.problem or f"unknown tool {call.name!r}; this session's tools are: {', '.join(self.tools)}"
            return self._answer(call, False, {"error": problem}), call.name
        if tool.mutating:
            question = question_for(call.name, call.arguments, call.id)
            granted = await self.trust.ask(question)
            self.reporter.report(TrustRequested(turn=self.turns, call_id=call.id, tool=call.name, capability=question.capability,
                                                detail=question.detail, decision="granted" if granted else "denied"))
            if not granted:
                denial = f"denied: `{question.capability}` is not granted in this blueprint run; nothing was changed"
                return self._answer(call, False, {"error": denial, "status": "denied"}), call.name
        try:
            params = tool.Input.model_validate(call.arguments)
            result = await asyncio.to_thread(tool.run, params, self.context)
        except ValidationError as invalid:
            first = invalid.errors(include_url=False)[0]
            where = ".".join(str(part) for part in first["loc"])
            return self._answer(call, False, {"error": f"invalid input for {call.name}: {where}: {first['msg']}"}), call.name
        except ToolError as error:
            return self._answer(call, False, {"error": self.workspace.scrub(str(error))}), call.name
        except Exception as error:  # noqa: BLE001 - a bug in a tool: the model is told, the record keeps it
            return self._answer(call, False, {"error": f"{call.name} failed inside konstruct: {type(error).__name__}: {self.workspace.scrub(str(error))}"}), call.name
        return self._answer(call, True, result.to_json()), call.name

    def _answer(self, call: ToolCall, ok: bool, payload: dict[str, Any]) -> bool:
        entries = [e for e in payload.get("results", []) if isinstance(e, dict)]
        statuses = tuple(str(e.get("status", "")) for e in entries)
        self.record(call.name, call.arguments, ok, payload)
        self.reporter.report(ToolFinished(turn=self.turns, call_id=call.id, tool=call.name, ok=ok, result=payload, statuses=statuses,
                                          error=None if ok else str(payload.get("error"))))
        self.transcript.append(ToolResultMessage(call.id, call.name, json.dumps(payload, ensure_ascii=False), not ok))
        self.alive()
        return ok
