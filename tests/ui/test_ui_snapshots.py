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


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("view", ["transcript", "panes", "help"])
def test_workbench_at_both_sizes(size: tuple[int, int], view: str, snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """80x24: the transcript keeps the row (ctrl+b shows the panes); 120x40: side by side."""
    app = workbench(make_project(tmp_path))

    async def settle(pilot: Pilot) -> None:  # type: ignore[type-arg]
        app.query_one(RequestInput).cursor_blink = False
        await graph_loaded(app, pilot)
        post(app, *session_events())
        await wait_for(pilot, lambda: app.query_one(BudgetsPane).state == "done")
        if view == "panes" and size[0] < 100:
            await pilot.press("ctrl+b")
        elif view == "help":
            app.submit("/help")
            app.query_one(RequestInput).focus()
            await pilot.press("/", "c")  # the completion list open under the input
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_trust_prompt_at_both_sizes(size: tuple[int, int], snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from konstruct_tui.app import TrustPreview
    from konstruct_tui.ui.trust_prompt import TrustPrompt

    diff = "--- a/calc/core.py\n+++ b/calc/core.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
    preview = TrustPreview("write_code", "edit", "change calc/core.py, web/sum.ts", ("calc/core.py", "web/sum.ts"),
                           diffs=(("calc/core.py", diff), ("web/sum.ts", diff.replace("calc/core.py", "web/sum.ts"))),
                           blast_radius=("calc/cli.py", "web/app.ts"))
    app = workbench(make_project(tmp_path))

    async def settle(pilot: Pilot) -> None:  # type: ignore[type-arg]
        app.query_one(RequestInput).cursor_blink = False
        app.push_screen(TrustPrompt(preview))
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_trust_prompt_for_a_command_at_both_sizes(size: tuple[int, int], snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The grant scopes for a command, and the sandbox it would run under."""
    from konstruct_tui.app import TrustPreview
    from konstruct_tui.ui.trust_prompt import TrustPrompt

    preview = TrustPreview("run_command", "commands", "pytest -q tests/test_core.py", command="pytest -q tests/test_core.py",
                           rule="needs_grant", reason="an arbitrary command: it runs only with the user's 'commands' grant",
                           argv=("pytest", "-q", "tests/test_core.py"), proposed_rule="pytest", project="calc",
                           confinement="workspace-write (Landlock ABI 6) · network blocked · .git read-only · home hidden")
    app = workbench(make_project(tmp_path))

    async def settle(pilot: Pilot) -> None:  # type: ignore[type-arg]
        app.query_one(RequestInput).cursor_blink = False
        app.push_screen(TrustPrompt(preview))
        await pilot.pause(0.3)
        if size == (120, 40):  # the rule, proposed and open for editing
            await pilot.press("r")
            app.screen.query_one("#trust-typed").cursor_blink = False
            await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=size, run_before=settle)


def test_model_picker_at_80x24(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from konstruct_tui.app import LocalServer, ModelChoice
    from konstruct_tui.ui.screens.model_picker import ModelPicker

    app = workbench(make_project(tmp_path))

    async def settle(pilot: Pilot) -> None:  # type: ignore[type-arg]
        app.query_one(RequestInput).cursor_blink = False
        picker = ModelPicker(ModelChoice("openai", "gpt-4.1-mini"), detect=False)  # no real ports in a picture
        app.push_screen(picker)
        await pilot.pause()
        picker.show_servers([LocalServer("Ollama", "http://127.0.0.1:11434/v1", ("qwen2.5-coder:7b", "llama3.1"))])
        for field in picker.query("Input"):
            field.cursor_blink = False  # type: ignore[attr-defined]
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=(80, 24), run_before=settle)
