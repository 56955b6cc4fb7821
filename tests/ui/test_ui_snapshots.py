"""The main screen at 120x40 in each built-in theme, after a fixed session (pytest-textual-snapshot;
update with `pytest tests/ui --snapshot-update` after checking the SVGs by eye)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from ui_harness import (
    graph_loaded,
    make_project,
    post,
    session_events,
    wait_for,
    workbench,
)

from konstruct_tui.ui.panes.budgets import BudgetsPane
from konstruct_tui.ui.panes.request_input import RequestInput


@pytest.mark.parametrize("theme", ["konstruct-dark", "konstruct-light", "konstruct-high-contrast"])
def test_main_screen(theme: str, snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = workbench(make_project(tmp_path), theme=theme)

    async def settle(pilot: Pilot) -> None:  # type: ignore[type-arg]
        app.query_one(RequestInput).cursor_blink = False  # a blinking cursor would make the picture flaky
        await graph_loaded(app, pilot)
        post(app, *session_events())
        await wait_for(pilot, lambda: app.query_one(BudgetsPane).state == "done")
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=(120, 40), run_before=settle)
