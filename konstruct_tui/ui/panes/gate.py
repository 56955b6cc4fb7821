"""The gate pane: blueprint phases with their verdicts, outstanding tasks and accepted defects,
rendered from the blueprint layer's events. Empty (and says why) when no blueprint run is going on:
pair-coding sessions have no gate."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ...blueprint import PhaseClosed, PhaseStarted, RunStarted, VerdictReached, WatchdogAlarm
from ..messages import Reportable
from ..untrusted import plain

_VERDICT_TOKENS = {
    "complete": "$gate-pass",
    "complete_with_defects": "$gate-defects",
    "incomplete": "$gate-fail",
}
_EMPTY = "[dim]No blueprint run. Phases, verdicts, outstanding tasks and accepted defects show here while one runs.[/dim]"


@dataclass
class PhaseView:
    phase: str
    title: str
    attempt: int = 1
    tasks: tuple[str, ...] = ()
    verdict: VerdictReached | None = None
    closed: str | None = None
    defects: list[str] = field(default_factory=list)


class GatePane(VerticalScroll):
    # The event types this pane draws: the app routes only these to `show` (see messages.EventRoutes).
    DRAWS: ClassVar[tuple[type, ...]] = (RunStarted, PhaseStarted, VerdictReached, PhaseClosed, WatchdogAlarm)
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.run_title: str | None = None
        self.phases: dict[str, PhaseView] = {}
        self.alarm: WatchdogAlarm | None = None
        self.scripted = False  # the demo drives this pane from a script; say so on screen

    def compose(self) -> ComposeResult:
        yield Static(id="gate-body")

    def on_mount(self) -> None:
        self.border_title = "Gate"
        self._paint()

    def show(self, event: Reportable) -> None:
        if isinstance(event, RunStarted):
            self.reset()
            self.run_title = event.title or event.run_id
        elif isinstance(event, PhaseStarted):
            view = self.phases.setdefault(event.phase, PhaseView(event.phase, event.title))
            view.attempt, view.closed, view.verdict = event.attempt, None, None
            view.tasks = tuple(str(t.get("id", t)) if isinstance(t, dict) else str(t) for t in event.tasks)
        elif isinstance(event, VerdictReached):
            view = self.phases.setdefault(event.phase, PhaseView(event.phase, ""))
            view.verdict = event
            view.defects.extend(d for d in event.defects if d not in view.defects)
        elif isinstance(event, PhaseClosed):
            view = self.phases.setdefault(event.phase, PhaseView(event.phase, ""))
            view.closed = event.status
            view.defects.extend(d for d in event.defects if d not in view.defects)
        elif isinstance(event, WatchdogAlarm):
            self.alarm = event
        else:
            return
        self._paint()

    def _paint(self) -> None:
        if not self.phases and self.run_title is None:
            self.query_one("#gate-body", Static).update(Content.from_markup(_EMPTY))
            return
        lines = ["[$scripted-label]scripted demo run[/]"] if self.scripted else []
        if self.run_title:
            lines.append(f"[b]run[/b] {plain(self.run_title)}")
        for view in self.phases.values():
            lines.extend(_phase_lines(view))
        if self.alarm is not None:
            a = self.alarm
            lines.append(f"[$warning]watchdog: {plain(a.kind)}[/] {a.idle_s:.0f}s idle → {plain(a.action)}")
        self.query_one("#gate-body", Static).update(Content.from_markup("\n".join(lines)))

    def reset(self) -> None:
        self.run_title = None
        self.phases.clear()
        self.alarm = None
        self._paint()


def _phase_lines(view: PhaseView) -> list[str]:
    title = f" {plain(view.title)}" if view.title else ""
    attempt = f" [dim](attempt {view.attempt})[/dim]" if view.attempt > 1 else ""
    verdict = view.verdict
    closed = f" · [dim]{plain(view.closed)}[/dim]" if view.closed else ""
    lines = [f"[b]{plain(view.phase)}[/b]{title}{attempt}"]
    if verdict is None:
        lines.append(f"  [$gate-pending]◌ gate pending[/]{closed}")
    else:
        word = verdict.verdict or "no verdict"
        token = _VERDICT_TOKENS.get(word, "$gate-fail")
        decision = f" → {plain(verdict.decision)}" if verdict.decision else ""
        lines.append(f"  [{token}]● {plain(word)}[/]{closed}")
        lines.append(f"  [dim]by {plain(verdict.tier)}{decision}[/dim]")
    if verdict is not None:
        for veto in verdict.vetoes:
            lines.append(f"  [$gate-fail]veto:[/] {plain(veto)}")
        if verdict.outstanding:
            lines.append("  [$gate-fail]outstanding:[/] " + ", ".join(plain(t) for t in verdict.outstanding))
    for defect in view.defects:
        lines.append(f"  [$gate-defects]defect:[/] {plain(defect)}")
    return lines
