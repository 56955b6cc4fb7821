"""What a run is configured with, who answers the executor's trust questions in it, and how a
run stops early. Shared by the orchestrator and the phase gate."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..trust import TrustDecision, TrustRequest


@dataclass(frozen=True)
class RunOptions:
    max_retries: int = 3
    tick_s: float = 30.0
    silent_after_s: float = 300.0
    quiet_after_s: float | None = None
    turn_deadline_s: float = 300.0
    executor_max_turns: int = 40
    adjudicator_max_turns: int = 12
    adjudicator_deadline_s: float = 900.0
    grant_commands: bool = False  # arbitrary command lines for the executor (`--yes`)
    max_tokens: int | None = None  # for the whole run (every session), per process run like `konstruct run`
    max_cost_usd: float | None = None
    # A team worker (konstruct_tui/team) answers the executor's trust questions itself (it parks the run
    # for an approval instead of refusing) and ends the process run after each closed phase, so every
    # phase is one checkpointed step of its durable workflow. Both unset: a run on one machine, as ever.
    broker: Any = None
    pause_after_phase: bool = False
    # The durable engine's steps (engine.py): a run driven through it runs each unit the store
    # resumes from (a phase's baseline, an executor attempt, the gate's verify and adjudicator tiers)
    # as one checkpointed step of its workflow. Unset: each unit just runs (a team worker's phase is
    # already one step of its own workflow).
    steps: Any = None


T = TypeVar("T")


async def run_unit(options: RunOptions, unit: str, body: Callable[[], Awaitable[T]]) -> T:
    """One unit of a run: a step of the engine's workflow when the run has one, else just run."""
    return await (options.steps.run(unit, body) if options.steps is not None else body())


def workflow_id(run_id: str, continuation: int) -> str:
    """The engine's workflow of a run's first go (`RUN`) or of its continuation N after a resume,
    an answer or a hand-over (`RUN~N`): one spelling for one-machine and team runs."""
    return run_id if continuation == 0 else f"{run_id}~{continuation}"


def continuation_of(workflow: str) -> int:
    """N of `RUN~N` (0 for `RUN`)."""
    return int(workflow.rpartition("~")[2]) if "~" in workflow else 0


class RunBroker:
    """Who answers the executor's trust questions in an unattended run: starting the run grants
    edits and the project's own scripts for this run only (nothing is stored); arbitrary command
    lines only with `--yes`. Nobody is there to ask, so anything else is denied."""

    def __init__(self, grant_commands: bool) -> None:
        self.allowed = {"edit", "scripts"} | ({"commands"} if grant_commands else set())

    async def request(self, request: TrustRequest) -> TrustDecision:
        if request.capability in self.allowed:
            return TrustDecision(True, "session", request.paths)
        return TrustDecision.deny()


class Outcome(Exception):
    """How a phase ended the run early: a finish reason (stalled, error, killed) and a message."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
