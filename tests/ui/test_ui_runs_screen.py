"""The runs screen: blueprint runs listed from the run store, attached live to a run another
process drives (stopped and resumed from the screen), every attempt's verdict kept in the Gate pane,
and a failing verification's own output in the veto, the screen and the report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Collapsible, DataTable, Markdown, Static
from ui_harness import make_project, wait_for

from konstruct_tui.agent import Finished, Limits
from konstruct_tui.app import WorkbenchSetup
from konstruct_tui.blueprint import PhaseStarted, RunStarted, SessionOpened, VerdictReached
from konstruct_tui.providers import resolve
from konstruct_tui.ui.app import Workbench
from konstruct_tui.ui.messages import Reported
from konstruct_tui.ui.panes.budgets import BudgetsPane
from konstruct_tui.ui.panes.gate import GatePane
from konstruct_tui.ui.panes.transcript import Transcript
from konstruct_tui.ui.runs_screen import ReportScreen, RunScreen, RunsScreen

sys.path.insert(0, str(Path(__file__).parents[1] / "blueprint"))
from blueprint_harness import (  # noqa: E402
    CALC,
    CHECK,
    DOC,
    DOCSTRING,
    EVIDENCE,
    PHASE_DOC,
    PHASE_FIX,
    blueprint_text,
    edit,
    read,
    verdict,
    write_scripts,
)



def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "calc.py").write_text(CALC)
    (root / "check_calc.py").write_text(CHECK)
    return root


def _text(widget: Any) -> str:
    return "\n".join(str(getattr(w.content, "plain", w.content)) for w in widget.query(Static))


def _workbench(root: Path, scripts: Path | None = None, plan: Path | None = None) -> Workbench:
    settings = resolve(provider="scripted", script=str(scripts), turn_deadline_s=30, config={}) if scripts else None
    return Workbench(WorkbenchSetup(root, settings, None if settings else "no model (test)", Limits(), blueprint=plan))


def _retry_then_fix(tmp_path: Path) -> tuple[Path, Path]:
    """Attempt 1 breaks add (the check fails with a ZeroDivisionError in calc.py), attempt 2 fixes it."""
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "return a - b", "return (a + b) / 0"), edit("calc.py", "(a + b) / 0", "a + b")],
        "adjudicator-p1-1": [verdict("incomplete", {"t1": EVIDENCE}, outstanding=("t1",))],
        "adjudicator-p1-2": [verdict("complete", {"t1": EVIDENCE})],
    })
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX))
    return scripts, plan


async def test_the_gate_keeps_every_attempt_and_shows_the_failing_checks_own_words(tmp_path: Path) -> None:
    root = _project(tmp_path)
    scripts, plan = _retry_then_fix(tmp_path)
    app = _workbench(root, scripts, plan)
    async with app.run_test(size=(120, 40)) as pilot:
        budgets = app.query_one(BudgetsPane)
        await wait_for(pilot, lambda: budgets.state not in ("idle", "running"), timeout=60)
        gate = app.query_one(GatePane)
        view = gate.phases["p1"]
        assert [(v.attempt, v.decision) for v in view.history] == [(1, "retry"), (2, "close")]  # attempt 1 did not vanish
        shown = _text(gate)
        assert "1. ↻ incomplete" in shown and "2. ● complete" in shown
        assert "ZeroDivisionError: division by zero" in shown  # the script's own output, not only "failed (exit 1)"
        assert "■ run done" in shown and "resume" not in shown
        transcript = _text(app.query_one(Transcript))
        assert "━━ phase p1 Fix add · attempt 1" in transcript and "attempt 2" in transcript
        assert transcript.count("── adjudicator · phase p1") == 2

        # The runs screen lists the run; attached, it shows both attempts, the ledger and the check's output.
        await pilot.press("f2")
        runs = app.screen
        assert isinstance(runs, RunsScreen)
        await wait_for(pilot, lambda: runs.rows, timeout=10)
        [row] = runs.rows
        assert (row.status, row.phase, row.attempt, row.worker) == ("done", "p1", 2, "this workbench (ended)")
        table = runs.query_one(DataTable)
        assert str(table.get_row_at(0)[0]) == row.run_id and str(table.get_row_at(0)[6]) == "Calc fixes"
        await pilot.press("enter")
        run = app.screen
        assert isinstance(run, RunScreen)
        await wait_for(pilot, lambda: run.view is not None and run.query(".verification"))
        body = _text(run)
        assert "attempt 1: ↻ incomplete" in body and "attempt 2: ● complete" in body
        assert f"evidence t1: {EVIDENCE}" in body
        assert "Ledger" in body and "p1 Fix add: closed complete after 2 attempts" in body
        entries = list(run.query(".verification").results(Collapsible))
        failed = [e for e in entries if "✗" in str(e.title)]
        assert failed and not failed[-1].collapsed and "ZeroDivisionError: division by zero" in _text(failed[-1])
        assert "attempt 1" in str(failed[-1].title) and "exit 1" in str(failed[-1].title)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen))
        report = app.screen.query_one(Markdown)
        assert "ZeroDivisionError: division by zero" in report.source and "# Calc fixes" in report.source  # type: ignore[attr-defined]
        await pilot.press("escape", "escape", "escape")
        assert not isinstance(app.screen, (RunsScreen, RunScreen, ReportScreen))


async def test_a_stalled_run_never_shows_green_and_says_how_to_resume(tmp_path: Path) -> None:
    app = _workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        for event in (
            RunStarted(session_id="bp-1", provider="scripted", model="m", run_id="bp-1", title="Docs", phases=("p1",)),
            PhaseStarted("bp-1", "p1", "Fix docs", 1, "s1", True),
            VerdictReached("bp-1", "p1", 1, "executable", "complete", "stalled", ("veto:verify_failed",),
                           vetoes=("`python check_doc.py` failed (exit 1): the output names no file\n    README lacks a Usage section",)),
            Finished("stalled", "bp-1", 2, "phase p1 stalled"),
        ):
            app.post_message(Reported(event))
        gate = app.query_one(GatePane)
        await wait_for(pilot, lambda: gate.ended is not None)
        await pilot.pause()
        shown = _text(gate)
        assert "● complete" not in shown and "✗ stalled" in shown and "adjudicator said complete" in shown
        assert "README lacks a Usage section" in shown
        assert "konstruct blueprint resume bp-1" in shown


async def test_after_a_kill_the_gate_is_not_left_pending_and_names_the_resume_command(tmp_path: Path) -> None:
    app = _workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        for event in (
            RunStarted(session_id="bp-2", provider="scripted", model="m", run_id="bp-2", title="Docs", phases=("p1",)),
            PhaseStarted("bp-2", "p1", "Fix docs", 1, "s1", True),
            SessionOpened("bp-2", "p1", 1, "adjudicator", "s1-adj"),
            Finished("killed", "bp-2", 1, "killed"),
        ):
            app.post_message(Reported(event))
        gate = app.query_one(GatePane)
        await wait_for(pilot, lambda: gate.ended is not None)
        await pilot.pause()
        shown = _text(gate)
        assert "gate pending" not in shown and "gate not run" in shown and "■ run killed" in shown
        assert "next: konstruct blueprint resume bp-2" in shown
        assert "── adjudicator · phase p1 · attempt 1" in _text(app.query_one(Transcript))
        # A pair-coding session afterwards: its own `finished` is not the blueprint's.
        app.post_message(Reported(Finished("killed", "chat-1", 1, "killed")))
        await pilot.pause()
        assert gate.ended is not None and gate.ended.session_id == "bp-2"


async def test_runs_and_blueprint_commands_open_the_screen_and_say_when_there_is_none(tmp_path: Path) -> None:
    app = _workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        for command in ("/runs", "/blueprint"):
            app.submit(command)
            await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen))
            screen = app.screen
            await wait_for(pilot, lambda: "No blueprint runs" in _text(screen))
            assert "konstruct blueprint run FILE" in _text(screen)
            await pilot.press("escape")
        assert not isinstance(app.screen, RunsScreen)
        assert "Blueprint runs" in [c.title for c in app.get_system_commands(app.screen)]


def _konstruct(*args: str, cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    return subprocess.Popen([sys.executable, "-m", "konstruct_tui", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


async def test_attach_to_a_run_another_process_drives_then_stop_and_resume_it(tmp_path: Path) -> None:
    root = _project(tmp_path)
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
        # p2's executor thinks forever: the run stays `running` until the screen stops it.
        "executor-p2": [read("calc.py"), {"text": "Let me think about mul", "hang": True}],
        "adjudicator-p2": [verdict("complete", {"t1": DOC})],
    })
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX, PHASE_DOC))
    child = _konstruct("blueprint", "run", str(plan), "--root", str(root), "--provider", "scripted", "--script", str(scripts),
                       "--headless", cwd=tmp_path)
    try:
        assert child.stdout is not None
        run_id = json.loads(child.stdout.readline())["run_id"]
        app = _workbench(root)
        async with app.run_test(size=(120, 40)) as pilot:
            app.submit(f"/runs {run_id}")
            await wait_for(pilot, lambda: isinstance(app.screen, RunScreen))
            screen = app.screen
            assert isinstance(screen, RunScreen)
            # Live: the other process closes p1 and starts p2 while the screen watches.
            await wait_for(pilot, lambda: screen.view is not None and [p.status for p in screen.view.phases] == ["closed", "running"], timeout=60)
            assert screen.view is not None
            row = screen.view.row
            assert row.status == "running" and row.phase == "p2" and row.worker == f"pid {child.pid}"
            body = _text(screen)
            assert "p1 Fix add: closed complete" in body and "live: following the run store" in body
            assert "attempt 1: ● complete" in body

            await pilot.press("s")  # stop: the other process parks the run
            assert child.wait(30) != 0
            await wait_for(pilot, lambda: screen.view is not None and screen.view.row.status == "parked", timeout=30)
            assert f"next: konstruct blueprint resume {run_id}" in _text(screen)

            (scripts / "executor-p2.json").write_text(json.dumps({"turns": [read("calc.py"), edit("calc.py", *DOCSTRING)]}))
            await pilot.press("r")  # resume in a process of its own; the screen follows it to the end
            await wait_for(pilot, lambda: screen.view is not None and screen.view.row.status == "done", timeout=90)
            assert screen.resumed is not None
            assert screen.resumed.process.wait(30) == 0
            assert [p.status for p in screen.view.phases] == ["closed", "closed"]
            assert "next:" not in _text(screen)
        assert '"""The product."""' in (root / "calc.py").read_text()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(10)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("view", ["list", "attached"])
def test_runs_screen_snapshot(view: str, size: tuple[int, int], snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The list and an attached run, drawn from a store with a fixed run (times pinned)."""
    app = _workbench(make_project(tmp_path))
    _fixed_store(tmp_path / "store.sqlite3", app.setup.root)

    async def settle(pilot: Any) -> None:
        app.push_screen(RunsScreen(app.setup.root, tmp_path / "store.sqlite3"))
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and app.screen.rows)
        if view == "list":
            await _settled(app, pilot)
            return
        app.push_screen(RunScreen("bp-20260101-120000-abc123", tmp_path / "store.sqlite3"))
        await wait_for(pilot, lambda: isinstance(app.screen, RunScreen) and app.screen.query(".verification"))
        await _settled(app, pilot)

    assert snap_compare(app, terminal_size=size, run_before=settle)


