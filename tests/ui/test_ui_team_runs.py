"""The workbench on a team database (issues 27 and 28): team runs beside this machine's in the runs
screen, attached from the run store their worker checkpointed into the database, stopped and
resumed through it; the approvals screen answering a parked request the way `konstruct approvals`
does; a team database that cannot be used is one line, never a crash."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Markdown, Static
from team_fixture import QUEUED, REQUEST, RUNNING, WAITING, team_database
from ui_harness import make_project, wait_for

from konstruct_tui.agent import Limits
from konstruct_tui.app import WorkbenchSetup
from konstruct_tui.team import DatabaseTarget, TeamDatabase
from konstruct_tui.ui.app import Workbench
from konstruct_tui.ui.approvals_screen import ApprovalsScreen
from konstruct_tui.ui.runs_screen import ReportScreen, RunScreen, RunsScreen


def _text(widget: Any) -> str:
    return "\n".join(str(getattr(w.content, "plain", w.content)) for w in widget.query(Static))


def _workbench(root: Path, database: str | None = None) -> Workbench:
    return Workbench(WorkbenchSetup(root, None, "no model (test)", Limits(), team_database=database))


def _url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'team.sqlite3'}"


async def test_team_runs_are_listed_beside_local_ones_and_attach_from_the_database(tmp_path: Path) -> None:
    url = _url(tmp_path)
    db = team_database(url, tmp_path / "images")
    app = _workbench(make_project(tmp_path), url)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f2")
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        await wait_for(pilot, lambda: len(screen.rows) == 3)
        # Newest first, with the team's statuses, phase, attempt (read from the checkpointed store) and worker.
        assert [(r.run_id, r.status, r.phase, r.attempt, r.worker) for r in screen.rows] == [
            (QUEUED, "queued", "-", 0, "team"), (WAITING, "waiting_approval", "p1", 2, "team"), (RUNNING, "running", "p1", 2, "team build-1")]
        assert "3 team run(s) of sqlite:///" in _text(screen)

        await pilot.press("down", "down", "enter")  # the running one
        run = app.screen
        assert isinstance(run, RunScreen) and run.run_id == RUNNING
        await wait_for(pilot, lambda: run.query(".verification"))
        body = _text(run)
        assert "attempt 1: " in body and "AssertionError: add is wrong" in body and "live: following the team database" in body
        assert "worker team build-1" in body

        # A step finishes on the worker: the screen reads the new image on its next look.
        db.update_run(RUNNING, phase="p1", last_output="write_code: ok", status="stalled", worker=None)
        await wait_for(pilot, lambda: run.view is not None and run.view.row.status == "stalled")
        assert f"next: konstruct blueprint resume {RUNNING}" in _text(run)

        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen))
        report = app.screen.query_one(Markdown)
        assert "Team audit" in report.source and "submitted by" in report.source
        await pilot.press("escape", "escape", "escape")
        app.submit(f"/runs {WAITING}")  # a team run's id typed: attached from the team database
        await wait_for(pilot, lambda: isinstance(app.screen, RunScreen) and app.screen.view is not None)
        assert app.screen.team is not None and "next: konstruct approvals list" in _text(app.screen)
    db.close()


async def test_stop_and_resume_act_through_the_team_database_never_a_signal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    url = _url(tmp_path)
    db = team_database(url, tmp_path / "images")
    db.update_run(RUNNING, worker=f"pid {os.getpid()}")  # a worker name that looks like a pid here must not be signalled
    killed: list[Any] = []
    monkeypatch.setattr(os, "kill", lambda *a: killed.append(a))
    app = _workbench(make_project(tmp_path), url)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(RunsScreen(app.setup.root))
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and len(app.screen.rows) == 3)
        await pilot.press("down", "down", "enter")
        run = app.screen
        assert isinstance(run, RunScreen)
        await wait_for(pilot, lambda: run.view is not None)
        await pilot.press("s")  # on a worker: the stop is a flag its worker reads
        await wait_for(pilot, lambda: (db.run(RUNNING) or {}).get("stop_requested") == 1)
        assert db.run(RUNNING)["status"] == "running"
        db.update_run(RUNNING, status="stopped", worker=None)  # as the worker does at its next look
        await wait_for(pilot, lambda: run.view is not None and run.view.row.status == "stopped")
        await pilot.press("r")  # back on the queue (a DBOS workflow a worker takes up)
        await wait_for(pilot, lambda: db.run(RUNNING)["status"] == "queued", timeout=60)
        assert db.run(RUNNING)["continuation"] == 1
        await wait_for(pilot, lambda: run.view is not None and run.view.row.status == "queued")
        await wait_for(pilot, lambda: "resumed" in [e["kind"] for e in db.audit(RUNNING)], timeout=60)
        assert "stop_requested" in [e["kind"] for e in db.audit(RUNNING)]
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen))
        await pilot.press("up", "up", "enter")  # the queued one stops at once: nothing drives it
        await wait_for(pilot, lambda: isinstance(app.screen, RunScreen) and app.screen.view is not None)
        assert app.screen.run_id == QUEUED
        await pilot.press("s")
        await wait_for(pilot, lambda: db.run(QUEUED)["status"] == "stopped")
    assert killed == []
    db.close()


async def test_the_approvals_screen_grants_and_denies_as_the_cli_does(tmp_path: Path) -> None:
    url = _url(tmp_path)
    db = team_database(url, tmp_path / "images")
    db.ask(RUNNING, "r9999999999", {"capability": "edit", "detail": "edit setup.py", "paths": ["setup.py"], "command": None,
                                    "rule": None, "reason": None, "diffs": [], "blast_radius": [], "notes": []}, "build-1")
    app = _workbench(make_project(tmp_path), url)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(RunsScreen(app.setup.root))
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and len(app.screen.rows) == 3)
        await pilot.press("down", "w")  # `w` on the run waiting for an answer
        screen = app.screen
        assert isinstance(screen, ApprovalsScreen) and screen.run_id == WAITING
        await wait_for(pilot, lambda: screen.query("#approval-facts"))
        shown = _text(screen)
        for fact in ("capability  commands", "command     python check_calc.py --fix", "policy      needs_grant: an arbitrary command",
                     "blast radius 1 dependent file(s): cli.py"):
            assert fact in shown
        assert "diff calc.py" in shown or "calc.py" in shown
        await pilot.press("o")
        await wait_for(pilot, lambda: screen.answered)
        assert screen.answered[0].startswith(f"Granted {REQUEST} of {WAITING} as sqlite (") and "the run is queued" in screen.answered[0]
        answer = db.approvals(WAITING)[0]
        assert answer["status"] == "granted" and answer["scope"] == "once" and answer["answered_role"] == "sqlite"
        assert db.run(WAITING)["status"] == "queued"
        await wait_for(pilot, lambda: not screen.requests)
        await pilot.press("escape", "escape")

        app.submit("/approvals")  # every run's requests
        await wait_for(pilot, lambda: isinstance(app.screen, ApprovalsScreen))
        every = app.screen
        assert isinstance(every, ApprovalsScreen)
        await wait_for(pilot, lambda: len(every.requests) == 1)
        await pilot.press("m")
        await pilot.press(*"not setup.py")
        await pilot.press("enter")
        await wait_for(pilot, lambda: every.answered)
        assert db.approvals(RUNNING)[0]["status"] == "denied"
        denial = [e for e in db.audit(RUNNING) if e["kind"] == "approval_denied"]
        assert denial and denial[0]["detail"]["message"] == "not setup.py"  # kept with the deny, for the executor
        # A deny is final: answering it again (the CLI) is refused in one line.
        again = TeamDatabase.open(DatabaseTarget(url), create=False)
        with pytest.raises(Exception, match="already answered: denied"):
            again.answer(RUNNING, "r9999999999", "granted", "once")
        again.close()
        assert "Approvals" in [c.title for c in app.get_system_commands(app.screen)]
    db.close()


async def test_a_damaged_or_unreachable_team_database_is_one_line_and_local_runs_still_list(tmp_path: Path) -> None:
    damaged = tmp_path / "team.sqlite3"
    damaged.write_bytes(b"not a database at all " * 400)
    before = damaged.read_bytes()
    root = make_project(tmp_path)
    for url in (f"sqlite:///{damaged}", f"postgresql://nobody@/nowhere?host={tmp_path / 'no-socket'}"):
        app = _workbench(root, url)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("f2")
            screen = app.screen
            assert isinstance(screen, RunsScreen)
            await wait_for(pilot, lambda: screen.team_problem is not None, timeout=30)
            note = str(screen.query_one("#runs-note", Static).content)
            lines = [line for line in note.splitlines() if "team database" in line]
            assert len(lines) == 1 and "cannot be used" in lines[0] and "Traceback" not in note
            assert "No blueprint runs for this project" in note  # the local list is there all the same
            await pilot.press("escape")
            app.submit("/approvals")
            await wait_for(pilot, lambda: isinstance(app.screen, ApprovalsScreen) and app.screen.problem, timeout=30)
            assert "cannot be used" in _text(app.screen)
    assert damaged.read_bytes() == before  # looking changed nothing


async def test_without_a_team_database_approvals_says_how_to_name_one(tmp_path: Path) -> None:
    app = _workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("/approvals")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, ApprovalsScreen)
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and app.screen.team is None)


async def test_the_runs_screen_follows_a_team_run_a_worker_process_drives(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "team"))
    from team_harness import make_repo, two_phase_plan
    from team_processes import cli, start_worker

    url = _url(tmp_path)
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path, p2_delay_s=3)
    submitted = cli("blueprint", "submit", str(plan), "--repo", str(repo), "--provider", "scripted", "--script", str(scripts), "--database", url)
    assert submitted.returncode == 0, submitted.stderr
    run_id = json.loads(submitted.stdout)["run"]
    app = _workbench(make_project(tmp_path), url)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(RunsScreen(app.setup.root))
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and app.screen.rows)
        assert app.screen.rows[0].status == "queued"
        await pilot.press("enter")
        run = app.screen
        assert isinstance(run, RunScreen) and run.team is not None
        worker = start_worker("--database", url, "--once", "--workdir", str(tmp_path / "work"), "--heartbeat", "0.3", log=tmp_path / "w.log")
        try:
            seen: set[str] = set()

            def moved() -> bool:
                if run.view is not None:
                    seen.add(run.view.row.status)
                    return run.view.row.status == "done"
                return False

            await wait_for(pilot, moved, timeout=120)
            assert worker.wait(60) == 0, (tmp_path / "w.log").read_text()
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait(10)
        assert "running" in seen  # it was watched moving, not only found finished
        assert run.view is not None and [(p.phase_id, p.status) for p in run.view.phases] == [("p1", "closed"), ("p2", "closed")]
        body = _text(run)
        assert "p1 Fix add" in body and "attempt 1: ● complete" in body


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("view", ["list", "approvals"])
def test_team_screens_snapshot(view: str, size: tuple[int, int], snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from test_ui_runs_screen import _settled

    from konstruct_tui.team import TeamWatch

    url = "sqlite:///" + str(tmp_path / "team.sqlite3")
    team_database(url, tmp_path / "images").close()
    app = _workbench(make_project(tmp_path), url)
    # The temp path differs between runs; the picture must not.
    monkeypatch.setattr(TeamWatch, "shown", property(lambda self: "sqlite:///tmp/team.sqlite3"))

    async def settle(pilot: Any) -> None:
        watch, _ = app.team_watch()
        if view == "list":
            app.push_screen(RunsScreen(app.setup.root, tmp_path / "local.sqlite3"))
            await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and len(app.screen.rows) == 3)
        else:
            app.push_screen(ApprovalsScreen(watch))
            await wait_for(pilot, lambda: isinstance(app.screen, ApprovalsScreen) and app.screen.query("#approval-facts"))
        app.screen.query_one(DataTable).focus()
        await _settled(app, pilot)

    assert snap_compare(app, terminal_size=size, run_before=settle)


async def test_a_damaged_run_store_image_or_hostile_text_never_breaks_the_screens(tmp_path: Path) -> None:
    url = _url(tmp_path)
    db = team_database(url, tmp_path / "images")
    db.put_store(RUNNING, b"garbage, not a run store " * 100)
    hostile = "[b]bold?[/b] \x1b[31mred\x1b[0m"
    db.ask(QUEUED, "rhostile0001", {"capability": "commands", "detail": hostile, "paths": ["[i]x.py"], "command": hostile,
                                    "rule": "needs_grant", "reason": "[link=http://x]y[/link]", "diffs": [], "blast_radius": None, "notes": []}, "w")
    app = _workbench(make_project(tmp_path), url)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f2")
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        await wait_for(pilot, lambda: len(screen.rows) == 3)  # the damaged run is listed, without an attempt
        assert [r.attempt for r in screen.rows if r.run_id == RUNNING] == [0] and screen.team_problem is None
        await pilot.press("down", "down", "enter")
        run = app.screen
        assert isinstance(run, RunScreen)
        await wait_for(pilot, lambda: run.problem is not None)
        assert f"the run store of team run {RUNNING}" in _text(run) and "cannot be read" in _text(run)
        await pilot.press("escape", "escape")
        app.submit(f"/approvals {QUEUED}")
        await wait_for(pilot, lambda: isinstance(app.screen, ApprovalsScreen) and app.screen.query("#approval-facts"))
        facts = _text(app.screen)
        assert "[b]bold?[/b]" in facts and "\x1b" not in facts and "[link=http://x]y[/link]" in facts
    db.close()


def test_a_team_row_is_never_signalled_nor_resumed_as_a_local_process() -> None:
    import os

    from konstruct_tui.app import RunRow, start_resume, stop_run

    row = RunRow(RUNNING, "t", "running", "p1", 1, "team build-1", 0.0, 0.0, "/srv", owner=f"{os.getpid()}:1@here", team="sqlite:///x")
    assert stop_run(row) == f"run {RUNNING} is a team run: it stops through the team database (sqlite:///x)"
    parked = RunRow(RUNNING, "t", "parked", "p1", 1, "team", 0.0, 0.0, "/srv", team="sqlite:///x")
    assert start_resume(parked) == f"run {RUNNING} is a team run: it resumes through the team database (sqlite:///x)"
    assert parked.next_step == f"konstruct blueprint resume {RUNNING}"


def test_a_workbench_database_that_is_no_database_url_is_refused_in_one_line(konstruct: Any, tmp_path: Path) -> None:
    code, _, err = konstruct("--root", str(make_project(tmp_path)), "--database", "mysql://u:secret@h/db")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "secret" not in err and "postgresql://" in err


def test_the_cli_deny_and_the_screen_deny_leave_the_same_audit(konstruct: Any, tmp_path: Path) -> None:
    url = _url(tmp_path)
    db = team_database(url, tmp_path / "images")
    code, payload, err = konstruct("approvals", "deny", WAITING, REQUEST, "--message", "use make fixtures", "--database", url)
    assert code == 0, err
    assert isinstance(payload, dict) and payload["answer"] == "denied" and payload["status"] == "queued"
    entries = [(e["kind"], e["detail"]) for e in db.audit(WAITING) if e["kind"] in ("approval_denied", "answer_message")]
    assert entries == [("approval_denied", {"request": REQUEST, "scope": "once", "message": "use make fixtures"})]
    code, _, err = konstruct("approvals", "grant", WAITING, REQUEST, "--database", url)
    assert code == 2 and "already answered: denied" in err
    db.close()
