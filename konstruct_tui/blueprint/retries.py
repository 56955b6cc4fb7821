"""After a gate that did not close the phase: try again, or stop. Telling stuck from slow.

- Each retry re-arms the executor with a nudge naming what is outstanding; nudges accumulate, so the
  executor sees every earlier finding, oldest first.
- The first retry continues the same session (it has the context); from the second retry on, a fresh
  session is seeded with a digest of the earlier attempts (a session that failed twice is carrying
  something that does not help).
- At most `max_retries` retries.
- Two consecutive verdicts naming the identical outstanding set mean the executor is stuck, not slow:
  the run stalls at once (parked, resumable), without spending the remaining retries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .gate import GateDecision
from .store import GateRecord

MAX_RETRIES = 3


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = MAX_RETRIES

    def next_step(self, attempt: int, decision: GateDecision, earlier: Sequence[GateRecord]) -> str:
        """close, retry, stalled (identical outstanding set twice running) or exhausted."""
        if decision.closes:
            return "close"
        judged = [g for g in earlier if g.decision != "no_verdict"]
        if judged and set(judged[-1].outstanding) == set(decision.outstanding):
            return "stalled"
        if attempt > self.max_retries:
            return "exhausted"
        return "retry"

    @staticmethod
    def fresh_session(attempt: int) -> bool:
        """Attempt 1 opens a session; attempt 2 (the first retry) nudges it; 3 and on start afresh."""
        return attempt != 2


def nudge_for(decision: GateDecision, task_texts: dict[str, str]) -> str:
    """One line naming what is outstanding and why, for the executor."""
    parts = []
    tasks = [item for item in decision.outstanding if not item.startswith("veto:")]
    if tasks:
        parts.append("outstanding tasks: " + "; ".join(f"{t} ({task_texts.get(t, '?')})" for t in tasks))
    parts += [veto.message for veto in decision.vetoes]
    if decision.verdict is not None and decision.verdict.verdict != "incomplete" and decision.vetoes:
        parts.append(f"the reviewer found the tasks {decision.verdict.verdict.replace('_', ' ')}, but the checks above stand")
    return "; ".join(parts) or "the phase is not complete"