async def _settled(app: Workbench, pilot: Any) -> None:
    """One full repaint at the final layout: a line first drawn while the rows were loading may keep
    its pieces cut where the layout then was, which changes the picture's bytes, not what it shows."""
    from textual.worker import WorkerCancelled

    for _ in range(20):  # on a loaded machine a look can outlast the poll, which cancels it for the next one
        try:
            await app.workers.wait_for_complete()
            break
        except WorkerCancelled:
            await pilot.pause(0.1)
    await pilot.pause(0.3)
    for widget in app.screen.walk_children():
        widget.refresh(layout=True)
    app.screen.refresh(layout=True)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause(0.5)


def _fixed_store(path: Path, root: Path) -> None:
    """A finished-and-stalled run written straight into a store, its clock fixed for the picture."""
    import time

    from konstruct_tui.blueprint import RunStore
    from konstruct_tui.blueprint.store import GateRecord

    store = RunStore(path)
    run_id = "bp-20260101-120000-abc123"
    store.create_run(run_id, "Calc fixes", "plan.toml", blueprint_text(PHASE_FIX), str(root), {"provider": "scripted"}, ["p1"])
    store.start_attempt(run_id, "p1", 1, "")
    store.record_verification(run_id, "p1", 1, "python check_calc.py", 0, 1, "failed",
                              "Traceback (most recent call last):\n  File \"check_calc.py\", line 3, in <module>\nAssertionError: add is wrong", [])
    store.record_gate(run_id, GateRecord("p1", 1, "retry", "executable", "incomplete", ("t1", "veto:verify_failed"), {
        "evidence": [{"id": "t1", "evidence": EVIDENCE}], "defects": [],
        "vetoes": [{"rung": "executable", "code": "verify_failed",
                    "message": "`python check_calc.py` failed (exit 1): the output names no file\n    AssertionError: add is wrong"}]}))
    store.record_gate(run_id, GateRecord("p1", 2, "stalled", "executable", "complete", ("veto:verify_failed",), {
        "evidence": [{"id": "t1", "evidence": EVIDENCE}], "defects": [], "vetoes": []}), phase_status="stalled")
    store.set_run(run_id, "stalled", "stalled", "phase p1 stalled: the same outstanding set twice running")
    stamp = time.time() - 3 * 3600
    store.db.execute("UPDATE runs SET created=?, updated=?", (stamp, stamp))
    store.close()


