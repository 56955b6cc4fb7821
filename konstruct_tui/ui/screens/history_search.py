"""ctrl+r: search the request history (this project's, newest first) and put one back in the input."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

MAX_SHOWN = 50


def matching(history: list[str], query: str) -> list[str]:
    """Newest first, each request once; every word of the query must occur (any case, any order)."""
    words = query.lower().split()
    seen: list[str] = []
    for text in reversed(history):
        if text not in seen and all(w in text.lower() for w in words):
            seen.append(text)
    return seen[:MAX_SHOWN]


class HistorySearch(ModalScreen[str | None]):
    DEFAULT_CSS = """
    HistorySearch { align: center middle; }
    HistorySearch > #history-dialog { width: 100; max-width: 100%; height: auto; max-height: 80%;
        border: thick $accent; background: $surface; padding: 0 1; }
    HistorySearch #history-title { text-style: bold; color: $accent; }
    HistorySearch #history-matches { height: auto; max-height: 16; }
    """
    BINDINGS = [
        Binding("escape", "dismiss_none", "Close"),
        Binding("down", "move(1)", "Next", show=False),
        Binding("up", "move(-1)", "Previous", show=False),
        Binding("ctrl+r", "move(1)", "Older match", show=False),
    ]

    def __init__(self, history: list[str]) -> None:
        super().__init__()
        self.history = history

    def compose(self) -> ComposeResult:
        with Vertical(id="history-dialog"):
            yield Static("Search requests (enter puts it in the input · esc closes)", id="history-title")
            yield Input(placeholder="words to find…", id="history-query")
            yield OptionList(id="history-matches")

    def on_mount(self) -> None:
        self._fill("")
        self.query_one("#history-query", Input).focus()

    @on(Input.Changed, "#history-query")
    def _changed(self, event: Input.Changed) -> None:
        self._fill(event.value)

    def _fill(self, query: str) -> None:
        found = matching(self.history, query)
        options = self.query_one("#history-matches", OptionList)
        options.clear_options()
        options.add_options([Option(text) for text in found] or [Option("no request matches", disabled=True)])
        options.highlighted = 0 if found else None
        self.found = found

    def action_move(self, step: int) -> None:
        options = self.query_one("#history-matches", OptionList)
        if self.found:
            options.highlighted = ((options.highlighted or 0) + step) % len(self.found)

    @on(Input.Submitted, "#history-query")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        options = self.query_one("#history-matches", OptionList)
        self.dismiss(self.found[options.highlighted] if self.found and options.highlighted is not None else None)

    @on(OptionList.OptionSelected, "#history-matches")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.found[event.option_index] if self.found else None)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
