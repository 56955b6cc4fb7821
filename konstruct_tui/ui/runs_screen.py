"""The runs screen (`/runs`, `/blueprint`, f2, the palette): every blueprint run of the project,
newest first; enter attaches to one.

Attached, the screen follows the run store (read-only, polled): a run another process drives
updates as it goes. It shows the phases, every attempt's verdict, the ledger and each verification's
command, exit status and output (head and tail; the full output one key away); `s` stops, `r`
resumes, `p` shows the report. The reading is the app layer's (app/run_browser.py); this file draws.

With a team database configured (`--database`, $KONSTRUCT_DATABASE_URL, config.toml) the list
holds the team's runs too, and an attached team run is read from the run store its worker
checkpointed into that database (team/supervise.py `TeamWatch`): stop and resume go through the
database, never a signal to a process here; `w` answers a run waiting for an approval. A team
database that cannot be used is one line under the list; this machine's runs are listed all the same.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from .untrusted import plain
from textual.screen import Screen
from textual.widgets import Collapsible, DataTable, Footer, Markdown, Static

from ..app import (
    ResumeProcess,
    RunRow,
    RunView,
    Verification,
    list_runs,
    open_run_store,
    read_run,
    report_markdown,
    start_resume,
    stop_run,
)
from ..blueprint import StoreDamaged, StoreUnusable
from .panes.gate import verdict_markup
from .team_watch import open_approvals, read_team

if TYPE_CHECKING:
    from .app import Workbench

POLL_S = 0.5  # how often an attached screen looks at the store: a run in another process shows within this
_STATUS_TOKENS = {"running": "$primary", "done": "$success", "parked": "$warning", "interrupted": "$warning", "stalled": "$error",
                  "queued": "$text-muted", "waiting_approval": "$accent", "stopped": "$warning"}


def status_markup(status: str) -> str:
    return f"[{_STATUS_TOKENS.get(status, '$text')}]{plain(status)}[/]"


class RunsScreen(Screen[None]):
    """Every run in the store for this project (`a`: every project), newest first."""

    # The table scrolls, never the screen: a screen scrollbar flickering in while the rows load
    # would shift every line by a column.
    DEFAULT_CSS = """
    RunsScreen { overflow: hidden; }
    RunsScreen #runs-title { padding: 0 1; text-style: bold; }
    RunsScreen #runs-note { padding: 0 1; color: $text-muted; }
    RunsScreen DataTable { height: 1fr; }
    """
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("enter", "open", "Attach", show=True),
        Binding("a", "toggle_all", "All projects"),
        Binding("w", "approvals", "Answer approval"),
        Binding("f5", "refresh", "Refresh", show=False),
    ]

    def __init__(self, root: Any, store_path: Any = None) -> None:
        super().__init__()
        self.root = root
        self.store_path = store_path
        self.all_projects = False
        self.rows: list[RunRow] = []
        self.problem: str | None = None
        self.team_problem: str | None = None
        self.team: Any = None  # the app's TeamWatch, when a team database is configured
        self._noted = ""

    def compose(self) -> ComposeResult:
        yield Static(Content.from_markup("[b]Blueprint runs[/b] [dim]— enter attaches · a: all projects · escape: back[/dim]"), id="runs-title")
        table: DataTable[Any] = DataTable(id="runs-table", cursor_type="row", zebra_stripes=True)
        _columns(table, [])
        yield table
        yield Static(id="runs-note")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        watch = getattr(self.app, "team_watch", None)
        if watch is not None:
            self.team, self.team_problem = watch()
            self.refresh_bindings()
        self.action_refresh()
        self.set_interval(POLL_S * 2, self.action_refresh)

    @work(thread=True, exclusive=True, exit_on_error=False, group="runs-list", name="runs list")
    def action_refresh(self) -> None:
        if self.rows and not self.is_current:
            return  # an attached run is on top: the list is read again when it is back in sight
        try:
            store = open_run_store(self.store_path)
            rows = [] if store is None else list_runs(store, None if self.all_projects else self.root)
            if store is not None:
                store.close()
            problem = None
        except (StoreDamaged, StoreUnusable) as error:
            rows, problem = [], str(error)
        team_rows, team_problem = read_team(self.team, lambda watch: watch.rows(), [], self.team_problem)
        rows = sorted(rows + team_rows, key=lambda r: r.created, reverse=True)
        self.app.call_from_thread(self._show, rows, problem, team_problem)

    def _show(self, rows: list[RunRow], problem: str | None, team_problem: str | None = None) -> None:
        self.problem, self.team_problem = problem, team_problem
        if rows == self.rows and self.is_mounted and self.query_one(DataTable).row_count == len(rows):
            self._note(rows)
            return
        self.rows = rows
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        _columns(table, rows)
        now = time.time()
        for row in rows:
            # Plain text, never markup: a DataTable reads a str cell as markup, and a title is the plan's words.
            table.add_row(Text(row.run_id), Content.from_markup(status_markup(row.status)), Text(row.phase),
                          str(row.attempt or "-"), Text(row.worker), row.age(now), Text(row.title),
                          key=("team:" if row.team else "") + row.run_id)
        if rows:
            table.move_cursor(row=min(cursor, len(rows) - 1))
        self._note(rows)

    def _note(self, rows: list[RunRow]) -> None:
        where = "every project" if self.all_projects else "this project"
        team = sum(1 for r in rows if r.team)
        if self.problem:
            text = f"[$error]⚠ {plain(self.problem)}[/]"
        elif not rows:
            text = (f"[dim]No blueprint runs for {where} yet. Start one with `konstruct blueprint run FILE` "
                    f"(in another terminal: it shows here) or `konstruct --blueprint FILE`.[/dim]")
        else:
            text = (f"[dim]{len(rows) - team} run(s) of {where}"
                    + (f" and {team} team run(s) of {plain(self.team.shown)}" if self.team is not None and team else "")
                    + ", newest first; the list follows the run store" + (" and the team database" if self.team is not None else "") + ".[/dim]")
        if self.team_problem:  # the team's database cannot be used: one line, this machine's runs still listed
            text += f"\n[$warning]⚠ {plain(self.team_problem, keep_layout=False)}[/]"
        if text != self._noted:  # a look that found nothing new repaints nothing
            self._noted = text
            self.query_one("#runs-note", Static).update(Content.from_markup(text))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # `w` is offered only where an answer can be given: with a team database.
        return self.team is not None if action == "approvals" else True

    def action_toggle_all(self) -> None:
        self.all_projects = not self.all_projects
        self.rows = []
        self.action_refresh()

    def _current(self) -> RunRow | None:
        table = self.query_one(DataTable)
        if not self.rows or not 0 <= table.cursor_row < len(self.rows):
            return None
        return self.rows[table.cursor_row]

    def action_open(self) -> None:
        row = self._current()
        if row is not None:
            self.app.push_screen(RunScreen(row.run_id, self.store_path, team=self.team if row.team else None))

    def action_approvals(self) -> None:
        row = self._current()
        if row is None or row.status != "waiting_approval":
            self.notify("Only a team run waiting for an answer (waiting_approval) has a request to answer; /approvals lists them all.",
                        severity="warning")
            return
        open_approvals(self, self.team, row.run_id)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_close(self) -> None:
        self.dismiss(None)


class RunScreen(Screen[None]):
    """One run, attached: follows the store while the run goes on, wherever it runs."""

    DEFAULT_CSS = """
    RunScreen { overflow: hidden; }
    RunScreen #run-body { height: 1fr; padding: 0 1; }
    RunScreen .run-section { margin-top: 1; }
    RunScreen .verification { margin: 0; padding: 0; }
    RunScreen .output { color: $text-muted; }
    """
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("s", "stop", "Stop"),
        Binding("r", "resume", "Resume"),
        Binding("p", "report", "Report"),
        Binding("w", "approvals", "Answer approval"),
        Binding("f5", "refresh", "Refresh", show=False),
    ]

    def __init__(self, run_id: str, store_path: Any = None, team: Any = None) -> None:
        super().__init__()
        self.run_id = run_id
        self.store_path = store_path
        self.team = team  # a TeamWatch: this run lives in the team database
        self.view: RunView | None = None
        self.problem: str | None = None
        self.resumed: ResumeProcess | None = None
        self.resume_failure: str | None = None
        self._shown_verifications = 0

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="run-body"):
            yield Static(id="run-header")
            yield Static(id="run-phases", classes="run-section")
            yield Static(id="run-ledger", classes="run-section")
            yield Static(Content.from_markup("[b]Verification[/b]"), id="run-verification-title", classes="run-section")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.run_id
        self.action_refresh()
        self.set_interval(POLL_S, self.action_refresh)

    @work(thread=True, exclusive=True, exit_on_error=False, group="run-view", name="run view")
    def action_refresh(self) -> None:
        if self.team is not None:
            view, problem = read_team(self.team, lambda watch: watch.view(self.run_id), None, None)
            if view is None and problem is None:
                problem = f"run {self.run_id} is not in the team database {self.team.shown}"
            self.app.call_from_thread(self._show, view, problem)
            return
        try:
            store = open_run_store(self.store_path)
            view = None if store is None else read_run(store, self.run_id)
            if store is not None:
                store.close()
            problem = None if view is not None else f"run {self.run_id} is not in the run store"
        except (StoreDamaged, StoreUnusable) as error:
            view, problem = None, str(error)
        if view is None and self.view is None:
            found = self._team_view()
            if found is not None:  # `/runs ID` of a team run: from now on this screen follows the team database
                view, problem = found, None
        self.app.call_from_thread(self._show, view, problem)

    def _team_view(self) -> RunView | None:
        """A run missing from this machine's store, found in the team database (then attached there)."""
        team_watch = getattr(self.app, "team_watch", None)
        watch = team_watch()[0] if team_watch is not None else None
        if watch is None:
            return None
        found, _ = read_team(watch, lambda w: w.view(self.run_id), None, None)
        if found is not None:
            self.team = watch
            self.app.call_from_thread(self.refresh_bindings)
        return found

    def _show(self, view: RunView | None, problem: str | None) -> None:
        failure = self.resumed.failure() if self.resumed is not None else None
        if failure:
            self.resumed, self.resume_failure = None, failure
            self.notify(failure, severity="error", timeout=8)
        problem = problem or self.resume_failure
        if view == self.view and problem == self.problem:
            return
        self.view, self.problem = view, problem
        header = self.query_one("#run-header", Static)
        if view is None:
            header.update(Content.from_markup(f"[$error]⚠ {plain(self.problem or 'no such run')}[/]"))
            return
        header.update(Content.from_markup("\n".join(_header_lines(view, problem))))
        self.query_one("#run-phases", Static).update(Content.from_markup("\n".join(_phase_lines(view))))
        self.query_one("#run-ledger", Static).update(Content.from_markup("\n".join(_ledger_lines(view))))
        body = self.query_one("#run-body", VerticalScroll)
        new = view.verifications[self._shown_verifications:]
        if not view.verifications and self._shown_verifications == 0:
            self.query_one("#run-verification-title", Static).update(Content.from_markup("[b]Verification[/b] [dim]none ran yet[/dim]"))
        elif new:
            self.query_one("#run-verification-title", Static).update(Content.from_markup("[b]Verification[/b]"))
            body.mount_all([_verification_entry(v) for v in new])
            self._shown_verifications = len(view.verifications)

    def action_stop(self) -> None:
        view = self.view
        if view is None:
            return
        if self.team is not None:
            self._team_action("stop")
            return
        app: Workbench = self.app  # type: ignore[assignment]
        if view.row.worker == "this workbench":
            app.action_kill()
            self.notify("Stopping this workbench's run (as ctrl+k).")
            return
        message = stop_run(view.row)
        self.notify(message, severity="information" if message.startswith("asked") else "warning")

    def action_resume(self) -> None:
        view = self.view
        if view is None:
            return
        if self.team is not None:
            self._team_action("resume")
            return
        started = start_resume(view.row)
        if isinstance(started, str):
            self.notify(started, severity="warning")
            return
        self.resumed, self.resume_failure = started, None
        self.notify(f"Resuming {view.row.run_id} in its own process (log: {started.log}); this screen follows it.")

    @work(thread=True, exclusive=True, exit_on_error=False, group="run-team", name="team run action")
    def _team_action(self, what: str) -> None:
        """Stop or resume through the team database: the run's worker, wherever it is, sees it."""
        done, problem = read_team(self.team, lambda watch: getattr(watch, what)(self.run_id), None, None)
        if problem:
            self.app.call_from_thread(self.notify, problem, severity="warning", timeout=8)
            return
        said = {"stopped": f"Stopped team run {self.run_id}; r resumes it.",
                "stopping": f"Asked team run {self.run_id} to stop: its worker parks it at its next look (r resumes it).",
                "queued": f"Team run {self.run_id} is back on the queue: a worker takes it up from its last step; this screen follows it."}
        self.app.call_from_thread(self.notify, said.get(done["status"], f"Team run {self.run_id} is {done['status']}."))
        self.action_refresh()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.team is not None if action == "approvals" else True

    def action_approvals(self) -> None:
        if self.team is None or self.view is None or self.view.row.status != "waiting_approval":
            self.notify("This run waits for no answer; /approvals lists every team run that does.", severity="warning")
            return
        open_approvals(self, self.team, self.run_id)

    def action_report(self) -> None:
        self._load_report()

    @work(thread=True, exclusive=True, exit_on_error=False, group="run-report", name="run report")
    def _load_report(self) -> None:
        if self.team is not None:
            text, problem = read_team(self.team, lambda watch: watch.report(self.run_id), "", None)
            self.app.call_from_thread(self.app.push_screen, ReportScreen(self.run_id, text or f"⚠ {problem}"))
            return
        try:
            store = open_run_store(self.store_path)
            text = report_markdown(store, self.run_id) if store is not None else "No run store."
            if store is not None:
                store.close()
        except (StoreDamaged, StoreUnusable) as error:
            text = f"⚠ {error}"
        self.app.call_from_thread(self.app.push_screen, ReportScreen(self.run_id, text))

    def action_close(self) -> None:
        self.dismiss(None)


