"""The trust prompt: a modal that shows what the agent asks to do and how narrowly to allow it.

For a command: once; this exact command for the session or always; a rule of the shape `--allow`
takes (proposed, editable, checked by the command layer); every command only behind a second,
warned confirmation. For a chain (`make && pytest -q`, where the user's policy lets chains ask):
once; this exact chain for the session or always; a rule for each step that needs a grant (one
proposed, editable line per step; the chain then runs only while every such step is covered). For edits: once; these files for the session or always; a path glob (proposed,
editable); the whole project. Deny, or deny with a message the agent receives as the call's result.
Escape denies (or, while typing a rule, glob or message, goes back to the choices). The screen only
asks; the broker (trust_broker.py) and the trust layer record the grant.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from ..app import (
    DENY,
    GrantChoiceError,
    TrustAnswer,
    TrustPreview,
    chain_steps,
    command_rule,
    cut_paths,
    edit_glob,
    path_tail,
    rules_per_step,
    step_rules,
)
from ..untrusted_text import neutralise
from .diff_view import DiffView, PathTitle
from .untrusted import plain

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
    TrustPrompt #trust-answers { grid-size: 2; grid-gutter: 0 2; grid-columns: 1fr 1fr; height: auto; }
    TrustPrompt #trust-answers Button { width: 1fr; }
    TrustPrompt #trust-typing { height: auto; display: none; }
    TrustPrompt.-typing #trust-typing { display: block; }
    TrustPrompt.-typing #trust-answers, TrustPrompt.-confirming #trust-answers { display: none; }
    TrustPrompt #trust-typed, TrustPrompt .trust-step-rule { border: tall $accent; }
    TrustPrompt #trust-step-rules { height: auto; display: none; }
    TrustPrompt.-step-rules #trust-step-rules { display: block; }
    TrustPrompt.-step-rules #trust-typed { display: none; }
    TrustPrompt #trust-problem { color: $error; height: auto; }
    TrustPrompt #trust-confirm { height: auto; display: none; border: tall $error; padding: 0 1; }
    TrustPrompt.-confirming #trust-confirm { display: block; }
    """

    BINDINGS = [
        Binding("escape", "back_or_deny", "Deny", show=True),
        Binding("o", "answer('allow-once')", "Allow once", show=True),
        Binding("s", "answer('allow-session')", "This session", show=True),
        Binding("a", "answer('allow-always')", "Always here", show=True),
        Binding("r", "answer('narrow')", "Rule", show=False),
        Binding("g", "answer('narrow')", "Glob", show=False),
        Binding("p", "answer('project-session')", "Project, session", show=False),
        Binding("w", "answer('project-always')", "Project, always", show=False),
        Binding("e", "answer('every')", "Every command", show=False),
        Binding("y", "confirm_every", "Confirm", show=False),
        Binding("m", "answer('deny-message')", "Deny with message", show=False),
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
        self.typing: str | None = None  # "narrow" or "deny-message" while the input is open
        self.choices = self._choices()

    # -- what is offered --------------------------------------------------------------------------

    def _choices(self) -> dict[str, str]:
        """Button id -> label (with its key), in the order drawn, two to a row. A choice missing for a
        question (no exact command for a chain, no files for an edit without paths) is neither drawn
        nor answered (see action_answer)."""
        p = self.preview
        if p.capability == "commands" and p.chain:
            out = {"allow-once": "Allow once (o)", "allow-session": "This chain, this session (s)",
                   "allow-always": "This chain, always here (a)"}
            if rules_per_step(p.chain):  # none when a step could only be granted exactly, or is a script
                out["narrow"] = "A rule for each step, always… (r)"
            out["every"] = "Every command, always… (e)"
        elif p.capability == "commands":
            exact = bool(p.argv)
            out = {"allow-once": "Allow once (o)"}
            if exact:
                out["allow-session"] = "This command, this session (s)"
                out["allow-always"] = "This command, always here (a)"
            if exact and p.proposed_rule:  # none for `CI=1 make`, `timeout 9 x`: no rule would stay narrow
                out["narrow"] = "A rule like this, always… (r)"
            out["every"] = "Every command, always… (e)"
        elif p.capability == "edit":
            these = "This file" if len(p.paths) == 1 else f"These {len(p.paths)} files"
            out = {"allow-once": "Allow once (o)"}
            if p.paths:
                out["allow-session"] = f"{these}, this session (s)"
                out["allow-always"] = f"{these}, always here (a)"
                out["narrow"] = "Files matching a glob, always… (g)"
            out["project-session"] = "The whole project, this session (p)"
            out["project-always"] = "The whole project, always (w)"
        else:  # scripts, full_access: one capability with no narrower shape
            out = {"allow-once": "Allow once (o)", "allow-session": "This session (s)"}
            if p.capability != "full_access":  # asked every session: never stored
                out["allow-always"] = "Always for project (a)"
        out["deny-message"] = "Deny and tell the agent… (m)"
        out["deny"] = "Deny (esc)"
        return out

    def _keys_line(self) -> str:
        # The letters are on the buttons; this line says what else the keys do.
        return "↑↓←→ PgUp PgDn scroll · a letter or enter chooses · tab moves · esc denies"

    # -- drawing ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        p = self.preview
        self.set_class(self.app.size.width < 100, "-narrow")
        with Vertical(id="trust-dialog"):
            room = min(120, self.app.size.width) - 6  # the title's width: a path is cut at its start, never mid-word
            asks = cut_paths(self._asks(), room)
            yield Static(Content.from_markup(f"⚑ The agent asks to {plain(asks, keep_layout=False)}"), id="trust-title")
            with Horizontal(id="trust-body"):
                with VerticalScroll(id="trust-details", can_focus=False):
                    yield Static(Content.from_markup(self._facts(with_radius=p.capability != "edit")), id="trust-facts")
                    for path, diff in p.diffs:  # unwrapped, scrolling sideways; the path cut at its start
                        yield PathTitle("diff", path, classes="trust-diff")
                        yield DiffView(diff, self.syntax_theme, classes="trust-diff-body")
                if p.capability == "edit":
                    yield Static(Content.from_markup(self._radius()), id="trust-radius")
            yield Static(Content(self._keys_line()), id="trust-keys")
            with Grid(id="trust-answers"):
                for key, label in self.choices.items():
                    variant = {"allow-once": "primary", "every": "warning", "project-always": "warning",
                               "deny": "error", "deny-message": "error"}.get(key, "default")
                    yield Button(Content(label), id=key, variant=variant, compact=True)  # type: ignore[arg-type]
            with Vertical(id="trust-typing"):
                yield Static("", id="trust-typing-label")
                yield Input(id="trust-typed", compact=True)
                with Vertical(id="trust-step-rules"):  # a chain: one rule per step that needs a grant
                    for number, part in enumerate((part for part in p.chain if part.needs), 1):
                        yield Static(Content.from_markup(f"step {number}: {plain(part.text(), keep_layout=False)}"))
                        yield Input(part.proposed_rule or "", id=f"trust-step-{number}", classes="trust-step-rule", compact=True)
                yield Static("", id="trust-problem")
            yield Static(Content.from_markup(self._every_warning()), id="trust-confirm")

    def _asks(self) -> str:
        """What the agent asks, as a sentence: a self-gated command's detail is the bare command line."""
        p = self.preview
        if p.tool == "run_command" and not p.detail.startswith("run "):
            return f"run {p.detail}" if p.capability != "full_access" else p.detail
        return p.detail

    def on_resize(self) -> None:
        # The answers stay on screen: the diffs get what is left of the terminal's height.
        rows = (len(self.choices) + 1) // 2
        self.query_one("#trust-body").styles.max_height = max(4, self.app.size.height - 5 - rows)

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
        for number, part in enumerate(p.chain, 1):  # each step, and whether it needs a grant on its own
            needs = {None: "[dim]allowed on its own[/dim]", "commands": "needs a grant",
                     "scripts": "a project script: the scripts grant"}.get(part.needs, plain(str(part.needs)))
            joined = f"{plain(part.connector)} " if part.connector else ""
            lines.append(f"[b]step {number}[/b]      {joined}{plain(part.text(), keep_layout=False)} · {needs}")
        if p.confinement:
            lines.append(f"[b]sandbox[/b]     {plain(p.confinement)}")
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

    def _every_warning(self) -> str:
        project = plain(self.preview.project or "this project", keep_layout=False)
        return ("[b $error]⚠ Every command, always[/]\n"
                f"The agent may run [b]every command[/b] the policy lets ask in [b]{project}[/b], in this and every later "
                "session, without asking again, until `konstruct trust revoke commands`. The policy's refusals and "
                "deny list still apply.\n[b]y[/b] grant every command · [b]esc[/b] back to the choices")

    def on_mount(self) -> None:
        self.on_resize()
        self.query_one("#allow-once", Button).focus()

    # -- answering --------------------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_answer(event.button.id or "deny")

    def action_answer(self, key: str) -> None:
        if self.typing is not None or self.has_class("-confirming"):
            return  # a letter typed into the input, or a choice while the warning asks: not an answer
        if key not in self.choices:
            return
        if key == "narrow":
            self._start_typing("narrow")
        elif key == "deny-message":
            self._start_typing("deny-message")
        elif key == "every":
            self.add_class("-confirming")
        else:
            self.dismiss(self._answer(key))

    def _answer(self, key: str) -> TrustAnswer:
        p = self.preview
        if key == "deny":
            return DENY
        if key == "allow-once":
            return TrustAnswer(True, "once")
        scope = "always" if key in ("allow-always", "project-always") else "session"
        if p.capability == "commands" and p.chain:
            return TrustAnswer(True, scope, chain=chain_steps(p.chain))
        if p.capability == "commands":
            return TrustAnswer(True, scope, command=("exact", p.argv))
        if p.capability == "edit":
            return TrustAnswer(True, scope, paths=p.paths if key.startswith("allow-") else ())
        return TrustAnswer(True, scope)

    def action_confirm_every(self) -> None:
        if self.has_class("-confirming"):
            self.dismiss(TrustAnswer(True, "always"))

    def action_back_or_deny(self) -> None:
        if self.typing is not None or self.has_class("-confirming"):
            self.typing = None
            self.remove_class("-typing", "-confirming", "-step-rules")
            self.query_one("#allow-once", Button).focus()
            return
        self.dismiss(DENY)

    def _start_typing(self, what: str) -> None:
        p = self.preview
        self.typing = what
        typed = self.query_one("#trust-typed", Input)
        label = self.query_one("#trust-typing-label", Static)
        if what == "deny-message":
            label.update(Content("Tell the agent why, or what to do instead (enter denies, esc goes back):"))
            typed.value = ""
        elif p.capability == "commands" and p.chain:
            label.update(Content("Allow always: for each step, commands that start with these words (unsafe options "
                                 "stay refused; the chain runs while every step is covered; tab moves, enter grants, "
                                 "esc goes back):"))
            self.add_class("-step-rules")
            typed = self.query_one("#trust-step-1", Input)
        elif p.capability == "commands":
            label.update(Content("Allow always: commands that start with these words (the program's unsafe options "
                                 "stay refused; enter grants, esc goes back):"))
            typed.value = p.proposed_rule or ""
        else:
            label.update(Content("Allow always: edits to files matching this glob (workspace-relative; "
                                 "enter grants, esc goes back):"))
            typed.value = p.proposed_glob or ""
        self.query_one("#trust-problem", Static).update("")
        self.add_class("-typing")
        typed.focus()
        typed.cursor_position = len(typed.value)

    @on(Input.Submitted, "#trust-typed, .trust-step-rule")
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        p = self.preview
        text = event.value
        if self.typing == "deny-message":
            self.dismiss(TrustAnswer(False, message=text.strip()))
            return
        try:
            if p.capability == "commands" and p.chain:  # enter in any step's line grants them all
                texts = [typed.value for typed in self.query(".trust-step-rule").results(Input)]
                answer = TrustAnswer(True, "always", rules=step_rules(texts, p.chain))
            elif p.capability == "commands":
                answer = TrustAnswer(True, "always", command=("prefix", command_rule(text, p.argv)))
            else:
                answer = TrustAnswer(True, "always", paths=(edit_glob(text, p.paths),))
        except GrantChoiceError as problem:
            self.query_one("#trust-problem", Static).update(Content(str(problem)))
            return
        self.dismiss(answer)
