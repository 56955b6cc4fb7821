"""The budgets pane: turns, tokens, cost and time against their limits, the run's state, and the
kill control, which is always on screen (and bound to ctrl+k app-wide)."""

from __future__ import annotations

import time
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.markup import escape
from textual.widgets import Button, Static

from ...agent import BudgetUpdate, Finished, Limits, SessionStarted, TurnStarted
from ..messages import KillRequested, Reportable


class BudgetsPane(Vertical):
    """Reads `BudgetUpdate`s; between them the clock ticks locally, since the loop reports after
    each turn and a long turn would otherwise look frozen."""
    # The event types this pane draws: the app routes only these to `show` (see messages.EventRoutes).
    DRAWS: ClassVar[tuple[type, ...]] = (SessionStarted, TurnStarted, BudgetUpdate, Finished)

    def __init__(self, *, limits: Limits | None = None, id: str | None = None) -> None:
        super().__init__(id=id)
        self.limits = limits or Limits()
        self.budget: BudgetUpdate | None = None
        self.state = "idle"
        self.turn = 0  # turns of this run (a resumed session's turn numbers continue; the budget does not)
        self._first_turn: int | None = None
        self._started_at: float | None = None
        self._elapsed_before = 0.0

    def compose(self) -> ComposeResult:
        with Horizontal(id="run-state-row"):
            yield Static(id="run-state")
            yield Button("■ Kill  ctrl+k", id="kill", variant="error", compact=True, disabled=True)
        yield Static(id="budget-lines")

    def on_mount(self) -> None:
        self.border_title = "Budgets"
        self._paint()
        self.set_interval(1.0, self._tick)

    def show(self, event: Reportable) -> None:
        if isinstance(event, SessionStarted):
            self.budget = None
            self.turn, self._first_turn = 0, None
            self._started_at, self._elapsed_before = time.monotonic(), 0.0
            self.set_running(True)
        elif isinstance(event, TurnStarted):
            if self._first_turn is None:
                self._first_turn = event.turn
            self.turn = event.turn - self._first_turn + 1
        elif isinstance(event, BudgetUpdate):
            self.budget = event
            self._started_at, self._elapsed_before = time.monotonic(), event.elapsed_s
        elif isinstance(event, Finished):
            self.state = event.reason
            self._started_at = None
            self.query_one("#kill", Button).disabled = True
        else:
            return
        self._paint()

    def set_running(self, running: bool, *, ended: str = "stopped") -> None:
        """`ended` names the state when a run stops without having reported how (a worker error)."""
        if running:
            self.state = "running"
        elif self.state in ("running", "killing"):
            self.state = ended
            self._started_at = None
        self.query_one("#kill", Button).disabled = not running
        self._paint()

    def set_killing(self) -> None:
        self.state = "killing"
        self._paint()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "kill":
            event.stop()
            self.post_message(KillRequested())

    def _tick(self) -> None:
        if self._started_at is not None:
            self._paint()

    def _elapsed(self) -> float:
        if self._started_at is None:
            return self.budget.elapsed_s if self.budget else 0.0
        return self._elapsed_before + time.monotonic() - self._started_at

    def _paint(self) -> None:
        self.query_one("#run-state", Static).update(Content.from_markup(_state_markup(self.state, self.turn, self.limits.max_turns)))
        self.query_one("#budget-lines", Static).update(Content.from_markup(self._lines()))

    def _lines(self) -> str:
        b = self.budget
        # Always `used / limit`, from the first frame on: the limits are known before any run reports.
        limits = self.limits
        if b is None:
            turns = f"{max(self.turn - 1, 0)}{_limit(limits.max_turns)}"
            tokens = f"0{_limit(limits.max_tokens, ',')}"
            cost = f"$0.0000{_limit(limits.max_cost_usd, '.2f', '$')}"
            clock = (_clock(self._elapsed()) if self._started_at is not None else "0:00") + (f" / {_clock(limits.timeout_s)}" if limits.timeout_s else " / no limit")
        else:
            turns = f"{b.turns}{_limit(b.max_turns)}"
            estimated = " [dim](est.)[/dim]" if b.tokens_estimated else ""
            tokens = f"{b.input_tokens + b.output_tokens:,}{_limit(b.max_tokens, ',')}{estimated}"
            if b.cache_read_tokens:  # of the input, read from the provider's prompt cache (billed less)
                tokens += f" [dim]({b.cache_read_tokens:,} cached)[/dim]"
            if b.reasoning_tokens:  # of the output, spent thinking (billed as output)
                tokens += f" [dim]({b.reasoning_tokens:,} reasoning)[/dim]"
            if b.cost_usd is None:
                cost = "[dim]not counted (no price)[/dim]"
            else:
                cost = f"${b.cost_usd:.4f}{_limit(b.max_cost_usd, '.2f', '$')}"
            clock = _clock(self._elapsed()) + (f" / {_clock(b.timeout_s)}" if b.timeout_s else " / no limit")
        return "\n".join(
            (
                f"[b]turns[/b]   {turns}",
                f"[b]tokens[/b]  {tokens}",
                f"[b]cost[/b]    {cost}",
                f"[b]time[/b]    {clock}",
            )
        )


def _state_markup(state: str, turn: int, max_turns: int | None) -> str:
    if state == "running":
        return f"[$tool-running]● running[/] · turn {turn}{_limit(max_turns)}"
    if state == "killing":
        return "[$warning]● stopping…[/]"
    if state == "idle":
        return "[dim]○ idle[/dim]"
    colour = "$success" if state == "done" else "$warning" if state == "killed" else "$error"
    return f"[{colour}]■ {escape(state)}[/]"


def _limit(value: float | None, fmt: str = "", unit: str = "") -> str:
    return " / no limit" if value is None else f" / {unit}{value:{fmt}}"


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"
