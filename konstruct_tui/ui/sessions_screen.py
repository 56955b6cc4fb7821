"""Sessions of this project: pick one to continue it (the next request resumes it), Escape to close."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..app import SessionSummary
from .untrusted import plain


class SessionsScreen(ModalScreen[str | None]):
    DEFAULT_CSS = """
    SessionsScreen { align: center middle; }
    SessionsScreen > #sessions-dialog {
        width: 100; max-width: 95%; height: auto; max-height: 80%;
        border: thick $primary; background: $surface; padding: 1 2;
    }
    SessionsScreen #sessions-title { text-style: bold; margin-bottom: 1; }
    SessionsScreen OptionList { height: auto; max-height: 24; }
    """
    BINDINGS = [Binding("escape", "dismiss_none", "Close")]

    def __init__(self, sessions: list[SessionSummary]) -> None:
        super().__init__()
        self.sessions = sessions

    def compose(self) -> ComposeResult:
        with Vertical(id="sessions-dialog"):
            title = "Sessions of this project — enter continues one, escape closes"
            yield Static(title, id="sessions-title")
            if not self.sessions:
                yield Static(Content.from_markup("[dim]No sessions yet for this project.[/dim]"))
            options = [Option(_label(s), id=s.session_id) for s in self.sessions]
            yield OptionList(*options, id="sessions-list")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


def _label(summary: SessionSummary) -> Content:
    state = summary.finished or "unfinished"
    colour = "$success" if state == "done" else "$warning" if state in ("killed", "unfinished") else "$error"
    request = summary.request if len(summary.request) <= 56 else summary.request[:55] + "…"
    return Content.from_markup(
        f"[b]{escape(summary.session_id)}[/b]  [{colour}]{escape(state):<10}[/]  {plain(request, keep_layout=False)}  [dim]{escape(summary.model)}[/dim]"
    )
