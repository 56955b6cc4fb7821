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
                       blast_radius=("calc/cli.py",), proposed_glob="calc/**", project="calc")


COMMAND = TrustPreview("run_command", "commands", "run the command 'pytest -q tests/x'", command="pytest -q tests/x",
                       rule="needs_grant", reason="an arbitrary command", argv=("pytest", "-q", "tests/x"),
                       proposed_rule="pytest", confinement="workspace-write (Landlock ABI 6) · network blocked · .git read-only",
                       project="calc")
EXACT = ("exact", ("pytest", "-q", "tests/x"))


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        (["o"], TrustAnswer(True, "once")),
        (["s"], TrustAnswer(True, "session", paths=("calc/core.py",))),  # this file, this session
        (["a"], TrustAnswer(True, "always", paths=("calc/core.py",))),  # this file, always: never the project
        (["p"], TrustAnswer(True, "session")),  # the whole project
        (["w"], TrustAnswer(True, "always")),
        (["g", "enter"], TrustAnswer(True, "always", paths=("calc/**",))),  # the proposed glob
        (["g", "ctrl+u", *"calc/*.py", "enter"], TrustAnswer(True, "always", paths=("calc/*.py",))),  # edited
        (["g", "escape", "o"], TrustAnswer(True, "once")),  # esc leaves the glob, not the prompt
        (["d"], TrustAnswer(False)),
        (["escape"], TrustAnswer(False)),
        (["m", *"use the helper", "enter"], TrustAnswer(False, message="use the helper")),
        (["enter"], TrustAnswer(True, "once")),  # the focused button is the narrowest yes
    ],
)
async def test_each_answer_of_the_prompt_for_an_edit(tmp_path: Path, keys: list[str], expected: TrustAnswer) -> None:
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


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        (["o"], TrustAnswer(True, "once")),
        (["s"], TrustAnswer(True, "session", command=EXACT)),
        (["a"], TrustAnswer(True, "always", command=EXACT)),  # `a` is this command, never every command
        (["r", "enter"], TrustAnswer(True, "always", command=("prefix", ("pytest",)))),  # the proposed rule
        (["r", "end", *" -q", "enter"], TrustAnswer(True, "always", command=("prefix", ("pytest", "-q")))),  # edited
        (["e", "y"], TrustAnswer(True, "always")),  # every command: only after the warning
        (["e", "escape", "s"], TrustAnswer(True, "session", command=EXACT)),  # the warning backs out
        (["e", "o", "a", "escape", "escape"], TrustAnswer(False)),  # no other key answers while it warns
        (["m", *"run make test instead", "enter"], TrustAnswer(False, message="run make test instead")),
        (["escape"], TrustAnswer(False)),
    ],
)
async def test_each_answer_of_the_prompt_for_a_command(tmp_path: Path, keys: list[str], expected: TrustAnswer) -> None:
    app = workbench(make_project(tmp_path))
    answers: list[TrustAnswer | None] = []
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(TrustPrompt(COMMAND), answers.append)
        await pilot.pause(0.1)
        facts = app.screen.query_one("#trust-facts", Static).content.plain
        assert "sandbox     workspace-write (Landlock ABI 6) · network blocked" in facts  # the confinement it runs under
        for key in keys:
            await pilot.press(key)
        await wait_for(pilot, lambda: answers)
    assert answers == [expected]


