"""What the workbench's keys and its command palette do: the side panes, history search, kill, new
and earlier sessions, expanding calls, themes, the request input, scrolling the transcript from
wherever the person types, the runs and approvals screens. The keys themselves are `Workbench.BINDINGS`
(Textual reads bindings from widget classes only); every action here is also a palette entry.

A mixin of `Workbench`: it works on the app's panes (`transcript`, `request`, `budgets`, ...) and
its lazily loaded core (`runs`, `costs`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.app import SystemCommand
from textual.screen import ModalScreen, Screen

from .narrow_layout import next_view
from .screens.history_search import HistorySearch


class WorkbenchActions:
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_side" and self.screen_stack and not self.screen_stack[0].has_class("-narrow"):
            return False  # wide: every pane is on screen already
        if action == "search_history" and len(self.screen_stack) > 1:
            return False  # over a question or a picker, ctrl+r is theirs (history search moves its match)
        return True

    def action_toggle_side(self) -> None:
        shown = next_view(self.screen_stack[0])
        if shown is None:
            self.notify("The side panes are already on screen (the terminal is wide enough).")
        else:
            self.notify(f"{shown} (ctrl+b for the next view)", timeout=2)

    def action_search_history(self) -> None:
        self.push_screen(HistorySearch(list(self.request.history)), self._history_chosen)

    def _history_chosen(self, text: str | None) -> None:
        if text is not None:
            self.request.value = text
            self.request.cursor_position = len(text)
        self.request.focus()

    def action_kill(self) -> None:
        dropped, self._queued = self._queued, []
        if dropped:
            self.transcript.add_note(f"[dim]dropped {len(dropped)} queued request(s)[/dim]")
        if self._core is None or not self.runs.kill():
            if not dropped:
                self.notify("Nothing is running.")
            return
        self.budgets.set_killing()
        from ..app import DENY
        from .trust_prompt import TrustPrompt

        if isinstance(self.screen, TrustPrompt):
            self.screen.dismiss(DENY)  # a run killed mid-question is not a yes

    def action_new_session(self) -> None:
        if self.runs.running:
            self.notify("Kill the run first (ctrl+k).", severity="warning")
            return
        self.runs.new_session()
        self.costs.reset()
        self.transcript.clear()
        self.batches.reset()
        self.gate.reset()
        self.transcript.add_note("[dim]new session: the next request starts fresh[/dim]")

    def action_sessions(self) -> None:
        self._list_sessions()

    def _resume(self, session_id: str | None) -> None:
        if session_id is None:
            return
        if self.runs.running:
            self.notify("Kill the run first (ctrl+k).", severity="warning")
            return
        self.runs.continue_session(session_id)
        self.transcript.clear()
        self.batches.reset()
        self._replay(session_id)

    def action_toggle_calls(self) -> None:
        self._calls_expanded = not self._calls_expanded
        self.transcript.set_all_collapsed(not self._calls_expanded)

    def action_next_theme(self) -> None:
        names = [t.name for t in self.themes.loaded] or [self.theme]
        position = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(position + 1) % len(names)]
        self.notify(f"Theme: {self.theme}")

    def action_focus_request(self) -> None:
        self.request.focus()

    def action_transcript_page_up(self) -> None:
        self.transcript.scroll_page_up(animate=False)

    def action_transcript_page_down(self) -> None:
        self.transcript.scroll_page_down(animate=False)

    def action_transcript_top(self) -> None:
        self.transcript.scroll_home(animate=False)

    def action_transcript_end(self) -> None:
        self.transcript.scroll_end(animate=False)

    def action_runs(self, run_id: str | None = None) -> None:
        """The runs screen (/runs, /blueprint, f2); with a run id, attached to that run at once."""
        from .runs_screen import RunScreen, RunsScreen  # loaded on first use: not on the first paint's path

        if len(self.screen_stack) > 1 and not isinstance(self.screen, RunsScreen):
            self.notify("Close this screen first (escape); then f2 or /runs.", severity="warning")
            return  # never on top of a trust question, nor a second list over the first
        if not isinstance(self.screen, RunsScreen):
            self.push_screen(RunsScreen(self.setup.root))
        if run_id:
            self.push_screen(RunScreen(run_id))

    def action_approvals(self, run_id: str | None = None) -> None:
        """The approvals screen (/approvals, the palette, w on a run waiting for an answer)."""
        from .approvals_screen import ApprovalsScreen  # loaded on first use

        if isinstance(self.screen, ApprovalsScreen):
            return
        if isinstance(self.screen, ModalScreen):
            self.notify("Close this screen first (escape); then /approvals.", severity="warning")
            return  # never on top of a trust question
        watch, problem = self.team_watch()
        if watch is None:
            self.notify(problem or "No team database: give --database URL, $KONSTRUCT_DATABASE_URL or [team] database in config.toml.",
                        severity="warning", timeout=8)
            return
        self.push_screen(ApprovalsScreen(watch, run_id))

    def team_watch(self) -> tuple[Any, str | None]:
        """The team database the runs and approvals screens read, opened on first use, or why not;
        (None, None) when none is configured (the runs screen lists this machine's runs alone)."""
        if self._team is None:
            from .team_watch import open_team_watch

            self._team = open_team_watch(self.setup.team_database)
        return self._team

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Kill run", "Stop the agent run mid-flight (ctrl+k)", self.action_kill)
        yield SystemCommand("New session", "Start afresh: the next request opens a new session (ctrl+n)", self.action_new_session)
        yield SystemCommand("Sessions", "List this project's sessions and continue one (ctrl+o)", self.action_sessions)
        yield SystemCommand("Expand or collapse tool calls", "Show every call's arguments and results (ctrl+g)", self.action_toggle_calls)
        yield SystemCommand("Next Konstruct theme", "Cycle dark, light and high contrast (ctrl+t)", self.action_next_theme)
        yield SystemCommand("Show or hide the side panes", "Budgets, neighborhoods, gate and batches on narrow terminals (ctrl+b)", self.action_toggle_side)
        yield SystemCommand("Pick a model", "Provider, model, base URL; detects local servers (/model)", lambda: self.submit("/model"))
        yield SystemCommand("Search requests", "Find an earlier request and put it back in the input (ctrl+r)", self.action_search_history)
        yield SystemCommand("Blueprint runs", "Every blueprint run of this project: attach, stop, resume, report (f2, /runs)", self.action_runs)
        yield SystemCommand("Approvals", "Answer the trust requests parked team runs wait on (/approvals)", self.action_approvals)
        yield SystemCommand("Focus request input", "Type a request for the agent (ctrl+l)", self.action_focus_request)
        yield SystemCommand("Transcript: page up", "Scroll the transcript up a page (PageUp, from the input too)", self.action_transcript_page_up)
        yield SystemCommand("Transcript: page down", "Scroll the transcript down a page (PageDown)", self.action_transcript_page_down)
        yield SystemCommand("Transcript: top", "Scroll to the start of the session (ctrl+home)", self.action_transcript_top)
        yield SystemCommand("Transcript: end", "Scroll to the newest entry (ctrl+end)", self.action_transcript_end)

