"""The request input: one line to ask the agent for something, with shell-like history (up/down)."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input

from ..messages import RequestSubmitted

MAX_HISTORY = 200


class RequestInput(Input):
    BINDINGS = [
        Binding("up", "history(-1)", "Older request", show=False),
        Binding("down", "history(1)", "Newer request", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder="Ask the agent…  (enter to send · ↑↓ history · ctrl+p commands)", id=id)
        self.history: list[str] = []
        self._position = 0  # == len(history): editing a fresh line
        self._draft = ""

    def remember(self, earlier: list[str]) -> None:
        """Requests from earlier launches go before this launch's own."""
        self.history = [*earlier, *self.history][-MAX_HISTORY:]
        self._position = len(self.history)

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        if self._position == len(self.history):
            self._draft = self.value
        self._position = max(0, min(len(self.history), self._position + step))
        self.value = self._draft if self._position == len(self.history) else self.history[self._position]
        self.cursor_position = len(self.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            return
        if not self.history or self.history[-1] != text:
            self.history.append(text)
            del self.history[:-MAX_HISTORY]
        self._position = len(self.history)
        self._draft = ""
        self.value = ""
        self.post_message(RequestSubmitted(text))
