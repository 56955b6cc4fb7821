"""Keys a person reaches for while typing: the transcript scrolls from the input, every workbench
binding works whatever has focus, and a toast never covers the request input."""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_harness import make_project, workbench

from konstruct_tui.ui.panes.request_input import RequestInput
from konstruct_tui.ui.panes.transcript import Transcript


async def _long_transcript(app, pilot) -> Transcript:  # type: ignore[no-untyped-def]
    transcript = app.query_one(Transcript)
    for i in range(120):
        transcript.add_note(f"line {i}")
    await pilot.pause()
    await pilot.pause()
    transcript.scroll_end(animate=False)
    await pilot.pause()
    return transcript


async def test_page_keys_scroll_the_transcript_while_the_input_has_focus(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        transcript = await _long_transcript(app, pilot)
        assert isinstance(app.focused, RequestInput)
        bottom = transcript.scroll_y
        assert bottom > 0
        await pilot.press("pageup")
        await pilot.pause()
        assert transcript.scroll_y < bottom
        assert isinstance(app.focused, RequestInput)  # still typing: focus did not move
        await pilot.press("ctrl+home")
        await pilot.pause()
        assert transcript.scroll_y == 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert 0 < transcript.scroll_y
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert transcript.scroll_y == transcript.max_scroll_y


@pytest.mark.parametrize("key, changed", [
    ("ctrl+g", lambda app: app._calls_expanded),
    ("ctrl+t", lambda app: app.theme),
])
async def test_workbench_keys_work_from_every_focusable_widget(tmp_path: Path, key: str, changed) -> None:  # type: ignore[no-untyped-def]
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await _long_transcript(app, pilot)
        chain = list(app.screen.focus_chain)
        assert len(chain) >= 3
        for widget in chain:
            widget.focus()
            await pilot.pause()
            before = changed(app)
            await pilot.press(key)
            await pilot.pause()
            assert changed(app) != before, f"{key} did nothing with {type(widget).__name__} focused"


async def test_a_toast_never_covers_the_request_input(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for i in range(3):
            app.notify(f"note {i}: something worth a toast that is long enough to wrap at eighty columns", timeout=30)
        await pilot.pause(0.3)
        request = app.query_one(RequestInput).region
        toasts = [toast.region for toast in app.query("Toast")]
        assert toasts
        assert all(not toast.overlaps(request) for toast in toasts), (toasts, request)