async def test_an_unknown_run_or_a_damaged_store_is_one_line_on_screen(tmp_path: Path) -> None:
    from konstruct_tui.blueprint import default_path

    app = _workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("/runs bp-[b]nope")  # markup in a typed id is text, not styling
        await wait_for(pilot, lambda: isinstance(app.screen, RunScreen) and app.screen.problem)
        assert "run bp-[b]nope is not in the run store" in _text(app.screen)
        await pilot.press("s", "r")  # nothing to stop or resume: nothing happens, nothing breaks
        await pilot.press("escape", "escape")
        store = default_path()
        store.parent.mkdir(parents=True, exist_ok=True)
        store.write_bytes(b"garbage, not SQLite " * 300)
        before = store.read_bytes()
        await pilot.press("f2")
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        await wait_for(pilot, lambda: screen.problem is not None)
        note = _text(screen)
        assert f"the blueprint run store {store} is damaged" in note and "Traceback" not in note
        await pilot.press("f2")  # a second f2 does not stack a second list
        assert app.screen is screen and len(app.screen_stack) == 2
        assert store.read_bytes() == before  # looking changed nothing


async def test_f2_never_covers_a_trust_question(tmp_path: Path) -> None:
    from konstruct_tui.app import TrustPreview
    from konstruct_tui.ui.trust_prompt import TrustPrompt

    app = _workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(TrustPrompt(TrustPreview("run_command", "command", "run `ls`", ())))
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, TrustPrompt)


