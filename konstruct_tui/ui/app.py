"""The workbench: composes the panes, routes the loop's events to them, and runs the loop in a worker.

Attributes down, messages up: each pane gets the events of the types it draws (`EventRoutes`); panes
send `RequestSubmitted` and `KillRequested` up. Work happens in workers (the loop, the graph overview,
the sessions list) that call the application layer (`konstruct_tui.app`) and post their result as a
typed message; their failures are routed in one `Worker.StateChanged` handler and shown in one
place, the transcript. What the person's keys and palette entries do is in workbench_actions.py; the
core behind the screen, loaded after the first frame, in lazy_core.py.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.css.query import NoMatches
from textual.filter import LineFilter
from textual.markup import escape
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState

from ..app import Notice, literal_request, parse_slash
from .messages import (
    CompactionDone,
    EventRoutes,
    FilesListed,
    GraphLoaded,
    HistoryLoaded,
    KillRequested,
    Reported,
    RequestSubmitted,
    RunEnded,
    SessionReplayed,
    SessionsListed,
)
from .narrow_layout import fit_width
from .panes.batches import BatchTable
from .panes.budgets import BudgetsPane
from .panes.completion import CompletionList
from .panes.gate import GatePane
from .panes.neighborhoods import NeighborhoodsPane
from .panes.request_input import RequestInput
from .panes.transcript import Transcript
from .lazy_core import LazyCore
from .reporter import Streamed
from .workbench_actions import WorkbenchActions
from .themes import DEFAULT_THEME, ThemeSet, fill_app_variables, load_themes
from .untrusted import TerminalGuard, plain

if TYPE_CHECKING:
    from ..app import Attachment, WorkbenchSetup


Handler = TypeVar("Handler", bound=Callable[..., None])


def _unless_closing(handler: Handler) -> Handler:
    """A worker's result may land while the app is closing and its panes are gone: nothing left to
    show it on, so it is dropped."""

    @functools.wraps(handler)
    def guarded(*args: Any, **kwargs: Any) -> None:
        with contextlib.suppress(NoMatches):
            handler(*args, **kwargs)

    return guarded  # type: ignore[return-value]  # same signature; wraps() does not tell mypy


def _no_model_line(problem: str | None) -> str:
    # One line at 80 columns: what is missing, and the way out.
    why = f" ({escape(problem.split(' (')[0].split('. ')[0])})" if problem else ""
    return f"[$warning]⚠ no model{why}: [b]/model[/b] picks one · /help[/]"


class Workbench(WorkbenchActions, LazyCore, App[None]):
    CSS_PATH = "workbench.tcss"
    TITLE = "Konstruct"
    BINDINGS = [
        # priority: the kill key must work whatever has focus (the request input binds ctrl+k too).
        Binding("ctrl+k", "kill", "Kill run", priority=True),
        # First after kill, so a narrow footer still shows it: the side panes' toggle.
        Binding("ctrl+b", "toggle_side", "Panes"),
        Binding("ctrl+r", "search_history", "Search requests"),
        Binding("ctrl+n", "new_session", "New session"),
        Binding("ctrl+o", "sessions", "Sessions"),
        Binding("ctrl+g", "toggle_calls", "Expand calls"),
        Binding("ctrl+t", "next_theme", "Theme"),
        Binding("ctrl+l", "focus_request", "Request", show=False),
        # The transcript scrolls from wherever the person types (a focused table or scroll keeps
        # these keys for itself: its own binding wins over the app's).
        Binding("pageup", "transcript_page_up", "Scroll up", show=False),
        Binding("pagedown", "transcript_page_down", "Scroll down", show=False),
        Binding("ctrl+home", "transcript_top", "Transcript top", show=False),
        Binding("ctrl+end", "transcript_end", "Transcript end", show=False),
        Binding("f2", "runs", "Runs", show=False),
    ]

    def __init__(self, setup: WorkbenchSetup, *, themes: ThemeSet | None = None) -> None:
        self.setup = setup
        self.themes = themes or load_themes()
        self._terminal_guard = TerminalGuard()
        super().__init__()
        for theme in self.themes.loaded:
            self.register_theme(theme)
        wanted = setup.theme or DEFAULT_THEME
        self.theme = wanted if wanted in self.available_themes else (DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark")
        # The core behind the screen (lazy_core.py), loaded right after the first frame (`_start_core`),
        # or sooner by the first thing that needs it.
        self._core = None
        self.start_tracker = False  # `run_workbench` (a real terminal) sets it
        self._calls_expanded = False
        self._after_blueprint: str | None = None
        # Requests typed while a run is in flight, sent in order as each run ends (ctrl+k drops
        # them): a run's last event ("done") reaches the screen a moment before its worker ends,
        # and a request typed in that moment, or any time during a run, is kept, never refused.
        self._queued: list[str] = []
        self._team: tuple[Any, str | None] | None = None  # (TeamWatch or None, why not): see team_watch

    # -- composition -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # The app keeps its panes by reference: a modal on top (trust prompt, sessions) is the
        # active screen, and events keep arriving for the panes underneath it.
        self.transcript = Transcript(syntax_theme=self.syntax_theme(), id="transcript")
        self.transcript.show_reasoning = getattr(self.setup.settings, "show_reasoning", True)
        self.budgets = BudgetsPane(limits=self.setup.limits, id="budgets")
        self.neighborhoods = NeighborhoodsPane(id="neighborhoods")
        self.gate = GatePane(id="gate")
        self.batches = BatchTable(id="batches")
        self.completions = CompletionList(id="completions")
        self.request = RequestInput(completions=self.completions, id="request")
        yield Static(self._banner(), id="banner")
        with Horizontal(id="main"):
            yield self.transcript
            with Vertical(id="side"):
                yield self.budgets
                yield self.neighborhoods
                yield self.gate
        yield self.batches
        yield self.completions
        yield self.request
        yield Footer()

    def _banner(self) -> Content:
        s = self.setup
        model = f"{s.settings.provider} · {s.settings.model}" if s.settings else "no model configured · /model picks one"
        label = "  [reverse $scripted-label] SCRIPTED DEMO — no model is called, no network [/]" if s.demo else ""
        return Content.from_markup(f"[b]Konstruct[/b]  {plain(s.root.name, keep_layout=False)}  [dim]{plain(model, keep_layout=False)}[/dim]{label}")

    def on_mount(self) -> None:
        self.batches.border_title = "Batches"
        self.transcript.border_title = "Transcript"
        self.gate.scripted = self.setup.demo
        self.theme_changed_signal.subscribe(self, lambda _theme: self._retheme())
        transcript = self.transcript
        for problem in self.themes.failed:
            transcript.add_problem(f"theme {problem.path} not loaded: {problem.reason}")
        if self.setup.model_problem:
            transcript.add_note(_no_model_line(self.setup.model_problem), classes="problem")
        self.routes = EventRoutes((self.transcript, self.batches, self.neighborhoods, self.gate, self.budgets))
        self.request.focus()
        self._fit_width(self.size.width)
        self.call_after_refresh(self._start_core)

    def _start_core(self) -> None:
        """After the first frame: the core (unless something needed it sooner), then the workers
        that need it. Keys pressed meanwhile wait in Textual's queue."""
        self._loaded_core()
        # Index after the first frame: the indexer holds the GIL in bursts and would delay it.
        self._load_graph()
        self._load_history()
        self._load_files()

    def on_resize(self, event: events.Resize) -> None:
        self._fit_width(event.size.width)

    def _fit_width(self, width: int) -> None:
        fit_width(self.screen_stack[0], width)  # the main screen, even under a modal
        self.refresh_bindings()  # the footer names ctrl+b only when it does something

    def use_model(self, settings: Any) -> None:
        """The model chosen with /model: the next request uses it (a demo's follow-ups too)."""
        self.setup = replace(self.setup, settings=settings, model_problem=None)
        self.runs.use_model(settings)
        self.transcript.show_reasoning = getattr(settings, "show_reasoning", True)
        self.query_one("#banner", Static).update(self._banner())
        self.transcript.add_note(f"[$success]✓ the next request goes to {escape(settings.provider)} · {plain(settings.model, keep_layout=False)}[/]")

    def get_css_variables(self) -> dict[str, str]:
        # A user theme may leave Konstruct's tokens out: each falls back to the base color it stands for.
        self.theme_variables = fill_app_variables(super().get_css_variables())
        return self.theme_variables

    def get_line_filters(self) -> list[LineFilter]:
        # The last wall: whatever a widget draws, no terminal control in it reaches the terminal.
        return [*super().get_line_filters(), self._terminal_guard]

    def syntax_theme(self) -> str:
        current = self.current_theme
        return self.themes.syntax.get(current.name, "monokai" if current.dark else "friendly")

    def _retheme(self) -> None:
        self.transcript.syntax_theme = self.syntax_theme()

    # -- events from the core ----------------------------------------------------------------

    def on_reported(self, message: Reported) -> None:
        event = message.event
        if isinstance(event, Notice):
            self.transcript.add_note(f"[$scripted-label]{escape(event.text)}[/]")
            return
        self.costs.note(event)
        with contextlib.suppress(NoMatches):  # the app is closing: a late event has no pane left to land on
            for pane in self.routes.panes_for(event):
                pane.show(event)

    def on_streamed(self, message: Streamed) -> None:
        # The hot path of a stream: coalesced deltas, and only the transcript cares.
        self.transcript.show(message.take())

    # -- requests and the run worker -----------------------------------------------------------

    @on(RequestSubmitted)
    def _submit(self, message: RequestSubmitted) -> None:
        self.submit(message.text)

    def submit(self, text: str) -> None:
        command = parse_slash(text)
        if command is not None:  # answered here, never sent to a model
            self._save_history(text)
            self.slash.run(command)
            return
        text = literal_request(text)
        if self.runs.running or self._queued:
            self._save_history(text)
            self._queued.append(text)
            self.transcript.add_note(f"[dim]⏳ queued: {escape(text[:60])} (sent when the run ends; ctrl+k drops it)[/dim]")
            return
        self._save_history(text)
        self._start(text)

    def _start(self, text: str) -> None:
        self.transcript.add_request(text)
        if self.runs.setup.settings is None:
            self.transcript.add_note(_no_model_line(self.setup.model_problem), classes="problem")
            return
        self.budgets.set_running(True)
        self._run_agent(text)

    @work(thread=True, exclusive=True, exit_on_error=False, group="agent", name="agent run")
    def _run_agent(self, request: str) -> None:
        from ..app import attach_mentions

        def run() -> object:
            attachment = attach_mentions(self.workspace, request)
            self.call_from_thread(self._show_attachment, attachment)
            return self.runs.run(attachment.text)

        self._ending(run)

    def _show_attachment(self, attachment: Attachment) -> None:
        for path, revision in attachment.attached:
            self.transcript.add_note(f"[dim]📎 attached {plain(path, keep_layout=False)} ({escape(revision[:19])}…)[/dim]")
        for problem in attachment.problems:
            self.transcript.add_problem(problem)

    @work(thread=True, exclusive=True, exit_on_error=False, group="compact", name="compaction")
    def compact(self, session_id: str | None) -> None:
        from ..app import compact_session

        try:
            outcome: object = compact_session(session_id, self.runs.setup.settings, self.workspace)
        except Exception as error:  # shown as one line; the session is unchanged
            outcome = error
        self.post_message(CompactionDone(outcome))

    @work(thread=True, exit_on_error=False, group="files", name="project files")
    def _load_files(self) -> None:
        from ..app import project_files

        self.post_message(FilesListed(project_files(self.workspace.root)))

    @work(thread=True, exclusive=True, exit_on_error=False, group="agent", name="blueprint run")
    def _run_blueprint(self, path: Path) -> None:
        self._ending(lambda: self.runs.run_blueprint(path))

    def _ending(self, run: Callable[[], object]) -> None:
        """On the worker: run, then say the run ended (a failure still raises, for the one handler)."""
        try:
            run()
        except BaseException:
            self.post_message(RunEnded(failed=True))
            raise
        self.post_message(RunEnded(failed=False))

    @work(thread=True, exit_on_error=False, group="graph", name="graph overview")
    def _load_graph(self) -> None:
        self.post_message(GraphLoaded(self.runs.graph_overview()))

    @work(thread=True, exit_on_error=False, group="history", name="request history")
    def _load_history(self) -> None:
        self.post_message(HistoryLoaded(self.runs.history()))

    @work(thread=True, exit_on_error=False, group="history-save", name="saving request history")
    def _save_history(self, text: str) -> None:
        self.runs.remember(text)

    @work(thread=True, exit_on_error=False, group="sessions", name="sessions list")
    def _list_sessions(self) -> None:
        self.post_message(SessionsListed(self.runs.sessions()))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place worker failures land: a line in the transcript, never a traceback."""
        if event.state != WorkerState.ERROR:
            return
        worker, error = event.worker, event.worker.error
        with contextlib.suppress(NoMatches):  # the app is closing and its panes are gone
            said = self.runs.scrub(str(error)) if self._core else str(error)
            self.transcript.add_problem(f"{worker.name} failed: {said or type(error).__name__}")
            if worker.group == "graph":
                self.neighborhoods.set_graph_status("graph: unavailable")
                self._first_request()

    @_unless_closing
    def on_run_ended(self, message: RunEnded) -> None:
        self.budgets.set_running(False, ended="error" if message.failed else "stopped")
        self._load_files()  # the run may have created files: @ completion offers them
        queued, self._after_blueprint = self._after_blueprint, None
        if queued:
            self.call_later(self.submit, queued)
        elif self._queued:
            if message.failed:  # not sent into a run that failed: back in the input, to decide on
                self._return_queued("the run failed")
            else:
                self.call_later(self._send_queued)

    def _send_queued(self) -> None:
        if self._queued and not self.runs.running:
            self._start(self._queued.pop(0))

    def _return_queued(self, why: str) -> None:
        queued, self._queued = self._queued, []
        field = self.query_one(RequestInput)
        field.value = field.value or queued[0]
        self.transcript.add_note(f"[dim]{len(queued)} queued request(s) not sent: {why} (the first is back in the input)[/dim]")

    @_unless_closing
    def on_graph_loaded(self, message: GraphLoaded) -> None:
        overview = message.overview
        panel = self.neighborhoods
        panel.set_graph_status(overview.status)
        if not panel.hoods:
            panel.set_neighborhoods(list(overview.neighborhoods))
        self._first_request()

    @_unless_closing
    def on_history_loaded(self, message: HistoryLoaded) -> None:
        self.request.remember(message.requests)

    @_unless_closing
    def on_compaction_done(self, message: CompactionDone) -> None:
        self.slash.compacted(message.outcome)

    @_unless_closing
    def on_files_listed(self, message: FilesListed) -> None:
        self.request.files = message.files

    @_unless_closing
    def on_sessions_listed(self, message: SessionsListed) -> None:
        from .sessions_screen import SessionsScreen

        self.push_screen(SessionsScreen(message.sessions), self._resume)

    def _first_request(self) -> None:
        # The demo's request (or a blueprint run) goes once the graph is indexed, so its
        # neighborhoods are ranked.
        first, blueprint = self.setup.first_request, self.setup.blueprint
        self.setup = replace(self.setup, first_request=None, blueprint=None)
        if blueprint is not None and not self.runs.running:
            self.transcript.add_note(f"[$primary]▶ blueprint run: {escape(blueprint.name)}[/] [dim](unattended: edits and project scripts are granted for this run)[/dim]")
            self.budgets.set_running(True)
            self._after_blueprint = first  # the demo's request follows its blueprint run
            self._run_blueprint(blueprint)
        elif first:
            self.submit(first)

    # -- actions (each one also in the command palette) ------------------------------------------

    @on(KillRequested)
    def _kill_pressed(self) -> None:
        self.action_kill()

    @work(thread=True, exit_on_error=False, group="replay", name="session replay")
    def _replay(self, session_id: str) -> None:
        self.post_message(SessionReplayed(session_id, self.runs.replay(session_id)))

    @_unless_closing
    def on_session_replayed(self, message: SessionReplayed) -> None:
        for request, event in message.shown:
            if request is not None:
                self.transcript.add_request(request)
            elif event is not None:
                self.transcript.show(event)
                self.batches.show(event)
        self.transcript.add_note(f"[$primary]↻ the next request continues session {escape(message.session_id)}[/]")

    def on_unmount(self) -> None:
        if self._core is not None:
            self.runs.close()
        if self._team is not None and self._team[0] is not None:
            self._team[0].close()


def run_workbench(setup: WorkbenchSetup) -> None:
    app = Workbench(setup)
    app.start_tracker = True  # with the core, after the first frame (`with_real_stderr`)
    app.run()
