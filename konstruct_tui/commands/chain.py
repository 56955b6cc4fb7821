"""Chains the user allowed (`a && b`, `a || b`, `a; b`), run without a shell.

Only the three list operators (and newlines, which act like `;`) are ever chained; pipes,
redirections and substitutions stay refused. Each step is its own argv, judged by the policy on its
own, and run as its own process group; the steps share one timeout and one cancel. Skipping follows
the shell: `&&` runs the next step after a success, `||` after a failure, `;` always, and a skipped
step keeps the status of the last step that ran (so `a && b || c` runs `c` when `a` fails).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .execution import ProcessOutcome

CONNECTORS = frozenset({"&&", "||", ";", "\n"})


@dataclass(frozen=True)
class ChainStep:
    connector: str | None  # how this step joins the one before; None for the first
    argv: tuple[str, ...]  # what runs (an allowed git is our hardened one)
    written: tuple[str, ...] = ()  # the step as the line wrote it, when that differs from `argv`
    needs: str | None = None  # the grant the step needs on its own ("commands", "scripts"), None when allowed

    @property
    def words(self) -> tuple[str, ...]:
        """The step as written: what a person read and what a grant rule is judged against."""
        return self.written or self.argv


def chain_key(steps: Sequence[ChainStep]) -> tuple[tuple[str | None, tuple[str, ...]], ...]:
    """A chain as a chain grant names it: each step's connector (a newline is the `;` it means) and
    its words as written. Two lines a shell runs alike (`a && b`, `a  &&  'b'`) have one key."""
    return tuple((None if k == 0 else (";" if step.connector == "\n" else step.connector), step.words)
                 for k, step in enumerate(steps))


@dataclass(frozen=True)
class ChainOutcome:
    """The chain's result: the last step that ran decides status and exit code; output is joined."""

    outcome: ProcessOutcome
    steps: tuple[dict[str, Any], ...]


Launch = Callable[[tuple[str, ...], float], ProcessOutcome]


def run_chain(steps: Sequence[ChainStep], launch: Launch, timeout_s: float) -> ChainOutcome:
    """Run `steps` in order with `launch(argv, seconds_left)`; stop at a timeout or a kill."""
    started = time.monotonic()
    records: list[dict[str, Any]] = []
    outcomes: list[ProcessOutcome] = []
    succeeded: bool | None = None
    for step in steps:
        if (step.connector == "&&" and succeeded is False) or (step.connector == "||" and succeeded is True):
            records.append({"argv": list(step.argv), "status": "skipped"})
            continue
        left = timeout_s - (time.monotonic() - started)
        if left <= 0:
            records.append({"argv": list(step.argv), "status": "skipped", "reason": "the chain's time ran out"})
            break
        outcome = launch(step.argv, left)
        outcomes.append(outcome)
        records.append({"argv": list(step.argv), "status": outcome.status, "exit_code": outcome.exit_code,
                        "duration_s": outcome.duration_s})
        if outcome.status in ("timeout", "killed"):
            break
        succeeded = outcome.status == "ok"
    return ChainOutcome(_joined(outcomes, time.monotonic() - started), tuple(records))


def _joined(outcomes: list[ProcessOutcome], duration: float) -> ProcessOutcome:
    if not outcomes:
        return ProcessOutcome("failed", None, round(duration, 3), "", "", reason="no step ran")
    last = outcomes[-1]
    return ProcessOutcome(
        last.status, last.exit_code, round(duration, 3),
        "".join(o.stdout for o in outcomes), "".join(o.stderr for o in outcomes),
        any(o.stdout_truncated for o in outcomes), any(o.stderr_truncated for o in outcomes), last.signal, last.reason,
    )