async def test_ctrl_k_on_a_blueprint_run_leaves_the_resume_command_in_the_gate(tmp_path: Path) -> None:
    root = _project(tmp_path)
    scripts = write_scripts(tmp_path / "s", {"executor-p1": [read("calc.py"), {"text": "Thinking about add", "hang": True}]})
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX))
    app = _workbench(root, scripts, plan)
    async with app.run_test(size=(120, 40)) as pilot:
        gate = app.query_one(GatePane)
        await wait_for(pilot, lambda: "p1" in gate.phases and app.runs.running, timeout=60)
        await wait_for(pilot, lambda: "Thinking about add" in _text(app.query_one(Transcript)), timeout=30)
        await pilot.press("ctrl+k")
        await wait_for(pilot, lambda: gate.ended is not None, timeout=30)
        await pilot.pause()
        shown = _text(gate)
        assert gate.run_id is not None and f"konstruct blueprint resume {gate.run_id}" in shown
        assert "gate pending" not in shown and "■ run killed" in shown


async def test_a_plan_title_with_markup_and_escapes_is_shown_as_written(tmp_path: Path) -> None:
    """A run's title and phase are the plan author's words: `[/]`, `[b]` and an escape sequence in
    them are text in the list and in the attached view, never styling, a crash or a terminal control."""
    from konstruct_tui.blueprint import RunStore

    app = _workbench(make_project(tmp_path))
    store = RunStore(tmp_path / "store.sqlite3")
    title = "[/] fix [b]add\x1b]52;c;cm0gLXJmIC8=\x07 now"
    store.create_run("bp-20260101-120000-markup", title, "plan.toml", blueprint_text(PHASE_FIX), str(app.setup.root),
                     {"provider": "scripted"}, ["p1"])
    store.close()
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(RunsScreen(app.setup.root, tmp_path / "store.sqlite3"))
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and app.screen.rows)
        cell = app.screen.query_one(DataTable).get_row_at(0)[6]
        assert str(cell).startswith("[/] fix [b]add") and "\x1b" not in _text(app.screen)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RunScreen) and app.screen.query(".verification, Static"))
        await pilot.pause(0.2)
        shown = _text(app.screen)
        assert "[/] fix [b]add" in shown and "\x1b" not in shown and "\x07" not in shown
