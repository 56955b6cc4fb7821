"""Running one tool call for the loop: the trust question for mutating tools, the call itself on a
worker thread (tools are plain blocking Python), and the result as the model and the events see it.

A kill does not wait for the next turn: write/delete batches ask the switch between entries, the
command layer's hooks kill child process groups, and if a tool still has not returned a short grace
after the kill the loop stops waiting and reports its outcome as unknown.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..tools import TOOLS, Tool, ToolContext, ToolError, call
from .events import ProgressReporterPort, ToolFinished, ToolStarted, TrustRequested
from .killswitch import KillSwitch
from .ports import ToolCall, ToolResultMessage
from .trust_gate import TrustGate, TrustQuestion, question_for

GRACE_AFTER_KILL_S = 2.0
LANDED = frozenset({"written", "created", "deleted"})
# Tools that check their own grants (against `context.trust`) and answer `needs_grant` with the
# question to put: the policy, not the loop, knows whether a command line needs `scripts` or
# `commands`. The loop asks, keeps the answer, and calls again.
SELF_GATED = frozenset({"run_command"})


class ToolCrashed(Exception):
    """A tool raised something other than ToolError: a bug, which ends the run (never told to the
    model as if it were its own mistake)."""


@dataclass(frozen=True)
class CallOutcome:
    message: ToolResultMessage
    payload: dict[str, Any] = field(default_factory=dict)  # what the model was told, as JSON
    landed: tuple[dict[str, Any], ...] = ()
    statuses: tuple[str, ...] = ()
    unfinished: bool = False  # the tool had not returned when the loop stopped waiting (after a kill)

    @property
    def ok(self) -> bool:
        return not self.message.is_error


@dataclass
class ToolRunner:
    context: ToolContext
    gate: TrustGate
    switch: KillSwitch
    reporter: ProgressReporterPort
    scrub: Callable[[str], str] = lambda text: text
    tools: Mapping[str, Tool[Any]] = field(default_factory=lambda: TOOLS)  # the set this run offers
    record: Callable[[ToolCall, CallOutcome], None] | None = None  # keeps each answered call

    async def run(self, turn: int, tool_call: ToolCall) -> CallOutcome:
        self.reporter.report(ToolStarted(turn, tool_call.id, tool_call.name, tool_call.arguments))
        if tool_call.problem:
            return self._refuse(turn, tool_call, tool_call.problem)
        tool = self.tools.get(tool_call.name)
        if tool is not None and tool.mutating and not self._self_gated(tool_call.name):
            denial = await self._ask(turn, question_for(tool_call.name, tool_call.arguments, tool_call.id), obtain=False)
            if denial:
                return self._refuse(turn, tool_call, denial, status="denied")
        try:
            result, finished = await self._on_worker(tool_call)
            wanted = _grant_wanted(result, tool_call) if finished else None
            if wanted is not None:
                denial = await self._ask(turn, wanted, obtain=True)
                if denial:
                    return self._refuse(turn, tool_call, denial, status="denied")
                result, finished = await self._on_worker(tool_call)
        except ToolError as error:
            return self._refuse(turn, tool_call, self.scrub(str(error)))
        if not finished:
            note = {"error": "the run was killed while this call ran and it had not returned; its effect is unknown"}
            outcome = CallOutcome(ToolResultMessage(tool_call.id, tool_call.name, json.dumps(note), True), note, unfinished=True)
            return self._finished(turn, tool_call, outcome, ToolFinished(turn, tool_call.id, tool_call.name, False, note, error=note["error"]))
        payload = result.to_json()
        entries = [e for e in payload.get("results", []) if isinstance(e, dict)] if isinstance(payload, dict) else []
        statuses = tuple(str(e.get("status", "")) for e in entries)
        landed = tuple(
            {"tool": tool_call.name, "call_id": tool_call.id, "path": e.get("path"), "status": e["status"]}
            for e in entries
            if e.get("status") in LANDED
        )
        content = json.dumps(payload, ensure_ascii=False)
        outcome = CallOutcome(ToolResultMessage(tool_call.id, tool_call.name, content), payload, landed, statuses)
        return self._finished(turn, tool_call, outcome, ToolFinished(turn, tool_call.id, tool_call.name, True, payload, statuses))

    def _self_gated(self, name: str) -> bool:
        """Only when the tool can see the grants (`context.trust`) and the gate can get one without
        spending it; with any other gate the loop asks first, as for every mutating tool."""
        return name in SELF_GATED and getattr(self.context, "trust", None) is not None and hasattr(self.gate, "obtain")

    async def _ask(self, turn: int, question: TrustQuestion, *, obtain: bool) -> str | None:
        """None when the call may go ahead; otherwise the denial the model is told. `obtain`: only
        get the grant (the self-gated tool spends it when called again)."""
        asking = asyncio.ensure_future(self.gate.obtain(question) if obtain else self.gate.ask(question))
        try:
            with self.switch.cancels(asking):  # a person still deciding when the run is killed
                granted = await asking
        except asyncio.CancelledError:
            if not self.switch.killed:
                raise
            granted = False
        decision = "granted" if granted else "denied"
        self.reporter.report(TrustRequested(turn, question.call_id, question.tool, question.capability, question.detail, decision))
        if granted:
            return None
        # What the person typed when denying reaches the model as the call's result. A gate that
        # cannot take a message (a test's, MCP's) has no `denial_message`: the plain denial then.
        said = getattr(self.gate, "denial_message", lambda _call_id: "")(question.call_id)
        if said:
            return (
                f"denied: the person did not allow `{question.capability}` ({question.detail}); nothing was changed. "
                f"The person says: {said}"
            )
        return (
            f"denied: the person has not granted `{question.capability}` ({question.detail}); nothing was changed. "
            "Do not retry this call; finish with what you could do and say what grant you need."
        )

    def _refuse(self, turn: int, tool_call: ToolCall, reason: str, status: str = "error") -> CallOutcome:
        payload = {"error": reason, "status": status}
        outcome = CallOutcome(ToolResultMessage(tool_call.id, tool_call.name, json.dumps(payload), True), payload)
        return self._finished(turn, tool_call, outcome, ToolFinished(turn, tool_call.id, tool_call.name, False, payload, error=reason))

    def _finished(self, turn: int, tool_call: ToolCall, outcome: CallOutcome, event: ToolFinished) -> CallOutcome:
        """The call is kept (`record`: a blueprint's run store) before anyone hears it finished, so
        a process killed right after the event still has the call on record."""
        if self.record is not None:
            self.record(tool_call, outcome)
        self.reporter.report(event)
        return outcome

    async def _on_worker(self, tool_call: ToolCall) -> tuple[Any, bool]:
        """Run the tool on a daemon thread (one that ignores the kill must not hold the process
        open). Returns (result, finished)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()

        def settle(outcome: Callable[[], None]) -> None:
            if not done.done():
                outcome()

        def work() -> None:
            try:
                result = call(tool_call.name, tool_call.arguments, self.context, self.tools)
            except BaseException as error:  # noqa: BLE001 - handed to the loop thread, which sorts ToolError from bugs
                failure = error  # bound here: `error` itself is unbound once the except block ends
                loop.call_soon_threadsafe(settle, lambda: done.set_exception(failure))
            else:
                loop.call_soon_threadsafe(settle, lambda: done.set_result(result))

        killed = asyncio.Event()
        unregister = self.switch.on_kill(lambda: loop.call_soon_threadsafe(killed.set))
        threading.Thread(target=work, name=f"tool-{tool_call.name}", daemon=True).start()
        waiter = asyncio.ensure_future(killed.wait())
        try:
            await asyncio.wait({done, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if not done.done():
                await asyncio.wait({done}, timeout=GRACE_AFTER_KILL_S)
        finally:
            unregister()
            waiter.cancel()
        if not done.done():
            return None, False
        error = done.exception()
        if error is None:
            return done.result(), True
        if isinstance(error, ToolError):
            raise error
        raise ToolCrashed(f"{tool_call.name} failed with {type(error).__name__}: {self.scrub(str(error))}") from error


def _grant_wanted(result: Any, tool_call: ToolCall) -> TrustQuestion | None:
    payload = result.to_json()
    request = payload.get("trust_request") if isinstance(payload, dict) and payload.get("status") == "needs_grant" else None
    if not isinstance(request, dict):
        return None
    paths = tuple(str(p) for p in request.get("paths") or ())
    return TrustQuestion(tool_call.name, str(request.get("capability")), str(request.get("detail", "")), paths, tool_call.id)
