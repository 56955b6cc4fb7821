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

from ...agent import BudgetUpdate, Finished, SessionStarted, TurnStarted
from ..messages import KillRequested, Reportable


class BudgetsPane(Vertical):
    """Reads `BudgetUpdate`s; between them the clock ticks locally, since the loop reports after
    each turn and a long turn would otherwise look frozen."""
    # The event types this pane draws: the app routes only these to `show` (see messages.EventRoutes).
    DRAWS: ClassVar[tuple[type, ...]] = (SessionStarted, TurnStarted, BudgetUpdate, Finished)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.budget: BudgetUpdate | None = None
        self.state = "idle"
        self.turn = 0
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
            self.turn = 0
            self._started_at, self._elapsed_before = time.monotonic(), 0.0
            self.set_running(True)
        elif isinstance(event, TurnStarted):
            self.turn = event.turn
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
        self.query_one("#run-state", Static).update(Content.from_markup(_state_markup(self.state, self.turn)))
        self.query_one("#budget-lines", Static).update(Content.from_markup(self._lines()))

    def _lines(self) -> str:
        b = self.budget
        if b is None:
            turns = f"{self.turn}"
            tokens = "—"
            cost = "—"
            clock = _clock(self._elapsed()) if self._started_at is not None else "—"
        else:
            turns = f"{b.turns}{_limit(b.max_turns)}"
            estimated = " [dim](est.)[/dim]" if b.tokens_estimated else ""
            tokens = f"{b.input_tokens + b.output_tokens:,}{_limit(b.max_tokens, ',')}{estimated}"
            if b.cost_usd is None:
                cost = "[dim]not counted (no price)[/dim]"
            else:
                cost = f"${b.cost_usd:.4f}" + (f" / ${b.max_cost_usd:.2f}" if b.max_cost_usd is not None else "")
            clock = _clock(self._elapsed()) + (f" / {_clock(b.timeout_s)}" if b.timeout_s else "")
        return "\n".join(
            (
                f"[b]turns[/b]   {turns}",
                f"[b]tokens[/b]  {tokens}",
                f"[b]cost[/b]    {cost}",
                f"[b]time[/b]    {clock}",
            )
        )


def _state_markup(state: str, turn: int) -> str:
    if state == "running":
        return f"[$tool-running]● running[/] · turn {turn}"
    if state == "killing":
        return "[$warning]● stopping…[/]"
    if state == "idle":
        return "[dim]○ idle[/dim]"
    colour = "$success" if state == "done" else "$warning" if state == "killed" else "$error"
    return f"[{colour}]■ {escape(state)}[/]"


def _limit(value: float | None, fmt: str = "") -> str:
    return "" if value is None else f" / {value:{fmt}}"


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"
