"""The trust prompt: each answer, Escape denies, grants reach the trust store, and a real scripted
run that writes asks first and shows the diff and the blast radius."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static
from ui_harness import make_project, wait_for, workbench, write_script

from konstruct_tui.app import TrustAnswer, TrustPreview
from konstruct_tui.trust import TrustStore
from konstruct_tui.ui.panes.batches import BatchTable
from konstruct_tui.ui.trust_prompt import TrustPrompt
from konstruct_tui.workspace import Workspace

PREVIEW = TrustPreview("write_code", "edit", "change calc/core.py", ("calc/core.py",),
                       diffs=(("calc/core.py", "--- a/calc/core.py\n+++ b/calc/core.py\n@@ -1 +1 @@\n-a\n+b\n"),),
                       blast_radius=("calc/cli.py",))


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        (["o"], TrustAnswer(True, "once")),
        (["s"], TrustAnswer(True, "session")),
        (["a"], TrustAnswer(True, "always")),
        (["d"], TrustAnswer(False)),
        (["escape"], TrustAnswer(False)),
        (["enter"], TrustAnswer(True, "once")),  # the focused button is the narrowest yes
    ],
)
async def test_each_answer_of_the_prompt(tmp_path: Path, keys: list[str], expected: TrustAnswer) -> None:
    app = workbench(make_project(tmp_path))
    answers: list[TrustAnswer | None] = []
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(TrustPrompt(PREVIEW), answers.append)
        await pilot.pause(0.1)
        facts = app.screen.query_one("#trust-facts", Static).content.plain
        radius = app.screen.query_one("#trust-radius", Static).content.plain  # beside the diffs
        assert "calc/core.py" in facts and "1 dependent file(s)\ncalc/cli.py" in radius
        for key in keys:
            await pilot.press(key)
        await wait_for(pilot, lambda: answers)
    assert answers == [expected]


async def test_clicking_deny_denies(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    answers: list[TrustAnswer | None] = []
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(TrustPrompt(PREVIEW), answers.append)
        await pilot.pause(0.1)
        await pilot.click("#deny")
        await wait_for(pilot, lambda: answers)
    assert answers == [TrustAnswer(False)]


def _writing_script(tmp_path: Path) -> Path:
    return write_script(tmp_path / "script.json", [
        {"text": "Reading.", "tool_calls": [{"name": "read_code", "arguments": {"paths": ["calc/core.py"]}}]},
        {"text": "Fixing.", "tool_calls": [{"name": "write_code", "arguments": {"edits": [
            {"path": "calc/core.py", "revision": "$revision:calc/core.py", "replacements": [{"old": "return a - b", "new": "return a + b"}]}]}}]},
        {"text": "Done."},
    ])


@pytest.mark.parametrize(("key", "written", "stored"), [("a", True, True), ("s", True, False), ("o", True, False), ("escape", False, False)])
async def test_a_run_asks_before_writing_and_keeps_the_answer(tmp_path: Path, key: str, written: bool, stored: bool) -> None:
    root = make_project(tmp_path)
    app = workbench(root, _writing_script(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("fix add")
        await wait_for(pilot, lambda: isinstance(app.screen, TrustPrompt))
        prompt = app.screen
        assert isinstance(prompt, TrustPrompt)
        assert prompt.preview.paths == ("calc/core.py",)
        assert "+    return a + b" in prompt.preview.diffs[0][1]
        assert "calc/cli.py" in (prompt.preview.blast_radius or ())  # cli.py imports core.py
        await pilot.press(key)
        table = app.query_one(BatchTable)
        await wait_for(pilot, lambda: app.query_one("#budgets").state not in ("running", "idle"))
        assert app.query_one("#budgets").state == "done"
    text = (root / "calc/core.py").read_text()
    assert ("return a + b" in text) is written
    statuses = [row.status for row in table.rows_shown]
    assert ("written" in statuses) is written
    grants = TrustStore().grants(root)
    assert bool([g for g in grants if g.capability == "edit"]) is stored


async def test_kill_during_the_question_denies_and_stops_the_run(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    app = workbench(root, _writing_script(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("fix add")
        await wait_for(pilot, lambda: isinstance(app.screen, TrustPrompt))
        await pilot.press("ctrl+k")
        await wait_for(pilot, lambda: app.query_one("#budgets").state == "killed")
        assert not isinstance(app.screen, TrustPrompt)
    assert "return a - b" in (root / "calc/core.py").read_text()
