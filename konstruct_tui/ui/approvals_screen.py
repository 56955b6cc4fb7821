"""The approvals screen (`/approvals`, the palette, `w` on a run waiting for an answer): the trust
requests parked team runs wait on, each shown as the trust prompt shows it (capability, files,
diffs, blast radius, the command and its policy verdict), answered here.

An answer goes the way `konstruct approvals grant|deny` sends it (team/supervise.py
`answer_approval`): final, recorded in the audit with the database role and OS user that gave it,
and the run goes back to the queue once nothing of it is pending. A role that may watch but not
approve (PostgreSQL permissions) is told so in one line; nothing changes.
"""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static

from ..app import age_text, path_tail
from ..untrusted_text import neutralise
from .diff_view import DiffView, PathTitle
from .untrusted import plain

POLL_S = 1.0


class ApprovalsScreen(Screen[None]):
    DEFAULT_CSS = """
    ApprovalsScreen { overflow: hidden; }
    ApprovalsScreen #approvals-title { padding: 0 1; text-style: bold; }
    ApprovalsScreen #approvals-table { height: auto; max-height: 8; }
    ApprovalsScreen #approvals-note { padding: 0 1; color: $text-muted; }
    ApprovalsScreen #approval-details { height: 1fr; padding: 0 1; border-top: solid $warning 50%; }
    ApprovalsScreen .approval-diff { margin-top: 1; }
    ApprovalsScreen #approval-message { height: auto; display: none; padding: 0 1; }
    ApprovalsScreen.-typing #approval-message { display: block; }
    ApprovalsScreen #approval-typed { border: tall $accent; }
    """
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("o", "answer('granted', 'once')", "Grant once"),
        Binding("r", "answer('granted', 'run')", "Grant for the run"),
        Binding("d", "answer('denied', 'once')", "Deny"),
        Binding("m", "deny_with_message", "Deny with message"),
        Binding("left", "scroll_diffs(-8)", "Scroll left", show=False),  # a diff scrolls sideways, never wraps
        Binding("right", "scroll_diffs(8)", "Scroll right", show=False),
        Binding("pageup", "scroll_details('page_up')", "Page up", show=False),
        Binding("pagedown", "scroll_details('page_down')", "Page down", show=False),
        Binding("f5", "refresh", "Refresh", show=False),
    ]

    def __init__(self, watch: Any, run_id: str | None = None, syntax_theme: str = "monokai") -> None:
        super().__init__()
        self.watch = watch
        self.run_id = run_id  # only this run's requests (from the runs screen), else every run's
        self.syntax_theme = syntax_theme
        self.requests: list[dict[str, Any]] = []
        self.problem: str | None = None
        self.answered: list[str] = []  # what this screen answered, one line each (the tests and the person read it)
        self._shown: tuple[str, str] | None = None

    def compose(self) -> ComposeResult:
        which = f" of run {plain(self.run_id)}" if self.run_id else " [dim]— team runs parked on a trust question[/dim]"
        yield Static(Content.from_markup(f"[b]Approvals[/b]{which} [dim]· {plain(self.watch.shown)}[/dim]"), id="approvals-title")
        table: DataTable[Any] = DataTable(id="approvals-table", cursor_type="row", zebra_stripes=True)
        # `what` takes the room the others leave (each column pads by one on both sides): the age stays on an 80-column screen.
        what = max(16, min(60, self.app.size.width - (26 + 11 + 8 + 7) - 2 * 5 - 3))
        for label, width in (("run", 26), ("request", 11), ("asks", 8), ("what", what), ("waiting", 7)):
            table.add_column(label, width=width)
        yield table
        yield Static(id="approvals-note")
        yield VerticalScroll(id="approval-details", can_focus=False)
        with Vertical(id="approval-message"):
            yield Static("The message the run's audit keeps with the deny (enter denies, escape goes back):")
            yield Input(id="approval-typed", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "approvals"
        self.query_one(DataTable).focus()
        self.action_refresh()
        self.set_interval(POLL_S, self.action_refresh)

    @work(thread=True, exclusive=True, exit_on_error=False, group="approvals", name="approvals")
    def action_refresh(self) -> None:
        from .team_watch import read_team

        requests, problem = read_team(self.watch, lambda watch: watch.pending(self.run_id), [], None)
        self.app.call_from_thread(self._show, requests, problem)

    def _show(self, requests: list[dict[str, Any]], problem: str | None) -> None:
        changed = [(r["run_id"], r["request_id"]) for r in requests] != [(r["run_id"], r["request_id"]) for r in self.requests]
        self.requests, self.problem = requests, problem
        table = self.query_one(DataTable)
        if changed or table.row_count != len(requests):
            cursor = table.cursor_row
            table.clear()
            now = time.time()
            for r in requests:
                ask = r["request"]
                table.add_row(Text(r["run_id"]), Text(r["request_id"]), Text(str(ask.get("capability", ""))),
                              Text(neutralise(_what(ask), keep_layout=False)), age_text(now - r["asked_at"]),
                              key=f"{r['run_id']}/{r['request_id']}")
            if requests:
                table.move_cursor(row=min(max(cursor, 0), len(requests) - 1))
        if problem:
            note = f"[$warning]⚠ {plain(problem, keep_layout=False)}[/]"
        elif not requests:
            note = "[dim]No request is waiting for an answer. A team run that needs a grant it was not given parks here.[/dim]"
        else:
            note = f"[dim]{len(requests)} request(s) waiting, oldest first · o grant once · r grant for the rest of the run · d deny · m deny with a message[/dim]"
        self.query_one("#approvals-note", Static).update(Content.from_markup(note))
        self._details()

    def _current(self) -> dict[str, Any] | None:
        table = self.query_one(DataTable)
        if not self.requests or not 0 <= table.cursor_row < len(self.requests):
            return None
        return self.requests[table.cursor_row]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._details()

    def _details(self) -> None:
        """The highlighted request as the trust prompt shows it."""
        current = self._current()
        key = (current["run_id"], current["request_id"]) if current else None
        if key == self._shown:
            return
        self._shown = key
        details = self.query_one("#approval-details", VerticalScroll)
        details.remove_children()
        if current is None:
            return
        ask = current["request"]
        parts: list[Any] = [Static(Content.from_markup(_facts(current, self.app.size.width - 16)), id="approval-facts")]
        for path, diff in ask.get("diffs") or []:  # unwrapped, scrolling sideways; the path cut at its start
            parts.append(PathTitle("diff", str(path), classes="approval-diff"))
            parts.append(DiffView(str(diff), self.syntax_theme))
        details.mount_all(parts)

    def action_scroll_diffs(self, columns: int) -> None:
        for view in self.query(DiffView):
            view.scroll_relative(x=columns, animate=False)

    def action_scroll_details(self, how: str) -> None:
        details = self.query_one("#approval-details", VerticalScroll)
        (details.scroll_page_up if how == "page_up" else details.scroll_page_down)(animate=False)

    def action_answer(self, verdict: str, scope: str, message: str | None = None) -> None:
        current = self._current()
        if current is None:
            self.notify("No request is selected.", severity="warning")
            return
        self._send(current["run_id"], current["request_id"], verdict, scope, message)

    def action_deny_with_message(self) -> None:
        if self._current() is None:
            self.notify("No request is selected.", severity="warning")
            return
        self.add_class("-typing")
        self.query_one("#approval-typed", Input).focus()

    @on(Input.Submitted, "#approval-typed")
    def _message_given(self, event: Input.Submitted) -> None:
        event.stop()
        message = event.value.strip()
        self._close_message()
        self.action_answer("denied", "once", message or None)

    def _close_message(self) -> None:
        self.remove_class("-typing")
        self.query_one("#approval-typed", Input).value = ""
        self.query_one(DataTable).focus()

    @work(thread=True, exit_on_error=False, group="approval-answer", name="approval answer")
    def _send(self, run_id: str, request_id: str, verdict: str, scope: str, message: str | None) -> None:
        from .team_watch import read_team

        done, problem = read_team(self.watch, lambda watch: watch.answer(run_id, request_id, verdict, scope, message), None, None)
        if problem is not None:
            said = watcher_line(problem) or problem
            self.answered.append(said)
            self.app.call_from_thread(self.notify, said, severity="error", timeout=10)
        else:
            word = "Granted" if verdict == "granted" else "Denied"
            said = (f"{word} {request_id} of {run_id}" + (" for the rest of the run" if scope == "run" and verdict == "granted" else "")
                    + f" as {done['by']}; the run is {done['status']}.")
            self.answered.append(said)
            self.app.call_from_thread(self.notify, said)
        self.action_refresh()

    def action_back(self) -> None:
        if self.has_class("-typing"):
            self._close_message()
            return
        self.dismiss(None)


def watcher_line(problem: str) -> str | None:
    """PostgreSQL's refusal of an answer by a read-only role, as the person needs to hear it."""
    if "permission denied" not in problem:
        return None
    return ("Your database role can watch team runs but not approve (permission denied): answering needs the approver role "
            "(docs/blueprints.md, Permissions); nothing was changed.")


def _what(ask: dict[str, Any]) -> str:
    return str(ask.get("command") or ask.get("detail") or ", ".join(ask.get("paths") or []))


def _facts(entry: dict[str, Any], room: int) -> str:
    """What the trust prompt says of a request: capability, command and its policy verdict, files, blast radius."""
    ask = entry["request"]
    lines = [f"[b]run[/b]         {plain(entry['run_id'])} [dim]· request {plain(entry['request_id'])}[/dim]",
             f"[b]capability[/b]  {plain(str(ask.get('capability', '')))}",
             f"[b]asks[/b]        {plain(str(ask.get('detail', '')), keep_layout=False)}"]
    if ask.get("command"):
        lines.append(f"[b]command[/b]     {plain(str(ask['command']), keep_layout=False)}")
    if ask.get("rule"):
        lines.append(f"[b]policy[/b]      {plain(str(ask['rule']))}: {plain(str(ask.get('reason') or ''), keep_layout=False)}")
    paths = [path_tail(neutralise(str(p), keep_layout=False), max(20, room - 12)) for p in ask.get("paths") or []]
    if paths:
        lines.append(f"[b]files[/b]       {plain(', '.join(paths), keep_layout=False)}")
    radius = ask.get("blast_radius")
    if ask.get("capability") == "edit" or radius:
        if radius is None:
            lines.append("[b]blast radius[/b] [dim]unknown (the graph could not say)[/dim]")
        elif not radius:
            lines.append("[b]blast radius[/b] no other file depends on these")
        else:
            shown = ", ".join(path_tail(neutralise(str(p), keep_layout=False), 40) for p in radius[:12])
            lines.append(f"[b]blast radius[/b] [$warning]{len(radius)} dependent file(s)[/]: {plain(shown, keep_layout=False)}"
                         + (" …" if len(radius) > 12 else ""))
    lines += [f"[dim]{plain(str(note), keep_layout=False)}[/dim]" for note in ask.get("notes") or []]
    return "\n".join(lines)