class ReportScreen(Screen[None]):
    """The run's report (`konstruct blueprint report RUN`), rendered as Markdown."""

    DEFAULT_CSS = "ReportScreen { overflow: hidden; } ReportScreen #report-body { height: 1fr; padding: 0 1; }"
    BINDINGS = [Binding("escape", "close", "Back")]

    def __init__(self, run_id: str, markdown: str) -> None:
        super().__init__()
        self.run_id = run_id
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="report-body"):
            yield Markdown(self.markdown, id="report")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"report of {self.run_id}"
        self.query_one("#report-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)


def _header_lines(view: RunView, problem: str | None) -> list[str]:
    row = view.row
    lines = [f"[b]{plain(row.title)}[/b]  [dim]{plain(row.run_id)} · {plain(view.source)}[/dim]",
             f"{status_markup(row.status)} · phase {plain(row.phase)} · attempt {row.attempt or '-'} · worker {plain(row.worker)} · "
             f"started {row.age()} ago"]
    if row.message and row.status != "running":
        lines.append(f"[dim]{plain(row.message)}[/dim]")
    if row.team is not None and row.status == "waiting_approval":
        lines.append(f"[$warning]next:[/] [b]{plain(row.next_step or '')}[/b] [dim](w answers it from here)[/dim]")
    elif row.next_step:
        lines.append(f"[$warning]next:[/] [b]{plain(row.next_step)}[/b] [dim](r resumes it from here · p shows the report)[/dim]")
    elif row.team is not None and row.status in ("running", "queued"):
        lines.append(f"[dim]live: following the team database {plain(row.team)} · s stops the run wherever it is (resumable)[/dim]")
    elif row.status == "running":
        lines.append("[dim]live: following the run store · s stops the run (it parks, resumable)[/dim]")
    if problem:
        lines.append(f"[$error]⚠ {plain(problem)}[/]")
    return lines


def _phase_lines(view: RunView) -> list[str]:
    lines = ["[b]Phases[/b]"]
    for phase in view.phases:
        title = f" {plain(phase.title)}" if phase.title else ""
        activity = f" [dim]· {phase.calls} tool call(s), last: {plain(phase.last_call)}[/dim]" if phase.calls else ""
        lines.append(f"[b]{plain(phase.phase_id)}[/b]{title} · {status_markup(phase.status)}{activity}")
        for attempt in phase.attempts:
            lines.append(f"  attempt {attempt.attempt}: " + verdict_markup(attempt.verdict, attempt.decision, attempt.tier))
            if attempt.problem:
                lines.append(f"    [$gate-fail]problem:[/] {plain(attempt.problem)}")
            for veto in attempt.vetoes:
                first, *said = veto.split("\n")
                lines.append(f"    [$gate-fail]veto:[/] {plain(first)}")
                lines += [f"    [dim]{plain(line)}[/dim]" for line in said]
            if attempt.outstanding and attempt.decision != "close":
                lines.append("    [$gate-fail]outstanding:[/] " + ", ".join(plain(t) for t in attempt.outstanding))
            for task, evidence in attempt.evidence:
                lines.append(f"    [$gate-pass]evidence[/] {plain(task)}: {plain(evidence)}")
            for defect in attempt.defects:
                lines.append(f"    [$gate-defects]defect:[/] {plain(defect)}")
        if phase.status == "running" and (not phase.attempts or phase.attempts[-1].decision != "close"):
            lines.append("  [$gate-pending]◌ gate pending[/] [dim](the executor is working)[/dim]")
        if phase.sessions:
            lines.append("  [dim]sessions: " + ", ".join(f"{plain(role)} {n} ({plain(end)})" for role, n, _, end in phase.sessions) + "[/dim]")
    return lines


def _ledger_lines(view: RunView) -> list[str]:
    lines = ["[b]Ledger[/b]"]
    lines += [f"[b]{plain(pid)}[/b] {plain(summary)}" for pid, summary in view.ledger] or ["[dim]no phase closed yet[/dim]"]
    lines += [f"[$gate-defects]defect[/] [{plain(pid)}] {plain(text)}" for pid, text in view.defects]
    return lines


def _verification_entry(verification: Verification) -> Collapsible:
    ok = verification.outcome == "ok"
    mark = "✓" if ok else "✗"
    excerpt = "\n".join(verification.excerpt) or "(no output)"
    full = verification.output.strip()
    parts: list[Any] = [Static(excerpt, classes="output", markup=False)]
    if full and full != excerpt:
        parts.append(Collapsible(Static(full, classes="output", markup=False),
                                 title=f"full output ({len(full.splitlines())} lines)", collapsed=True))
    return Collapsible(*parts, title=f"{mark} {verification.heading}", collapsed=ok, classes="verification")


def _columns(table: DataTable[Any], rows: list[RunRow]) -> None:
    """Columns as wide as their widest cell, measured here: the table's own measuring runs when it
    is idle, and a busy machine could draw the list before it, with the titles cut to their header."""
    widths = {"phase": [r.phase for r in rows], "worker": [r.worker for r in rows], "title": [r.title for r in rows],
              "status": ["interrupted"] + [r.status for r in rows]}  # as wide as `waiting_approval` only when one is listed
    for label, fixed in (("run", 26), ("status", 0), ("phase", 0), ("try", 3), ("worker", 0), ("age", 4), ("title", 0)):
        width = fixed or max([len(label)] + [cell_len(str(v)) for v in widths[label]])
        table.add_column(label, width=width)