async def test_every_command_is_granted_only_after_a_warning_that_names_it(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    answers: list[TrustAnswer | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(TrustPrompt(COMMAND), answers.append)
        await pilot.pause(0.1)
        await pilot.press("e")
        await pilot.pause(0.1)
        warning = app.screen.query_one("#trust-confirm", Static)
        assert warning.region.height > 0 and not answers
        text = warning.content.plain
        assert "every command" in text and "calc" in text and "konstruct trust revoke commands" in text
        assert app.screen.query_one("#every").region.height == 0  # the choices are gone while it asks
        await pilot.press("y")
        await wait_for(pilot, lambda: answers)
    assert answers == [TrustAnswer(True, "always")]


@pytest.mark.parametrize(("typed", "problem"), [
    ("pytestx", "does not admit the command asked"),  # another program
    ("python", "does not admit the command asked"),
    ("rg --pre cat", "never admits it"),  # an unsafe option in the rule itself
    ("pytest; rm -rf x", "allowlist entry"),  # shell syntax
])
async def test_a_rule_that_does_not_fit_is_refused_in_the_prompt(tmp_path: Path, typed: str, problem: str) -> None:
    app = workbench(make_project(tmp_path))
    answers: list[TrustAnswer | None] = []
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(TrustPrompt(COMMAND), answers.append)
        await pilot.pause(0.1)
        await pilot.press("r", "ctrl+u", *typed, "enter")
        await pilot.pause(0.1)
        assert problem in app.screen.query_one("#trust-problem", Static).content.plain
        assert not answers  # still asking
        await pilot.press("escape", "escape")
        await wait_for(pilot, lambda: answers)
    assert answers == [TrustAnswer(False)]


@pytest.mark.parametrize(("typed", "problem"), [("../**", "workspace-relative"), ("/etc/**", "workspace-relative"),
                                                ("web/**", "does not cover calc/core.py")])
async def test_a_glob_that_does_not_fit_is_refused_in_the_prompt(tmp_path: Path, typed: str, problem: str) -> None:
    app = workbench(make_project(tmp_path))
    answers: list[TrustAnswer | None] = []
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(TrustPrompt(PREVIEW), answers.append)
        await pilot.pause(0.1)
        await pilot.press("g", "ctrl+u", *typed, "enter")
        await pilot.pause(0.1)
        assert problem in app.screen.query_one("#trust-problem", Static).content.plain
        assert not answers


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


async def test_deny_with_a_message_in_a_run_reaches_the_agent_as_the_result(tmp_path: Path) -> None:
    from konstruct_tui.agent import ToolFinished
    from konstruct_tui.ui.messages import Reported

    root = make_project(tmp_path)
    app = workbench(root, _writing_script(tmp_path))
    finished: list[ToolFinished] = []

    def hook(message: object) -> None:
        if isinstance(message, Reported) and isinstance(message.event, ToolFinished):
            finished.append(message.event)

    async with app.run_test(size=(80, 24), message_hook=hook) as pilot:
        app.submit("fix add")
        await wait_for(pilot, lambda: isinstance(app.screen, TrustPrompt))
        await pilot.press("m", *"subtraction is intended here", "enter")
        await wait_for(pilot, lambda: app.query_one("#budgets").state not in ("running", "idle"))
    write = next(e for e in finished if e.tool == "write_code")
    assert write.result["status"] == "denied"
    assert "The person says: subtraction is intended here" in (write.error or "")
    assert "return a - b" in (root / "calc/core.py").read_text()


@pytest.mark.parametrize(("capability", "keys", "expected"), [
    ("scripts", ["a"], TrustAnswer(True, "always")),
    ("scripts", ["s"], TrustAnswer(True, "session")),
    ("full_access", ["a", "s"], TrustAnswer(True, "session")),  # never stored: `a` is not offered
    ("commands", ["s"], TrustAnswer(True, "session", command=("exact", ("sleep", "120")))),
])
async def test_other_capabilities_offer_what_they_can_keep(tmp_path: Path, capability: str, keys: list[str],
                                                           expected: TrustAnswer) -> None:
    preview = TrustPreview("run_command", capability, "sleep 120", command="sleep 120",
                           argv=("sleep", "120") if capability == "commands" else ())
    app = workbench(make_project(tmp_path))
    answers: list[TrustAnswer | None] = []
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(TrustPrompt(preview), answers.append)
        await pilot.pause(0.1)
        assert "every" not in {b.id for b in app.screen.query("Button")} or capability == "commands"
        for key in keys:
            await pilot.press(key)
        await wait_for(pilot, lambda: answers)
    assert answers == [expected]


async def test_a_chain_offers_once_or_every_command_only(tmp_path: Path) -> None:
    preview = TrustPreview("run_command", "commands", "make && make test", command="make && make test", argv=())
    app = workbench(make_project(tmp_path))
    answers: list[TrustAnswer | None] = []
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(TrustPrompt(preview), answers.append)
        await pilot.pause(0.1)
        assert {b.id for b in app.screen.query("Button")} == {"allow-once", "every", "deny-message", "deny"}
        await pilot.press("s", "a", "r", "o")  # not offered: nothing happens until `o`
        await wait_for(pilot, lambda: answers)
    assert answers == [TrustAnswer(True, "once")]
