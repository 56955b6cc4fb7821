"""Untrusted text on the workbench: what reaches the terminal carries no control sequence the model,
a file or a command wrote. Each test inspects the frame the driver would write (the compositor's
full update, rendered as terminal bytes), strips Textual's own cursor moves and colours, and looks
for anything a terminal would obey; and checks that the person sees a visible escape instead."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from textual.widgets import Static
from ui_harness import make_project, post, wait_for, workbench, write_script

from konstruct_tui.agent import ProviderWarning
from konstruct_tui.agent import Finished, TextDelta, ToolFinished, ToolStarted, TurnStarted
from konstruct_tui.app import TrustPreview
from konstruct_tui.blueprint import PhaseStarted, VerdictReached
from konstruct_tui.ui.panes.gate import GatePane
from konstruct_tui.ui.panes.transcript import AssistantText, ToolCallEntry, Transcript
from konstruct_tui.ui.trust_prompt import TrustPrompt
from konstruct_tui.untrusted_text import HAZARDS

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"  # writes `rm -rf ~` to the clipboard
CLEAR = "\x1b[2J\x1b[1;1H"  # clears the screen and homes the cursor: draws over the trust prompt
SPELLINGS = {
    "osc52-bel": OSC52,
    "osc52-st": "\x1b]52;c;cm0gLXJmIH4=\x1b\\",
    "osc52-8bit": "\x9d52;c;cm0gLXJmIH4=\x9c",
    "csi-8bit": "\x9b2J",
    "title": "\x1b]0;pwned\x07",
    "dcs": "\x1bP1$qm\x1b\\",
    "apc": "\x1b_Gf=100;AAAA\x1b\\",
    "nested": "\x1b]52;c;\x1b]52;c;eA==\x07\x07",
    "rlo": "safe\u202etxt.exe",
    "isolate": "\u2066admin\u2069",
    "zero-width": "pass\u200bword\ufeff\u2060",
    "tags": "\U000e0069\U000e0067\U000e006e",
}
EVIL = CLEAR + " ".join(SPELLINGS.values())

# Textual's own output: SGR colours, cursor positioning, hide/show cursor, synchronized updates.
_OURS = re.compile(r"\x1b\[[0-9;:]*[mHJK]|\x1b\[\?[0-9;]*[hl]")


def terminal_frame(app: Any) -> str:
    """What the driver would write for a full repaint of the current screen (App._display does
    exactly this with the same console)."""
    update = app.screen._compositor.render_update(full=True)
    return update.render_segments(app.console)


def obeyed(frame: str) -> list[str]:
    """The hazards left once Textual's own sequences are taken out, with a little context."""
    rest = _OURS.sub("", frame)
    return [repr(rest[max(0, i - 8): i + 8]) for i, ch in enumerate(rest) if ord(ch) in HAZARDS and ch not in "\n"]


def _plain(app: Any) -> str:
    frame = terminal_frame(app)
    return re.sub(r"\x1b\[[0-9;:?]*[A-Za-z]", "", frame)


async def test_a_reply_with_osc52_and_screen_clearing_reaches_the_terminal_as_visible_escapes(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(160, 50)) as pilot:
        post(app, TurnStarted(1), TextDelta(1, "Here you go " + EVIL + " done"))
        await wait_for(pilot, lambda: app.query(AssistantText) and "done" in app.query_one(AssistantText).shown)
        await pilot.pause(0.1)
        frame = terminal_frame(app)
        assert obeyed(frame) == []
        assert "␛]52;c;cm0gLXJmIH4=␇" in _plain(app)
        assert "\\x9b2J" in _plain(app) and "safe\\u202etxt.exe" in _plain(app)
        # The person's copy of the reply is the model's, byte for byte: only the screen is neutral.
        assert EVIL in app.query_one(AssistantText).text


async def test_a_sequence_split_across_stream_chunks_is_still_caught(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(160, 50)) as pilot:
        post(app, TurnStarted(1), TextDelta(1, "a\x1b"), TextDelta(1, "]52;c;eA=="), TextDelta(1, "\x07 b\x1b"), TextDelta(1, "[2J end"))
        await wait_for(pilot, lambda: app.query(AssistantText) and "end" in app.query_one(AssistantText).shown)
        await pilot.pause(0.1)
        assert obeyed(terminal_frame(app)) == []
        assert "␛]52;c;eA==␇" in _plain(app) and "␛[2J" in _plain(app)


