"""Slash commands in the workbench: answered in the transcript, never sent to a model (no key
needed), at 80x24 like the held-out suite drives it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Collapsible, Input, Static
from ui_harness import make_project, wait_for, workbench, write_script

from konstruct_tui.agent import load_session
from konstruct_tui.app import ModelChoice
from konstruct_tui.providers import config_path, load_config
from konstruct_tui.ui.diff_view import DiffView
from konstruct_tui.ui.panes.budgets import BudgetsPane
from konstruct_tui.ui.panes.completion import CompletionList
from konstruct_tui.ui.panes.request_input import RequestInput
from konstruct_tui.ui.panes.transcript import Transcript
from konstruct_tui.ui.screens.model_picker import ModelPicker
from konstruct_tui.ui.sessions_screen import SessionsScreen
from konstruct_tui.ui.trust_prompt import TrustPrompt

NARROW = (80, 24)


def _text_of(app: Any) -> str:
    return "\n".join(getattr(w.content, "plain", str(w.content)) for w in app.query_one(Transcript).query("Static"))


async def _type(pilot: Any, app: Any, text: str) -> None:
    app.query_one(RequestInput).focus()
    await pilot.press(*text)


WRITE_TURNS = [
    {"text": "Reading.", "tool_calls": [{"name": "read_code", "arguments": {"paths": ["calc/core.py"]}}]},
    {"text": "Fixing.", "tool_calls": [{"name": "write_code", "arguments": {"edits": [
        {"path": "calc/core.py", "revision": "$revision:calc/core.py", "replacements": [{"old": "return a - b", "new": "return a + b"}]}]}}]},
    {"text": "Done."},
]


async def test_help_is_answered_locally_without_a_model(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))  # no model configured
    async with app.run_test(size=NARROW) as pilot:
        await _type(pilot, app, "/help")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "/compact" in _text_of(app))
        shown = _text_of(app)
        for name in ("help", "diff", "undo", "model", "new", "sessions", "compact", "cost", "quit"):
            assert f"/{name} " in shown
        assert "agent run failed" not in shown and "OPENAI_API_KEY" not in shown.split("/help", 1)[1]
        assert not app.runs.running and app.runs.session_id is None


@pytest.mark.parametrize("typed,expected", [("/hepl", "did you mean /help?"), ("/modle", "did you mean /model?"), ("/frobnicate", "unknown command /frobnicate")])
async def test_an_unknown_command_is_answered_with_the_nearest(tmp_path: Path, typed: str, expected: str) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=NARROW) as pilot:
        await _type(pilot, app, typed)
        await pilot.press("enter")  # the list may offer the nearest command: enter still sends what was typed
        await wait_for(pilot, lambda: "unknown command" in _text_of(app))
        assert expected in _text_of(app)
        assert not app.runs.running and app.runs.session_id is None


async def test_slash_opens_completion_and_enter_runs_the_highlighted_command(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=NARROW) as pilot:
        await _type(pilot, app, "/")
        completions = app.query_one(CompletionList)
        await wait_for(pilot, lambda: completions.display)
        assert [e.insert for e in completions.entries][:3] == ["/help", "/diff", "/undo"]
        await pilot.press("c", "o", "s")
        await wait_for(pilot, lambda: [e.insert for e in completions.entries] == ["/cost"])
        await pilot.press("enter")
        await wait_for(pilot, lambda: "no run in this session yet" in _text_of(app))
        assert not completions.display and app.query_one(RequestInput).value == ""


async def test_at_opens_file_completion_and_tab_takes_the_file(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=NARROW) as pilot:
        request = app.query_one(RequestInput)
        await wait_for(pilot, lambda: "calc/core.py" in request.files)
        await _type(pilot, app, "explain @cor")
        completions = app.query_one(CompletionList)
        await wait_for(pilot, lambda: completions.display and completions.entries)
        assert completions.entries[0].insert == "@calc/core.py"
        await pilot.press("tab")
        assert request.value == "explain @calc/core.py "
        await pilot.press(*"now me@x @su")  # an email is not a mention; the second @ is
        await wait_for(pilot, lambda: completions.entries and completions.entries[0].insert == "@web/sum.ts")
        await pilot.press("enter")  # enter on a file completes it; it does not send
        assert request.value == "explain @calc/core.py now me@x @web/sum.ts "
        assert not app.runs.running and app.runs.session_id is None


async def test_enter_sends_when_the_mention_is_already_typed_in_full(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))  # no model: the request is answered locally
    async with app.run_test(size=NARROW) as pilot:
        request = app.query_one(RequestInput)
        await wait_for(pilot, lambda: "calc/core.py" in request.files)
        await _type(pilot, app, "explain @calc/core.py")
        await wait_for(pilot, lambda: app.query_one(CompletionList).display)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "› explain @calc/core.py" in _text_of(app))
        assert request.value == "" and not app.query_one(CompletionList).display


async def test_a_mentioned_file_reaches_the_model_with_its_revision(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    app = workbench(root, write_script(tmp_path / "s.json", [{"text": "It subtracts."}]))
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("explain @calc/core.py")
        await wait_for(pilot, lambda: app.query_one(BudgetsPane).state == "done" and not app.runs.running)
        assert "attached calc/core.py" in _text_of(app)
        opening = load_session(app.runs.session_id).transcript[0]
    from konstruct_tui.workspace import Workspace

    with Workspace(root) as workspace:
        revision = workspace.read("calc/core.py").revision
    assert f'revision="{revision}"' in opening.text and "return a - b" in opening.text


async def test_diff_then_undo_after_a_run(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    app = workbench(root, write_script(tmp_path / "s.json", WRITE_TURNS))
    async with app.run_test(size=NARROW) as pilot:
        app.submit("/diff")
        await wait_for(pilot, lambda: "no changes in this session" in _text_of(app))
        app.submit("fix add")
        await wait_for(pilot, lambda: isinstance(app.screen, TrustPrompt))
        await pilot.press("o")
        await wait_for(pilot, lambda: app.query_one(BudgetsPane).state == "done" and not app.runs.running)
        app.submit("/diff")
        await wait_for(pilot, lambda: "this session changed 1 file(s): calc/core.py" in _text_of(app))
        diff_entry = [c for c in app.query(Collapsible) if c.has_class("diff-entry")][-1]
        body = diff_entry.query_one(DiffView).diff
        assert "-    return a - b" in body and "+    return a + b" in body
        app.submit("/undo")
        await wait_for(pilot, lambda: "undid batch" in _text_of(app))
        assert "return a - b" in (root / "calc/core.py").read_text()
        app.submit("/undo")
        await wait_for(pilot, lambda: "undo refused: nothing to undo" in _text_of(app))


async def test_model_picker_saves_the_choice_and_the_next_request_uses_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    app = workbench(make_project(tmp_path))  # no model
    async with app.run_test(size=NARROW) as pilot:
        app.submit("/model")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPicker))
        picker = app.screen
        await wait_for(pilot, lambda: picker.query("#model-detected") and "127.0.0.1" in str(picker.query_one("#model-detected", Static).content))
        picker.query_one("#model-name", Input).value = "qwen2.5-coder"
        picker.query_one("#model-url", Input).value = "http://127.0.0.1:11434/v1"
        await pilot.pause()
        assert "none needed" in str(picker.query_one("#model-key", Static).content)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, ModelPicker))
        await wait_for(pilot, lambda: "the next request goes to openai · qwen2.5-coder" in _text_of(app))
        assert app.runs.setup.settings is not None and app.runs.setup.settings.base_url == "http://127.0.0.1:11434/v1"
        assert "qwen2.5-coder" in str(app.query_one("#banner", Static).content)
    saved = load_config(config_path())
    assert saved["provider"] == "openai" and saved["openai"]["model"] == "qwen2.5-coder"


async def test_model_picker_lists_local_servers_and_escape_changes_nothing(tmp_path: Path) -> None:
    from konstruct_tui.app import LocalServer

    app = workbench(make_project(tmp_path))
    async with app.run_test(size=NARROW) as pilot:
        picker = ModelPicker(ModelChoice("openai", "gpt-4.1-mini"), detect=False)
        app.push_screen(picker, app.slash.chose_model)
        await pilot.pause()
        picker.show_servers([LocalServer("Ollama", "http://127.0.0.1:11434/v1", ("llama3.1",))])
        await pilot.pause()
        picker.query_one("#model-servers").focus()
        await pilot.press("enter")  # the first entry: the local server's model fills the fields
        assert picker.choice == ModelChoice("openai", "llama3.1", "http://127.0.0.1:11434/v1")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "model unchanged" in _text_of(app))
    assert not config_path().exists()


async def test_new_sessions_cost_compact_and_quit(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path), write_script(tmp_path / "s.json", [{"text": "hi", "usage": {"input_tokens": 100, "output_tokens": 5}}]))
    async with app.run_test(size=NARROW) as pilot:
        app.submit("/compact")
        await wait_for(pilot, lambda: "nothing to compact" in _text_of(app))
        app.submit("hello")
        await wait_for(pilot, lambda: app.query_one(BudgetsPane).state == "done" and not app.runs.running)
        app.submit("/cost")
        await wait_for(pilot, lambda: "last run: 1 / 10 turns" in _text_of(app))
        assert "105 / no limit tokens" in _text_of(app)
        app.submit("/sessions")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionsScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, SessionsScreen))
        app.submit("/new")
        await wait_for(pilot, lambda: "new session" in _text_of(app))
        assert app.runs.session_id is None
        app.submit("/quit")
        await wait_for(pilot, lambda: app._exit)  # type: ignore[attr-defined]
    assert app.return_code in (0, None)


async def test_a_request_that_starts_with_a_path_goes_to_the_model(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path), write_script(tmp_path / "s.json", [{"text": "ok"}]))
    async with app.run_test(size=NARROW) as pilot:
        app.submit("/usr/bin/python crashes")
        await wait_for(pilot, lambda: app.query_one(BudgetsPane).state == "done" and not app.runs.running)
        assert "unknown command" not in _text_of(app)


async def test_compact_replaces_the_older_turns_and_marks_where(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    (root / "big.py").write_text("".join(f"value_{i} = {i}  # a line long enough to count\n" for i in range(600)))
    script = write_script(tmp_path / "s.json", [
        {"text": "Reading.", "tool_calls": [{"name": "read_code", "arguments": {"paths": ["big.py"]}}]},
        {"text": "big.py holds 600 numbered values."},
    ])
    app = workbench(root, script)
    async with app.run_test(size=NARROW) as pilot:
        app.submit("what is in big.py?")
        await wait_for(pilot, lambda: app.query_one(BudgetsPane).state == "done" and not app.runs.running)
        session_id = app.runs.session_id
        app.submit("/compact")
        await wait_for(pilot, lambda: "compacted here" in _text_of(app) or "failed" in _text_of(app))
        assert "compacted here: 3 earlier messages" in _text_of(app) and "1 files read" in _text_of(app)
        app.submit("/compact")  # already compacted: nothing older than the summary to replace
        await wait_for(pilot, lambda: "nothing to compact" in _text_of(app))
    from konstruct_tui.agent import sessions_dir

    lines = (sessions_dir() / f"{session_id}.jsonl").read_text().splitlines()
    assert any('"compacted"' in line and '"request"' in line for line in lines)  # the file keeps the history and says where


async def test_diff_after_continuing_a_session_covers_the_whole_session(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    app = workbench(root, write_script(tmp_path / "s.json", WRITE_TURNS))
    async with app.run_test(size=NARROW) as pilot:
        app.submit("fix add")
        await wait_for(pilot, lambda: isinstance(app.screen, TrustPrompt))
        await pilot.press("o")
        await wait_for(pilot, lambda: app.query_one(BudgetsPane).state == "done" and not app.runs.running)
        session_id = app.runs.session_id
    again = workbench(root, write_script(tmp_path / "s2.json", [{"text": "ok"}]))  # a later launch
    async with again.run_test(size=NARROW) as pilot:
        again.runs.continue_session(session_id)  # what choosing it in /sessions does
        again.submit("/diff")
        await wait_for(pilot, lambda: "this session changed 1 file(s): calc/core.py" in _text_of(again))
