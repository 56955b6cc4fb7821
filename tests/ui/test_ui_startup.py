"""The workbench paints first and loads its core right after (or sooner, when something needs it):
nothing a person does in that moment is lost."""

from __future__ import annotations

from pathlib import Path

from ui_harness import make_project, wait_for, workbench, write_script

from konstruct_tui.ui.panes.transcript import Transcript


def _text_of(app) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(getattr(w.content, "plain", str(w.content)) for w in app.query_one(Transcript).query("Static"))


async def test_a_request_sent_in_the_first_frame_is_answered(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.json", [{"text": "Early answer."}])
    app = workbench(make_project(tmp_path), script)
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("right away")  # before the core's after-first-frame load has run
        await wait_for(pilot, lambda: "Early answer." in _text_of(app))
        await wait_for(pilot, lambda: not app.runs.running)
        assert app.runs.session_id is not None


async def test_a_slash_command_typed_at_once_is_answered(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"/help", "enter")
        await wait_for(pilot, lambda: "/undo" in _text_of(app))


async def test_ctrl_k_before_anything_ran_says_nothing_is_running(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+k")
        await pilot.pause()
        assert [n.message for n in app._notifications] == ["Nothing is running."]