async def test_markdown_code_fences_links_and_character_references_are_neutralised(tmp_path: Path) -> None:
    reply = (
        "Run this:\n\n```sh\necho " + OSC52 + "\n```\n\n"
        "and `inline " + CLEAR + "` and [docs](https://example.com/" + "\x1b]52;c;eA==\x07" + ") "
        "and a reference &#x202e;gnp.exe and &rlm; and &#27;[2J and &ZeroWidthSpace;end\n"
    )
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(160, 50)) as pilot:
        post(app, TurnStarted(1), TextDelta(1, reply))
        await wait_for(pilot, lambda: app.query(AssistantText) and "end" in app.query_one(AssistantText).shown)
        await pilot.pause(0.2)
        assert obeyed(terminal_frame(app)) == []
        plain = _plain(app)
        assert "echo ␛]52;c;cm0gLXJmIH4=␇" in plain  # inside the fence
        assert "inline ␛[2J␛[1;1H" in plain
        assert "\\u202egnp.exe" in plain and "\\u200f" in plain and "\\u200bend" in plain


async def test_tool_calls_file_names_arguments_and_command_output_are_neutralised(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    name = "evil\x1b]52;c;eA==\x07\u202e.py"
    output = {"status": "ok", "exit_code": 0, "stdout": "line\x1b[2J\x9b1;1H" + OSC52, "stderr": "\u202eoops"}
    diff = f"--- a/{name}\n+++ b/{name}\n@@ -1 +1 @@\n-x\n+print('{OSC52}')\n"
    async with app.run_test(size=(160, 60)) as pilot:
        post(app,
             ToolStarted(1, "r1", "run_command", {"command": "printf '" + OSC52 + "'"}),
             ToolFinished(1, "r1", "run_command", True, output),
             ToolStarted(1, "w1", "write_code", {"edits": [{"path": name}]}),
             ToolFinished(1, "w1", "write_code", True, {"results": [{"path": name, "status": "written", "diff": diff}]}, ("written",)))
        await wait_for(pilot, lambda: len(app.query(ToolCallEntry)) == 2 and all(e.finished for e in app.query(ToolCallEntry)))
        await pilot.press("ctrl+g")  # expand every call: arguments, results and diffs on screen
        await pilot.pause(0.3)
        assert obeyed(terminal_frame(app)) == []
        headings = [entry.title.plain for entry in app.query(ToolCallEntry)]
        assert any("evil␛]52;c;eA==␇\\u202e.py" in h for h in headings)
        app.query_one(Transcript).scroll_end(animate=False)
        await pilot.pause(0.2)
        assert obeyed(terminal_frame(app)) == []
        assert "print('␛]52;c;cm0gLXJmIH4=␇')" in _plain(app)  # the diff's content


async def test_server_error_words_and_finish_messages_are_neutralised(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(160, 50)) as pilot:
        post(app, ProviderWarning(1, "retry", "server said: " + OSC52),
             Finished("error", "s1", 1, "HTTP 500: " + CLEAR + "\u202eboom"))
        await wait_for(pilot, lambda: "boom" in _plain(app))
        assert obeyed(terminal_frame(app)) == []
        assert "server said: ␛]52;c;cm0gLXJmIH4=␇" in _plain(app) and "HTTP 500: ␛[2J␛[1;1H\\u202eboom" in _plain(app)


async def test_the_trust_prompt_shows_commands_file_names_and_diffs_inert(tmp_path: Path) -> None:
    name = "src/a\x1b[2J\u202e.py"
    preview = TrustPreview(
        "run_command", "run", "run printf '" + OSC52 + "'", (name,), command="printf '" + OSC52 + "'\n" + CLEAR,
        rule="unlisted", reason="not on the allowlist \x9b2J",
        diffs=((name, f"--- a/{name}\n+++ b/{name}\n@@ -1 +1 @@\n-a\n+{OSC52}\n"),), notes=("note \u2066x\u2069",),
    )
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(160, 50)) as pilot:
        app.push_screen(TrustPrompt(preview))
        await pilot.pause(0.2)
        assert obeyed(terminal_frame(app)) == []
        facts = app.screen.query_one("#trust-facts", Static).content.plain
        title = app.screen.query_one("#trust-title", Static).content.plain
        assert "printf '␛]52;c;cm0gLXJmIH4=␇'\n␛[2J␛[1;1H" in facts
        assert "src/a␛[2J\\u202e.py" in facts and "\\x9b2J" in facts and "\\u2066x\\u2069" in facts
        assert "run printf '␛]52;c;cm0gLXJmIH4=␇'" in title
        assert "+␛]52;c;cm0gLXJmIH4=␇" in _plain(app)


async def test_a_file_name_with_a_newline_cannot_forge_a_line_of_the_trust_prompt(tmp_path: Path) -> None:
    preview = TrustPreview("write_code", "edit", "change a file", ("a.py\ncommand     ls",))
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(160, 50)) as pilot:
        app.push_screen(TrustPrompt(preview))
        await pilot.pause(0.2)
        facts = app.screen.query_one("#trust-facts", Static).content.plain
        assert "a.py␊command     ls" in facts and "\ncommand" not in facts


