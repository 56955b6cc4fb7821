"""Runs from the request input: the kill binding stops a running scripted session mid-flight,
follow-ups continue the session, sessions can be listed and resumed, and worker errors land in
the transcript as one line (never a traceback)."""

from __future__ import annotations

import time
from pathlib import Path

from textual.widgets import OptionList
from ui_harness import make_project, wait_for, workbench, write_script

from konstruct_tui.agent import Finished
from konstruct_tui.agent import KillSwitch
from konstruct_tui.ui.messages import Reported, RequestSubmitted
from konstruct_tui.ui.panes.budgets import BudgetsPane
from konstruct_tui.ui.panes.request_input import RequestInput
from konstruct_tui.ui.panes.transcript import Transcript
from konstruct_tui.ui.sessions_screen import SessionsScreen


def _text_of(app) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(getattr(w.content, "plain", str(w.content)) for w in app.query_one(Transcript).query("Static"))


async def test_ctrl_k_kills_a_running_session_mid_turn(tmp_path: Path) -> None:
    script = write_script(tmp_path / "hang.json", [{"text": "Thinking very hard about this one", "delay_s": 0.05, "hang": True}])
    app = workbench(make_project(tmp_path), script)
    seen: list[object] = []
    async with app.run_test(size=(120, 40), message_hook=seen.append) as pilot:
        app.submit("think")
        budgets = app.query_one(BudgetsPane)
        await wait_for(pilot, lambda: "hard" in _text_of(app))
        assert budgets.state == "running" and not budgets.query_one("#kill").disabled
        started = time.monotonic()
        await pilot.press("ctrl+k")
        await wait_for(pilot, lambda: budgets.state == "killed", timeout=5)
        assert time.monotonic() - started < 3  # mid-flight, not after the hung turn
        finished = list({id(m): m.event for m in seen if isinstance(m, Reported) and isinstance(m.event, Finished)}.values())
        assert [f.reason for f in finished] == ["killed"]
        assert budgets.query_one("#kill").disabled
        assert "finished (killed)" in _text_of(app)


async def test_the_kill_button_kills_too(tmp_path: Path) -> None:
    script = write_script(tmp_path / "hang.json", [{"text": "Working", "hang": True}])
    app = workbench(make_project(tmp_path), script)
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("work")
        budgets = app.query_one(BudgetsPane)
        await wait_for(pilot, lambda: not budgets.query_one("#kill").disabled)
        await pilot.click("#kill")
        await wait_for(pilot, lambda: budgets.state == "killed", timeout=5)


async def test_request_input_submits_keeps_history_and_follow_ups_continue_the_session(tmp_path: Path) -> None:
    script = write_script(tmp_path / "two.json", [{"text": "First answer."}, {"text": "Second answer."}])
    app = workbench(make_project(tmp_path), script)
    seen: list[object] = []
    async with app.run_test(size=(120, 40), message_hook=seen.append) as pilot:
        request = app.query_one(RequestInput)
        request.focus()
        await pilot.press(*"hello", "enter")
        await wait_for(pilot, lambda: "First answer." in _text_of(app))
        await wait_for(pilot, lambda: not app.runs.running)
        first_session = app.runs.session_id
        await pilot.press(*"again", "enter")
        await wait_for(pilot, lambda: "Second answer." in _text_of(app))
        await wait_for(pilot, lambda: not app.runs.running)
        assert app.runs.session_id == first_session  # the follow-up resumed it
        submitted = {id(m): m.text for m in seen if isinstance(m, RequestSubmitted)}  # a message is seen at each hop
        assert list(submitted.values()) == ["hello", "again"]
        await pilot.press("up")
        assert request.value == "again"
        await pilot.press("up")
        assert request.value == "hello"
        await pilot.press("down", "down")
        assert request.value == ""


async def test_sessions_screen_lists_this_projects_sessions_and_resumes_one(tmp_path: Path) -> None:
    script = write_script(tmp_path / "one.json", [{"text": "Answer."}, {"text": "Resumed answer."}])
    app = workbench(make_project(tmp_path), script)
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("remember me")
        await wait_for(pilot, lambda: app.runs.session_id is not None and not app.runs.running)
        session = app.runs.session_id
        await pilot.press("ctrl+n")
        assert app.runs.session_id is None
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionsScreen))
        options = app.screen.query_one(OptionList)
        assert options.option_count == 1 and "remember me" in str(options.get_option_at_index(0).prompt)
        options.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, SessionsScreen))
        assert app.runs.session_id == session
        await wait_for(pilot, lambda: f"continues session {session}" in _text_of(app))
        assert "remember me" in _text_of(app) and "Answer." in _text_of(app)  # its history is back on screen


