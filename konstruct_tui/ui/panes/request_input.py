"""The request input: one line to ask the agent for something, with shell-like history (up/down),
completion of slash commands after `/` and of project files after `@` (tab or enter takes the
highlighted entry, escape closes the list)."""

from __future__ import annotations

from textual import on
from textual.binding import Binding
from textual.widgets import Input

from ...app import complete_command, fuzzy_files, mention_at
from ..messages import RequestSubmitted
from .completion import Completion, CompletionList

MAX_HISTORY = 200


class RequestInput(Input):
    BINDINGS = [
        Binding("up", "history(-1)", "Older request", show=False),
        Binding("down", "history(1)", "Newer request", show=False),
        Binding("tab", "complete", "Complete", show=False),
        Binding("escape", "close_completion", "Close list", show=False),
    ]

    def __init__(self, *, completions: CompletionList | None = None, id: str | None = None) -> None:
        super().__init__(placeholder="Ask the agent…  (/ commands · @ files · ↑↓ history · ctrl+r search)", id=id)
        self.history: list[str] = []
        self._position = 0  # == len(history): editing a fresh line
        self._draft = ""
        self.completions = completions
        self.files: list[str] = []  # the project's files, for @ completion (the app loads them)

    def remember(self, earlier: list[str]) -> None:
        """Requests from earlier launches go before this launch's own."""
        self.history = [*earlier, *self.history][-MAX_HISTORY:]
        self._position = len(self.history)

    def action_history(self, step: int) -> None:
        if self._completing:
            self.completions.move(step)  # type: ignore[union-attr]
            return
        if not self.history:
            return
        if self._position == len(self.history):
            self._draft = self.value
        self._position = max(0, min(len(self.history), self._position + step))
        self.value = self._draft if self._position == len(self.history) else self.history[self._position]
        self.cursor_position = len(self.value)

    @property
    def _completing(self) -> bool:
        return self.completions is not None and self.completions.chosen is not None

    # -- completion ------------------------------------------------------------------------------

    @on(Input.Changed)
    def _offer(self, event: Input.Changed) -> None:
        if self.completions is None:
            return
        start, entries = self._completions_for(self.value, self.cursor_position)
        self.completions.offer(start, entries)

    def _completions_for(self, text: str, cursor: int) -> tuple[int, list[Completion]]:
        if text.startswith("/") and " " not in text[:cursor] and "/" not in text[1:cursor]:
            commands = complete_command(text[1:cursor])
            return 0, [Completion(f"/{c.name}", f"/{c.name}", c.summary, "command") for c in commands]
        mention = mention_at(text, cursor)
        if mention is not None:
            start, typed = mention
            return start, [Completion(f"@{path}", path) for path in fuzzy_files(typed, self.files)]
        return 0, []

    def action_complete(self) -> None:
        if not self._take_completion():
            self.app.action_focus_next()

    def action_close_completion(self) -> None:
        if self.completions is not None and self.completions.display:
            self.completions.close()

    def _take_completion(self) -> Completion | None:
        chosen = self.completions.chosen if self.completions is not None else None
        if chosen is None:
            return None
        start = self.completions.start  # type: ignore[union-attr]
        before = self.value[:start] + chosen.insert + " "
        self.value = before + self.value[self.cursor_position :].lstrip(" ")
        self.cursor_position = len(before)
        self.completions.close()  # type: ignore[union-attr]
        return chosen

    async def action_submit(self) -> None:
        # Enter on a highlighted command runs it when what was typed is its beginning (`/he` runs
        # /help; `/hepl` is sent as typed, so it is answered "unknown command" with the nearest
        # name). On a file it completes the mention, unless the mention is already typed in full.
        completions = self.completions
        chosen = completions.chosen if completions is not None else None
        if chosen is not None:
            typed = self.value[completions.start : self.cursor_position]  # type: ignore[union-attr]
            if chosen.kind == "file" and typed != chosen.insert:
                self._take_completion()
                return
            if chosen.kind == "command" and chosen.insert.startswith(typed.lower()):
                self._take_completion()
            completions.close()  # type: ignore[union-attr]
        await super().action_submit()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if self.completions is not None:
            self.completions.close()
        if not text:
            return
        if not self.history or self.history[-1] != text:
            self.history.append(text)
            del self.history[:-MAX_HISTORY]
        self._position = len(self.history)
        self._draft = ""
        self.value = ""
        self.post_message(RequestSubmitted(text))
