"""The trust prompt: a modal that shows what the agent asks to do and takes one of four answers.
Escape denies. The screen only asks; the broker (trust_broker.py) records the grant."""

from __future__ import annotations

from rich.syntax import Syntax
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..app import DENY, TrustAnswer, TrustPreview

ANSWERS = {
    "allow-once": TrustAnswer(True, "once"),
    "allow-session": TrustAnswer(True, "session"),
    "allow-always": TrustAnswer(True, "always"),
    "deny": DENY,
}


class TrustPrompt(ModalScreen[TrustAnswer]):
    # Self-contained piece: its layout lives with it (STYLE.md: DEFAULT_CSS only for pieces like a
    # confirmation modal); colors are theme variables only.
    DEFAULT_CSS = """
    TrustPrompt { align: center middle; }
    TrustPrompt > #trust-dialog {
        width: 96; max-width: 95%; height: auto; max-height: 90%;
        border: thick $warning; background: $surface; padding: 1 2;
    }
    TrustPrompt #trust-title { text-style: bold; color: $warning; margin-bottom: 1; }
    TrustPrompt #trust-details { height: auto; max-height: 22; }
    /* Docked, so a long diff in a short terminal scrolls instead of pushing the answers off screen. */
    TrustPrompt .trust-diff { margin-top: 1; }
    TrustPrompt #trust-answers { dock: bottom; height: auto; margin-top: 1; align-horizontal: center; }
    TrustPrompt #trust-answers Button { margin: 0 1; min-width: 14; }
    """

    BINDINGS = [
        Binding("escape", "answer('deny')", "Deny", show=True),
        Binding("o", "answer('allow-once')", "Allow once", show=True),
        Binding("s", "answer('allow-session')", "This session", show=True),
        Binding("a", "answer('allow-always')", "Always here", show=True),
        Binding("d", "answer('deny')", "Deny", show=False),
    ]

    def __init__(self, preview: TrustPreview, syntax_theme: str = "monokai") -> None:
        super().__init__()
        self.preview = preview
        self.syntax_theme = syntax_theme

    def compose(self) -> ComposeResult:
        p = self.preview
        with Vertical(id="trust-dialog"):
            yield Static(Content.from_markup(f"⚑ The agent asks to {escape(p.detail)}"), id="trust-title")
            with VerticalScroll(id="trust-details"):
                yield Static(Content.from_markup(self._facts()), id="trust-facts")
                for path, diff in p.diffs:
                    yield Static(Content.from_markup(f"[b]diff[/b] {escape(path)}"), classes="trust-diff")
                    yield Static(Syntax(diff, "diff", theme=self.syntax_theme, word_wrap=True))
            with Horizontal(id="trust-answers"):
                yield Button(Content("Allow once (o)"), id="allow-once", variant="primary")
                yield Button(Content("This session (s)"), id="allow-session")
                yield Button(Content("Always for project (a)"), id="allow-always", variant="warning")
                yield Button(Content("Deny (esc)"), id="deny", variant="error")

    def _facts(self) -> str:
        p = self.preview
        lines = [f"[b]capability[/b]  {escape(p.capability)} [dim](tool {escape(p.tool)})[/dim]"]
        if p.command:
            lines.append(f"[b]command[/b]     {escape(p.command)}")
        if p.rule:
            lines.append(f"[b]rule[/b]        {escape(p.rule)}: {escape(p.reason or '')}")
        if p.paths:
            lines.append(f"[b]files[/b]       {escape(', '.join(p.paths))}")
        if p.capability == "edit":
            if p.blast_radius is None:
                lines.append(f"[b]blast radius[/b] [dim]{escape(p.blast_note or 'unknown')}[/dim]")
            elif p.blast_radius:
                shown = ", ".join(p.blast_radius[:12]) + (f" and {len(p.blast_radius) - 12} more" if len(p.blast_radius) > 12 else "")
                lines.append(f"[b]blast radius[/b] [$warning]{len(p.blast_radius)} dependent file(s)[/]: {escape(shown)}")
            else:
                lines.append("[b]blast radius[/b] no other file depends on these")
        for note in p.notes:
            lines.append(f"[dim]{escape(note)}[/dim]")
        return "\n".join(lines)

    def on_mount(self) -> None:
        self.query_one("#allow-once", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_answer(event.button.id or "deny")

    def action_answer(self, key: str) -> None:
        self.dismiss(ANSWERS.get(key, DENY))