async def test_without_a_model_a_request_is_answered_with_one_line_offering_model(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))  # no script: no model configured
    async with app.run_test(size=(120, 40)) as pilot:
        assert "no model" in _text_of(app) and "/model" in _text_of(app)
        app.submit("anything")
        await pilot.pause(0.2)
        assert _text_of(app).count("/model picks one") == 2  # at start, and for the request
        assert "agent run failed" not in _text_of(app) and "Traceback" not in _text_of(app)
        assert not app.runs.running and app.query_one(BudgetsPane).query_one("#kill").disabled
        assert app.query_one(BudgetsPane).state == "idle"


async def test_request_history_survives_a_restart(tmp_path: Path) -> None:
    script = write_script(tmp_path / "one.json", [{"text": "ok"}])
    root = make_project(tmp_path)
    app = workbench(root, script)
    async with app.run_test(size=(120, 40)) as pilot:
        app.query_one(RequestInput).focus()
        await pilot.press(*"first request", "enter")
        await wait_for(pilot, lambda: app.runs.session_id is not None and not app.runs.running)
        await app.workers.wait_for_complete()
    again = workbench(root, script)
    async with again.run_test(size=(120, 40)) as pilot:
        request = again.query_one(RequestInput)
        await wait_for(pilot, lambda: request.history == ["first request"])
        request.focus()
        await pilot.press("up")
        assert request.value == "first request"


async def test_requests_typed_during_a_run_are_queued_and_sent_in_order_when_it_ends(tmp_path: Path) -> None:
    # Each text piece of the first answer waits 0.2 s: the two requests below arrive mid-run.
    script = write_script(tmp_path / "three.json", [{"text": "First answer, slowly.", "delay_s": 0.2},
                                                    {"text": "Second answer."}, {"text": "Third answer."}])
    app = workbench(make_project(tmp_path), script)
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("one")
        await wait_for(pilot, lambda: app.runs.running)
        app.submit("two")
        app.submit("three")
        assert _text_of(app).count("⏳ queued") == 2  # said on screen, not refused
        await wait_for(pilot, lambda: "Third answer." in _text_of(app) and not app.runs.running)
        text = _text_of(app)
        assert text.index("First answer") < text.index("Second answer.") < text.index("Third answer.")
        assert text.rindex("two") < text.index("Second answer.") and text.rindex("three") < text.index("Third answer.")


async def test_ctrl_k_drops_the_queued_requests_with_the_run(tmp_path: Path) -> None:
    script = write_script(tmp_path / "hang.json", [{"text": "Working", "hang": True}, {"text": "must never be sent"}])
    app = workbench(make_project(tmp_path), script)
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("work")
        await wait_for(pilot, lambda: "Working" in _text_of(app))
        app.submit("and then this")
        await pilot.press("ctrl+k")
        await wait_for(pilot, lambda: app.query_one(BudgetsPane).state == "killed" and not app.runs.running)
        await pilot.pause(0.3)
        assert "dropped 1 queued request(s)" in _text_of(app)
        assert "must never be sent" not in _text_of(app)


async def test_a_request_queued_behind_a_run_that_fails_is_put_back_in_the_input(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path), write_script(tmp_path / "one.json", [{"text": "never reached"}]))

    def failing_run(request: str) -> Finished:
        app.runs.switch = KillSwitch()  # in flight, as a real run is
        try:
            time.sleep(0.5)
            raise RuntimeError("provider fell over")
        finally:
            app.runs.switch = None

    async with app.run_test(size=(120, 40)) as pilot:
        app.runs.run = failing_run  # type: ignore[method-assign]
        app.submit("first")
        await wait_for(pilot, lambda: app.runs.running or "fell over" in _text_of(app))
        app.submit("second, after it")
        # the failure's own line comes from the worker's state change, after the run's end
        await wait_for(pilot, lambda: "not sent: the run failed" in _text_of(app) and "fell over" in _text_of(app))
        assert app.query_one(RequestInput).value == "second, after it"
