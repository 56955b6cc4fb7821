"""Pictures of readable results at 80x24 and 120x40: a command block in each way a command ends, the
glyphs and labelled counts with the final answer shown once, and the trust diff unwrapped (it scrolls sideways)
(pytest-textual-snapshot; after `--snapshot-update`, read each SVG's text before committing it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from command_results import STATES, command_call, mixed_session
from test_ui_results import diff_preview
from textual.pilot import Pilot
from ui_harness import graph_loaded, make_project, post, wait_for, workbench

from konstruct_tui.ui.panes.request_input import RequestInput
from konstruct_tui.ui.panes.transcript import ToolCallEntry
from konstruct_tui.ui.trust_prompt import TrustPrompt

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("state", ["ok", "failed", "sandbox-refused", "killed"])
def test_command_block(state: str, size: tuple[int, int], snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = workbench(make_project(tmp_path))

    async def settle(pilot: Pilot) -> None:  # type: ignore[type-arg]
        app.query_one(RequestInput).cursor_blink = False
        await graph_loaded(app, pilot)
        post(app, *command_call("c1", STATES[state]))
        await wait_for(pilot, lambda: app.query(ToolCallEntry) and app.query_one(ToolCallEntry).finished is not None)
        app.query_one(ToolCallEntry).collapsed = False
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_glyphs_counts_and_the_answer_once(size: tuple[int, int], snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = workbench(make_project(tmp_path))

    async def settle(pilot: Pilot) -> None:  # type: ignore[type-arg]
        app.query_one(RequestInput).cursor_blink = False
        await graph_loaded(app, pilot)
        post(app, *mixed_session())
        await wait_for(pilot, lambda: app.query(".finished"))
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_trust_diff_unwrapped(size: tuple[int, int], snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = workbench(make_project(tmp_path))

    async def settle(pilot: Pilot) -> None:  # type: ignore[type-arg]
        app.query_one(RequestInput).cursor_blink = False
        app.push_screen(TrustPrompt(diff_preview()))
        await pilot.pause(0.3)  # the long `+` line runs off the edge (a scrollbar under it), not onto the next row

    assert snap_compare(app, terminal_size=size, run_before=settle)
