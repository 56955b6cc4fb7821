"""What `/undo`, `/cost` and `/compact` do, in plain Python: the workbench shows the lines these return.

`/undo` is `konstruct undo` (workspace/undo.py, same rules: only when every file the batch touched
is still exactly as it left it). `/cost` adds up the last budget report of each run in the session.
`/compact` hands the session to the agent's compaction (agent/compaction.py).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..agent import BudgetUpdate, SessionStarted
from ..workspace import UndoRefused, Workspace, WriteJournal, undo_last

if TYPE_CHECKING:
    from ..agent import Compacted


def undo_last_batch(workspace: Workspace, journal: WriteJournal | None = None) -> tuple[bool, list[str]]:
    """(undone?, lines to show). A refusal restores nothing and says why."""
    try:
        result = undo_last(workspace, journal or WriteJournal(workspace.root))
    except UndoRefused as refusal:
        return False, [f"undo refused: {workspace.scrub(str(refusal))}"]
    lines = [f"undid batch {result['undone']} ({result['tool']}):"]
    lines += [f"  {entry['status']:<9} {entry['path']}" for entry in result["results"]]
    return True, lines


@dataclass
class CostLedger:
    """The budget of each run of the current session (the last report of a run is its total)."""

    runs: dict[int, BudgetUpdate] = field(default_factory=dict)
    session_id: str | None = None
    _run: int = 0

    def note(self, event: Any) -> None:
        if isinstance(event, SessionStarted):
            if event.session_id != self.session_id and not event.resumed:
                self.runs.clear()
            self.session_id = event.session_id
            self._run += 1
        elif isinstance(event, BudgetUpdate):
            self.runs[self._run] = event

    def reset(self) -> None:
        self.runs.clear()
        self.session_id = None

    def lines(self) -> list[str]:
        if not self.runs:
            return ["cost: no run in this session yet (0 tokens, $0.0000)"]
        last = self.runs[max(self.runs)]
        lines = [f"last run: {_describe(last)}"]
        if len(self.runs) > 1:
            tokens = sum(b.input_tokens + b.output_tokens for b in self.runs.values())
            costs = [b.cost_usd for b in self.runs.values()]
            cost = "not counted (no price)" if any(c is None for c in costs) else f"${sum(c or 0.0 for c in costs):.4f}"
            turns = sum(b.turns for b in self.runs.values())
            lines.append(f"this session ({len(self.runs)} runs): {turns} turns, {tokens:,} tokens, {cost}")
        return lines


def _describe(b: BudgetUpdate) -> str:
    limit = (lambda v, f="": f" / {v:{f}}" if v is not None else " / no limit")  # noqa: E731
    cost = "not counted (no price)" if b.cost_usd is None else f"${b.cost_usd:.4f}" + (f" / ${b.max_cost_usd:.2f}" if b.max_cost_usd is not None else " / no limit")
    estimated = " (estimated)" if b.tokens_estimated else ""
    thinking = f" ({b.reasoning_tokens:,} of it reasoning)" if b.reasoning_tokens else ""
    return (f"{b.turns}{limit(b.max_turns)} turns, {b.input_tokens:,} in + {b.output_tokens:,} out{thinking} = "
            f"{b.input_tokens + b.output_tokens:,}{limit(b.max_tokens, ',')} tokens{estimated}, {cost}")


class CompactionUnavailable(RuntimeError):
    """Nothing was compacted; the message says why in one line."""


def compact_session(session_id: str | None, settings: Any, workspace: Workspace) -> Compacted:
    """`/compact`: the session's older turns replaced by the model's summary plus the code-built
    block of files, revisions, conflicts and outstanding items (agent/compaction.py); the session
    file keeps the full history and the next request continues from the compacted transcript.
    Blocking (it calls the model): run it on a worker thread. Returns the event the transcript
    shows where compaction happened."""
    if session_id is None:
        raise CompactionUnavailable("nothing to compact: no session has run yet")
    if settings is None:
        raise CompactionUnavailable("nothing to compact with: no model is configured (/model picks one)")
    from ..agent import NothingToCompact, model_turns
    from ..agent import compact_session as compact
    from ..providers import open_provider

    async def run() -> Any:
        model = open_provider(settings)
        try:
            return await compact(session_id, model, workspace)
        finally:
            await model.aclose()

    try:
        result = asyncio.run(run())
    except NothingToCompact as error:
        raise CompactionUnavailable(str(error)) from None
    return result.event(model_turns(result.transcript), "request")
