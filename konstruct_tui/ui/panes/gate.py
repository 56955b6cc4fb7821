"""The gate pane: blueprint phases with every attempt's verdict (kept, not replaced by the next),
outstanding tasks, vetoes with the failing command's own output, accepted defects, and — when a run
ends short of done — the command that resumes it; rendered from the blueprint layer's events. Empty (and says why) when no blueprint run is going on:
pair-coding sessions have no gate."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from ..untrusted import plain
from textual.widgets import Static

from ...agent import Finished, SessionStarted
from ...blueprint import PhaseClosed, PhaseStarted, RunStarted, VerdictReached, WatchdogAlarm
from ..messages import Reportable

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
    history: list[VerdictReached] = field(default_factory=list)  # every gate run, one per attempt, oldest first
    closed: str | None = None
    defects: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> VerdictReached | None:
        """The latest gate run (earlier ones stay in `history`)."""
        return self.history[-1] if self.history else None


class GatePane(VerticalScroll):
    # The event types this pane draws: the app routes only these to `show` (see messages.EventRoutes).
    # A plain SessionStarted (a pair-coding run) ends the following of a blueprint run: its
    # `finished` is not the blueprint's.
    DRAWS: ClassVar[tuple[type, ...]] = (RunStarted, SessionStarted, PhaseStarted, VerdictReached, PhaseClosed, WatchdogAlarm, Finished)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.run_title: str | None = None
        self.run_id: str | None = None
        self.phases: dict[str, PhaseView] = {}
        self.alarm: WatchdogAlarm | None = None
        self.ended: Finished | None = None
        self._following = False
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
            self.run_id, self._following = event.run_id, True
        elif isinstance(event, SessionStarted):
            self._following = False
            return
        elif isinstance(event, PhaseStarted):
            view = self.phases.setdefault(event.phase, PhaseView(event.phase, event.title))
            view.attempt, view.closed = event.attempt, None
            view.title = view.title or event.title
            view.tasks = tuple(str(t.get("id", t)) if isinstance(t, dict) else str(t) for t in event.tasks)
        elif isinstance(event, VerdictReached):
            view = self.phases.setdefault(event.phase, PhaseView(event.phase, "", attempt=event.attempt))
            view.history = [v for v in view.history if v.attempt != event.attempt] + [event]  # a re-run gate replaces its own attempt
            view.defects.extend(d for d in event.defects if d not in view.defects)
        elif isinstance(event, PhaseClosed):
            view = self.phases.setdefault(event.phase, PhaseView(event.phase, ""))
            view.closed = event.status
            view.defects.extend(d for d in event.defects if d not in view.defects)
        elif isinstance(event, WatchdogAlarm):
            self.alarm = event
        elif isinstance(event, Finished):
            if not self._following:
                return
            self.ended, self._following = event, False
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
        lines.extend(self._ending_lines())  # first: what to do next stays in sight however long the history
        ended = self.ended.reason if self.ended is not None else None
        for view in self.phases.values():
            lines.extend(_phase_lines(view, ended))
        if self.alarm is not None:
            a = self.alarm
            lines.append(f"[$warning]watchdog: {plain(a.kind)}[/] {a.idle_s:.0f}s idle → {plain(a.action)}")
        self.query_one("#gate-body", Static).update(Content.from_markup("\n".join(lines)))

    def _ending_lines(self) -> list[str]:
        """How the run ended and, unless it is done, what to type next."""
        if self.ended is None:
            return []
        reason = self.ended.reason
        if reason == "done":
            return ["[$gate-pass]■ run done[/] [dim](/runs shows its report)[/dim]"]
        lines = [f"[$gate-fail]■ run {plain(reason)}[/]" + (f" [dim]{plain(self.ended.message)}[/dim]" if self.ended.message else "")]
        if self.run_id:
            lines.append(f"[$warning]next:[/] [b]konstruct blueprint resume {plain(self.run_id)}[/b] [dim](or /runs, then r)[/dim]")
        return lines

    def reset(self) -> None:
        self.run_title = None
        self.run_id = None
        self.phases.clear()
        self.alarm = None
        self.ended = None
        self._following = False
        self._paint()


def verdict_markup(verdict: str | None, decision: str, tier: str) -> str:
    """One gate run, as a line: the glyph and colour follow what the gate *decided*, so a verdict of
    `complete` the executable rung vetoed never shows green (`✗ stalled · adjudicator said complete`)."""
    word = verdict or "no verdict"
    if decision == "close":
        token = _VERDICT_TOKENS.get(word, "$gate-fail")
        return f"[{token}]● {plain(word)}[/] [dim]by {plain(tier)} → close[/dim]"
    said = f" · adjudicator said {plain(word)}" if verdict and verdict != "incomplete" else ""
    glyph = "↻" if decision == "retry" else "✗"
    named = plain(word) if verdict == "incomplete" and decision == "retry" else plain(decision)
    return f"[$gate-fail]{glyph} {named}[/] [dim]by {plain(tier)} → {plain(decision)}{said}[/dim]"


def _phase_lines(view: PhaseView, ended: str | None) -> list[str]:
    title = f" {plain(view.title)}" if view.title else ""
    attempt = f" [dim](attempt {view.attempt})[/dim]" if view.attempt > 1 else ""
    closed = f" · [dim]{plain(view.closed)}[/dim]" if view.closed else ""
    lines = [f"[b]{plain(view.phase)}[/b]{title}{attempt}{closed}"]
    latest = view.verdict
    for verdict in view.history:
        current = verdict is latest
        lines.append(f"  {verdict.attempt}. " + verdict_markup(verdict.verdict, verdict.decision, verdict.tier))
        for veto in verdict.vetoes:
            first, *said = veto.split("\n")
            lines.append(f"    [$gate-fail]veto:[/] {plain(first)}")
            # The failing command's own words: all of its head and tail for the gate run that stands,
            # its last lines (where a traceback names the error) for the earlier ones.
            lines += [f"    [dim]{plain(line.strip())}[/dim]" for line in (said if current else said[-2:])]
        if verdict.outstanding and verdict.decision != "close":
            lines.append("    [$gate-fail]outstanding:[/] " + ", ".join(plain(t) for t in verdict.outstanding))
    if latest is None or (latest.attempt < view.attempt and not view.closed):
        if ended is None:
            lines.append(f"  {view.attempt}. [$gate-pending]◌ gate pending[/]")
        elif ended != "done":
            lines.append(f"  {view.attempt}. [$gate-fail]◌ gate not run[/] [dim](run {plain(ended)})[/dim]")
    for defect in view.defects:
        lines.append(f"  [$gate-defects]defect:[/] {plain(defect)}")
    return lines
