"""The model's reasoning in the transcript: a dimmed "thinking…" block that streams live, and folds
to one line ("thought for 12 s · 340 words") as soon as the answer or a tool call begins. ctrl+g
opens and closes it with the tool calls."""

from __future__ import annotations

import time

from textual.content import Content
from textual.markup import escape
from textual.widgets import Collapsible, Static

from .repaint import RepaintThrottle

_TAIL_CHARS = 20_000  # a long reasoning phase shows its latest part while it streams; all of it once folded


class ThinkingBlock(Collapsible):
    """One reasoning phase of one turn."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._started = time.monotonic()
        self._took: float | None = None
        self._repaint = RepaintThrottle(self, self._paint)
        self._body = Static("", classes="thinking-text", markup=False)
        super().__init__(self._body, title=self._heading(), collapsed=False, classes="thinking")

    @property
    def text(self) -> str:
        if len(self._parts) > 1:
            self._parts = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    @property
    def folded(self) -> bool:
        return self._took is not None

    def append(self, text: str) -> None:
        self._parts.append(text)
        self._repaint.request()

    def _paint(self) -> None:
        self._repaint.painting()
        text = self.text
        self._body.update(text if self.folded or len(text) <= _TAIL_CHARS else "…" + text[-_TAIL_CHARS:])

    def fold(self) -> None:
        """The answer began: one line from now on (the person may open it again)."""
        if self.folded:
            return
        self._took = time.monotonic() - self._started
        self.collapsed = True
        self.title = self._heading()
        self._paint()

    def _heading(self) -> Content:
        if self._took is None:
            return Content.from_markup("[dim i]thinking…[/dim i]")
        words = len(self.text.split())
        first = next((line.strip(" *#") for line in self.text.splitlines() if line.strip(" *#")), "")
        about = f" · {escape(first[:80])}" if first else ""
        return Content.from_markup(f"[dim]thought for {self._took:.0f} s · {words} words{about}[/dim]")
