"""One blueprint session (a phase's executor, or an adjudicator) on the agent's own turn loop.

The run chooses the tool set, the system prompt and the settle-after rule (an executor's turn
settles after a successful `phase_done`, an adjudicator's after `submit_verdict`); the loop brings
the rest, so a phase gets what pair-coding gets: the context-window trim, the trust gate (with the
grants `run_command` checks itself, `full_access` included), the kill switch reaching child process
groups, and a tool's own crash ending the session instead of being told to the model.

What is a blueprint's own: the transcript outlives one `advance` (a nudge continues it), every tool
call is handed to `record` as it finishes (the run store keeps it before the next call runs), every
sign of life to `alive` (the watchdog's clock), and the watchdog may `stop` the session. A stop is
this session's own kill switch, thrown; the run's switch throws it too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..agent import (
    AgentLoop,
    CallOutcome,
    KillSwitch,
    Limits,
    Message,
    ModelCallPort,
    ProgressReporterPort,
    ToolCall,
    TrustGate,
    TurnHooks,
    Usage,
)
from ..tools import Tool
from ..workspace import Workspace, WriteJournal

Recorder = Callable[[str, dict[str, Any], bool, dict[str, Any]], None]


@dataclass(frozen=True)
class SessionOutcome:
    reason: str  # settled, max_turns, error, killed, silent, deadline
    text: str = ""
    message: str = ""


class BlueprintSession(Protocol):
    """What the orchestrator needs of a session."""

    session_id: str

    @property
    def turns(self) -> int: ...

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
        self.run_switch = switch
        self.transcript: list[Message] = []
        self._stopped: str | None = None
        own = KillSwitch()
        switch.on_kill(lambda: own.kill(switch.reason or "killed"))

        def kept(call: ToolCall, outcome: CallOutcome) -> None:
            record(call.name, call.arguments, outcome.ok, outcome.payload)

        self.loop = AgentLoop(
            workspace, model, reporter, trust, Limits(max_turns=max_turns), switch=own, journal=journal,
            tools=tools, system=system, settle_after=settle_after, turn_deadline_s=turn_deadline_s,
            hooks=TurnHooks(alive=alive, record=kept, on_usage=on_usage),
        )

    @property
    def turns(self) -> int:
        return self.loop.turn

    def stop(self, reason: str) -> None:
        """Stop the session now (the watchdog found it silent): the turn or tool call in flight is
        cancelled, its child processes killed. The run goes on; the gate judges what it left."""
        self._stopped = reason
        self.loop.switch.kill(reason)

    async def advance(self, user_text: str) -> SessionOutcome:
        """Add a user message (the opening, or a nudge) and run turns until the model settles."""
        stop = await self.loop.advance(self.transcript, user_text)
        if self.run_switch.killed:
            return SessionOutcome("killed", stop.text, self.run_switch.reason or "killed")
        if self._stopped is not None:
            return SessionOutcome(self._stopped, stop.text, "stopped by the watchdog")
        if stop.reason == "done":
            return SessionOutcome("settled", stop.text)
        return SessionOutcome(stop.reason, stop.text, stop.message)
