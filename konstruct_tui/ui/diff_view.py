"""A unified diff as a terminal shows one: every line whole, `+`/`-` in the first column, and a
line wider than the pane scrolled to sideways (shift+wheel, or the scrollbar), never wrapped —
a wrapped `+` line reads like context. Its title names the file cut at the start (`…/core/calc.py`)
so a narrow pane still shows which file, never a name broken mid-word.

The diff is untrusted text (a model's edit): neutralised, and drawn by Rich's diff lexer, never
as markup."""

from __future__ import annotations

from rich.syntax import Syntax
from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.content import Content
from textual.widgets import Static

from ..app import path_tail
from ..untrusted_text import neutralise
from .untrusted import plain


class DiffView(ScrollableContainer, can_focus=False):
    """The diff's lines unwrapped, scrolling sideways when wider than the pane."""

    DEFAULT_CSS = """
    DiffView { height: auto; overflow-x: auto; overflow-y: hidden; scrollbar-size-horizontal: 1; }
    DiffView > .diff-lines { width: auto; height: auto; }
    """

    def __init__(self, diff: str, syntax_theme: str = "monokai", *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.diff = diff
        self.syntax_theme = syntax_theme

    def compose(self) -> ComposeResult:
        # Without its last newline: Rich draws one as an empty row under the diff.
        lines = neutralise(self.diff).removesuffix("\n")
        yield Static(Syntax(lines, "diff", theme=self.syntax_theme, word_wrap=False), classes="diff-lines")


class PathTitle(Static):
    """`<label> <path>` on one line, the path cut at its start to the width the line has."""

    DEFAULT_CSS = "PathTitle { height: 1; width: 1fr; }"

    def __init__(self, label: str, path: str, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.label = label
        self.path = path

    def render(self) -> Content:
        room = max(self.size.width - len(self.label) - 1, 1) if self.size.width else 80
        shown = neutralise(self.path, keep_layout=False)  # measured as drawn: a control shows as its escape
        return Content.from_markup(f"[b]{plain(self.label)}[/b] {plain(path_tail(shown, room), keep_layout=False)}")