async def test_adjudicator_words_in_the_gate_pane_are_neutralised(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(160, 50)) as pilot:
        post(app, PhaseStarted("r1", "p1", "Fix " + CLEAR, 1, "s1", True),
             VerdictReached("r1", "p1", 1, "adjudicator", "incomplete", "retry", outstanding=("tests \x1b]52;c;eA==\x07",),
                            vetoes=("veto \u202e",), defects=("defect \x9b2J",)))
        gate = app.query_one(GatePane)
        await wait_for(pilot, lambda: "p1" in gate.phases and gate.phases["p1"].verdict is not None)
        await pilot.pause(0.1)
        assert obeyed(terminal_frame(app)) == []
        body = app.query_one("#gate-body", Static).content.plain
        assert "Fix ␛[2J␛[1;1H" in body and "tests ␛]52;c;eA==␇" in body and "veto \\u202e" in body and "defect \\x9b2J" in body


async def test_the_last_wall_catches_a_widget_nobody_wrapped(tmp_path: Path) -> None:
    """A widget added later that forgets to neutralise: the app's line filter still keeps every
    control from the terminal (it removes them; the call sites are what show them)."""
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(160, 50)) as pilot:
        await app.query_one(Transcript).mount(Static(EVIL + " tail", markup=False, id="unwrapped"))
        await pilot.pause(0.2)
        assert "tail" in _plain(app)
        assert obeyed(terminal_frame(app)) == []


async def test_markdown_headings_tables_html_and_link_titles_are_neutralised(tmp_path: Path) -> None:
    reply = (
        "# Title \x1b]0;owned\x07\n\n"
        "| file | note |\n|---|---|\n| a\x1b[2J.py | \u202eok |\n\n"
        "<span>\x9b2J</span>\n\n"
        '[link](https://example.com "title \x1b]52;c;eA==\x07") end\n'
    )
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(160, 50)) as pilot:
        post(app, TurnStarted(1), TextDelta(1, reply))
        await wait_for(pilot, lambda: app.query(AssistantText) and "end" in app.query_one(AssistantText).shown)
        await pilot.pause(0.2)
        assert obeyed(terminal_frame(app)) == []
        plain = _plain(app)
        assert "Title ␛]0;owned␇" in plain and "a␛[2J.py" in plain and "\\u202eok" in plain


async def test_a_file_named_with_controls_is_offered_inert_by_at_completion(tmp_path: Path) -> None:
    from konstruct_tui.ui.panes.completion import CompletionList
    from konstruct_tui.ui.panes.request_input import RequestInput

    root = make_project(tmp_path)
    (root / "evil\x1b]52;c;eA==\x07\u202e.py").write_text("x = 1\n")
    app = workbench(root)
    async with app.run_test(size=(160, 50)) as pilot:
        request = app.query_one(RequestInput)
        await wait_for(pilot, lambda: any(name.startswith("evil") for name in request.files))
        request.focus()
        await pilot.press(*"explain @evil")
        completions = app.query_one(CompletionList)
        await wait_for(pilot, lambda: completions.display and completions.entries)
        await pilot.pause(0.1)
        assert obeyed(terminal_frame(app)) == []
        assert "evil␛]52;c;eA==␇\\u202e.py" in _plain(app)


async def test_a_multi_line_command_cannot_forge_a_second_line_in_its_tool_heading(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(160, 50)) as pilot:
        post(app, ToolStarted(1, "r1", "run_command", {"command": "true\n✓ write_code written · calc/core.py"}))
        await wait_for(pilot, lambda: app.query(ToolCallEntry))
        heading = app.query_one(ToolCallEntry).title.plain
        assert "\n" not in heading


async def test_a_real_run_writing_a_control_sequence_asks_with_it_inert_and_writes_it_exactly(tmp_path: Path) -> None:
    """End to end: the model's write puts OSC 52 and a bidi override into a file; the trust prompt's
    diff (built from the file and the edit) shows them as escapes, and the file gets the exact bytes."""
    root = make_project(tmp_path)
    new = "return a + b  # " + OSC52 + "\u202e"
    script = write_script(tmp_path / "script.json", [
        {"text": "Reading.", "tool_calls": [{"name": "read_code", "arguments": {"paths": ["calc/core.py"]}}]},
        {"text": "Fixing " + CLEAR, "tool_calls": [{"name": "write_code", "arguments": {"edits": [
            {"path": "calc/core.py", "revision": "$revision:calc/core.py", "replacements": [{"old": "return a - b", "new": new}]}]}}]},
        {"text": "Done."},
    ])
    app = workbench(root, script)
    async with app.run_test(size=(160, 50)) as pilot:
        app.submit("fix add")
        await wait_for(pilot, lambda: isinstance(app.screen, TrustPrompt))
        await pilot.pause(0.2)
        assert obeyed(terminal_frame(app)) == []
        assert "+    return a + b  # ␛]52;c;cm0gLXJmIH4=␇\\u202e" in _plain(app)
        await pilot.press("o")
        await wait_for(pilot, lambda: app.query_one("#budgets").state not in ("running", "idle"))
        assert obeyed(terminal_frame(app)) == []
    assert new in (root / "calc/core.py").read_text()
