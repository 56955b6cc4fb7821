"""The trust prompt: a modal that shows what the agent asks to do and takes one of four answers.
Escape denies. The screen only asks; the broker (trust_broker.py) records the grant."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..app import DENY, TrustAnswer, TrustPreview, path_tail
from ..untrusted_text import neutralise
from .diff_view import DiffView, PathTitle
from .untrusted import plain

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
        width: 120; max-width: 100%; height: auto; max-height: 100%;
        border: thick $warning; background: $surface; padding: 0 1;
    }
    TrustPrompt #trust-title { text-style: bold; color: $warning; }
    TrustPrompt #trust-body { height: auto; }
    /* Every diff in full, in one scroll the keys move (the buttons keep focus; see BINDINGS). */
    TrustPrompt #trust-details { height: auto; max-height: 100%; width: 1fr; scrollbar-size-vertical: 1; }
    TrustPrompt #trust-radius { width: 34; height: auto; max-height: 100%; padding: 0 0 0 1;
        border-left: vkey $warning 50%; }
    TrustPrompt.-narrow #trust-radius { width: 24; }
    TrustPrompt .trust-diff { margin-top: 1; }
    TrustPrompt #trust-keys { color: $text-muted; }
    TrustPrompt #trust-answers { height: auto; align-horizontal: center; }
    TrustPrompt #trust-answers Button { margin: 0 1; }
    """

    BINDINGS = [
        Binding("escape", "answer('deny')", "Deny", show=True),
        Binding("o", "answer('allow-once')", "Allow once", show=True),
        Binding("s", "answer('allow-session')", "This session", show=True),
        Binding("a", "answer('allow-always')", "Always here", show=True),
        Binding("d", "answer('deny')", "Deny", show=False),
        Binding("up", "scroll_details('up')", "Scroll", show=False),
        Binding("down", "scroll_details('down')", "Scroll", show=False),
        Binding("pageup", "scroll_details('page_up')", "Page up", show=False),
        Binding("pagedown", "scroll_details('page_down')", "Page down", show=False),
        Binding("home", "scroll_details('home')", "Top", show=False),
        Binding("end", "scroll_details('end')", "Bottom", show=False),
        Binding("left", "scroll_diffs(-8)", "Scroll left", show=False),  # a diff scrolls sideways, never wraps
        Binding("right", "scroll_diffs(8)", "Scroll right", show=False),
    ]

    def __init__(self, preview: TrustPreview, syntax_theme: str = "monokai") -> None:
        super().__init__()
        self.preview = preview
        self.syntax_theme = syntax_theme

    def compose(self) -> ComposeResult:
        p = self.preview
        self.set_class(self.app.size.width < 100, "-narrow")
        with Vertical(id="trust-dialog"):
            yield Static(Content.from_markup(f"⚑ The agent asks to {plain(p.detail, keep_layout=False)}"), id="trust-title")
            with Horizontal(id="trust-body"):
                with VerticalScroll(id="trust-details", can_focus=False):
                    yield Static(Content.from_markup(self._facts(with_radius=p.capability != "edit")), id="trust-facts")
                    for path, diff in p.diffs:  # unwrapped, scrolling sideways; the path cut at its start
                        yield PathTitle("diff", path, classes="trust-diff")
                        yield DiffView(diff, self.syntax_theme, classes="trust-diff-body")
                if p.capability == "edit":
                    yield Static(Content.from_markup(self._radius()), id="trust-radius")
            yield Static("↑↓←→ PgUp PgDn Home End scroll · o once · s session · a always · esc deny", id="trust-keys")
            with Horizontal(id="trust-answers"):
                yield Button(Content("Allow once (o)"), id="allow-once", variant="primary", compact=True)
                yield Button(Content("This session (s)"), id="allow-session", compact=True)
                yield Button(Content("Always for project (a)"), id="allow-always", variant="warning", compact=True)
                yield Button(Content("Deny (esc)"), id="deny", variant="error", compact=True)

    def on_resize(self) -> None:
        # The answers stay on screen: the diffs get what is left of the terminal's height.
        self.query_one("#trust-body").styles.max_height = max(4, self.app.size.height - 6)

    def action_scroll_details(self, how: str) -> None:
        details = self.query_one("#trust-details", VerticalScroll)
        {"up": details.scroll_up, "down": details.scroll_down, "page_up": details.scroll_page_up,
         "page_down": details.scroll_page_down, "home": details.scroll_home, "end": details.scroll_end}[how](animate=False)

    def action_scroll_diffs(self, columns: int) -> None:
        for view in self.query(DiffView):
            view.scroll_relative(x=columns, animate=False)

    def _radius(self) -> str:
        p = self.preview
        if p.blast_radius is None:
            return f"[b]blast radius[/b]\n[dim]{plain(p.blast_note or 'unknown')}[/dim]"
        if not p.blast_radius:
            return "[b]blast radius[/b]\nno other file depends on these"
        room = 22 if self.has_class("-narrow") else 32  # the column's width: a path is cut at its start, never mid-word
        return f"[b]blast radius[/b]\n[$warning]{len(p.blast_radius)} dependent file(s)[/]\n" + "\n".join(
            plain(path_tail(neutralise(path, keep_layout=False), room), keep_layout=False) for path in p.blast_radius)

    def _details_width(self) -> int:
        """The diffs' column: the dialog (120 at most, less border and padding) less the radius column."""
        dialog = min(120, self.app.size.width) - 4
        return dialog - (24 if self.has_class("-narrow") else 34) - 1 if self.preview.capability == "edit" else dialog - 1

    def _facts(self, with_radius: bool = True) -> str:
        p = self.preview
        lines = [f"[b]capability[/b]  {plain(p.capability)} [dim](tool {plain(p.tool)})[/dim]"]
        if p.command:
            lines.append(f"[b]command[/b]     {plain(p.command)}")
        if p.rule:
            lines.append(f"[b]rule[/b]        {plain(p.rule)}: {plain(p.reason or '')}")
        if p.paths:
            room = self._details_width() - 12  # after the label: each path fits its line, cut at its start
            shown = (path_tail(neutralise(path, keep_layout=False), room) for path in p.paths)
            lines.append(f"[b]files[/b]       {plain(', '.join(shown), keep_layout=False)}")
        if p.capability == "edit" and with_radius:
            if p.blast_radius is None:
                lines.append(f"[b]blast radius[/b] [dim]{plain(p.blast_note or 'unknown')}[/dim]")
            elif p.blast_radius:
                shown = ", ".join(p.blast_radius[:12]) + (f" and {len(p.blast_radius) - 12} more" if len(p.blast_radius) > 12 else "")
                lines.append(f"[b]blast radius[/b] [$warning]{len(p.blast_radius)} dependent file(s)[/]: {plain(shown, keep_layout=False)}")
            else:
                lines.append("[b]blast radius[/b] no other file depends on these")
        for note in p.notes:
            lines.append(f"[dim]{plain(note)}[/dim]")
        return "\n".join(lines)

    def on_mount(self) -> None:
        self.on_resize()
        self.query_one("#allow-once", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_answer(event.button.id or "deny")

    def action_answer(self, key: str) -> None:
        self.dismiss(ANSWERS.get(key, DENY))
