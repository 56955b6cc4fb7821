"""Results a person can read: a command as a terminal block, true glyphs and labelled counts, the
final answer once, and a trust diff that scrolls sideways with its path cut at the start."""

from __future__ import annotations

from pathlib import Path

from command_results import KILLED, PASSED, POLICY_REFUSED, SANDBOX_REFUSED, command_call, mixed_session
from textual.widgets import Static
from ui_harness import make_project, post, wait_for, workbench, write_script

from konstruct_tui.agent import Finished, TextDelta, ToolFinished, ToolStarted, TurnStarted
from konstruct_tui.app import TrustPreview
from konstruct_tui.ui.diff_view import DiffView, PathTitle
from konstruct_tui.ui.panes.command_block import CommandBlock
from konstruct_tui.ui.panes.transcript import AssistantText, ToolCallEntry, Transcript
from konstruct_tui.ui.trust_prompt import TrustPrompt


def _block_text(entry: ToolCallEntry) -> str:
    return entry.query_one(CommandBlock).content.plain  # type: ignore[union-attr]


async def _expanded(app, pilot, *events: object) -> list[ToolCallEntry]:  # type: ignore[no-untyped-def]
    post(app, *events)
    await wait_for(pilot, lambda: app.query(ToolCallEntry) and all(e.finished for e in app.query(ToolCallEntry)))
    await pilot.press("ctrl+g")
    await wait_for(pilot, lambda: all(e.query(CommandBlock) for e in app.query(ToolCallEntry) if e.started.tool == "run_command"))
    return list(app.query(ToolCallEntry))


async def test_a_command_reads_as_a_terminal_block(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        ok, blocked, refused, killed = await _expanded(
            app, pilot, *command_call("a", PASSED), *command_call("b", SANDBOX_REFUSED), *command_call("c", POLICY_REFUSED),
            *command_call("d", KILLED))
        lines = _block_text(ok).splitlines()
        assert lines[0] == "$ pytest -q tests/test_calc.py"
        # Output as its own lines, never JSON with `\n` escapes; the cut is marked where it happened.
        assert lines[1:4] == ["..", "✂ 20,480 bytes cut here (head and tail kept)", "2 passed in 0.01s"]
        assert lines[4] == "✓ exit 0 · 0.42 s · workspace-write · Landlock 7 · network blocked"
        assert "\\n" not in _block_text(ok) and "{" not in _block_text(ok)

        text = _block_text(blocked)
        assert "── stderr ──\ncurl: (6) Could not resolve host: pypi.org" in text
        assert "✗ exit 6 · 0.05 s · workspace-write" in text and text.endswith("the sandbox blocked the network")
        assert blocked.title.plain.startswith("✗ run_command failed (exit 6): the sandbox blocked the network")

        assert _block_text(refused).splitlines() == [
            "$ touch /etc/motd", "✗ refused", "  touch '/etc/motd' would overwrite or remove a system directory"]
        assert refused.title.plain.startswith("✗ run_command refused: touch '/etc/motd' would overwrite")

        assert "✗ signal SIGKILL · 1.2 s" in _block_text(killed)
        assert "cancelled: it and every process it started were killed" in _block_text(killed)
        assert all(entry.has_class("-failed") for entry in (blocked, refused, killed)) and ok.has_class("-ok")


async def test_command_output_is_shown_literally_never_as_markup(tmp_path: Path) -> None:
    hostile = {**PASSED, "stdout": "[b]not bold[/b] [link=https://x]y[/link]\\\n\x1b]52;c;eA==\x07\n", "stdout_truncated": False}
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        (entry,) = await _expanded(app, pilot, *command_call("a", hostile))
        text = _block_text(entry)
        assert "[b]not bold[/b] [link=https://x]y[/link]\\" in text and "␛]52;c;eA==␇" in text and "\x1b" not in text


async def test_a_hostile_path_in_what_the_sandbox_blocked_stays_inert(tmp_path: Path) -> None:
    hostile = {**SANDBOX_REFUSED, "stderr": "OSError: [Errno 30] Read-only file system: '/opt/[b]x\x1b[2J'\r\nfake\rline\n"}
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        (entry,) = await _expanded(app, pilot, *command_call("a", hostile))
        assert "failed (exit 6): the sandbox blocked /opt/[b]x␛[2J (outside the workspace)" in entry.title.plain
        text = _block_text(entry)
        assert "\x1b" not in text and "\x1b" not in entry.title.plain
        # CRLF ends a line; a lone CR is shown, never allowed to hide what came before it.
        assert "Read-only file system: '/opt/[b]x␛[2J'\nfake␍line\n" in text


async def test_other_results_read_as_lines(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    read = {"results": [{"path": "calc/core.py", "status": "ok", "content": "def add(a, b):\n    return a - b\n"}]}
    async with app.run_test(size=(120, 40)) as pilot:
        (entry,) = await _expanded(app, pilot, ToolStarted(1, "r", "read_code", {"paths": ["calc/core.py"]}),
                                   ToolFinished(1, "r", "read_code", True, read, ("ok",)))
        await pilot.pause(0.1)
        shown = "\n".join(s.content.plain for s in entry.query(Static) if hasattr(s.content, "plain"))  # type: ignore[union-attr]
        assert "    content: |\n      def add(a, b):\n          return a - b" in shown and "\\n" not in shown


async def test_glyphs_and_counts_tell_the_truth(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, *mixed_session())
        await wait_for(pilot, lambda: len(app.query(ToolCallEntry)) == 5 and all(e.finished for e in app.query(ToolCallEntry)))
        titles = [entry.title.plain.split(" · ")[0] for entry in app.query(ToolCallEntry)]
        assert titles == [
            "✓ search 7 matches",
            "✓ traverse_graph 40 files",
            "◐ read_code 1 ok, 1 not_found",
            "✗ write_code 1 conflict",
            "✗ run_command killed (signal SIGKILL): cancelled",
        ]


async def test_the_final_answer_appears_once(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, *mixed_session())
        await wait_for(pilot, lambda: app.query(".finished"))
        await wait_for(pilot, lambda: app.query(AssistantText) and "calc/core.py" in app.query_one(AssistantText).shown)
        (reply,) = app.query(AssistantText)
        finished = app.query_one(".finished", Static).content.plain  # type: ignore[union-attr]
        assert finished == "■ finished (done) after 2 turn(s)"
        assert "**" not in finished and reply.text == "Fixed `add` in **calc/core.py**."


async def test_a_final_answer_that_never_streamed_is_rendered_once(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, TurnStarted(1), TextDelta(1, "Reading first."), TurnStarted(2), Finished("done", "s1", 2, "All **fixed**."))
        await wait_for(pilot, lambda: len(app.query(AssistantText)) == 2 and "fixed" in app.query(AssistantText).last().shown)
        assert [reply.text for reply in app.query(AssistantText)] == ["Reading first.", "All **fixed**."]
        assert app.query_one(".finished", Static).content.plain == "■ finished (done) after 2 turn(s)"  # type: ignore[union-attr]
        # Other endings keep their message on the line: it is why the run stopped, not an answer.
        post(app, Finished("max_turns", "s1", 10, "budget reached: max_turns"))
        await wait_for(pilot, lambda: len(app.query(".finished")) == 2)
        assert app.query(".finished").last().content.plain.endswith(": budget reached: max_turns")  # type: ignore[attr-defined]


LONG = "    return a + b  # " + "a comment long enough to run past the edge of an 80-column terminal " * 2
DIFF = f"--- a/src/konstruct/core/calc.py\n+++ b/src/konstruct/core/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+{LONG}\n"
DEEP = "src/konstruct/numerics/arithmetic/floating_point/core/calc.py"


def diff_preview() -> TrustPreview:
    return TrustPreview("write_code", "edit", f"change {DEEP}", (DEEP,), diffs=((DEEP, DIFF),),
                        blast_radius=("src/konstruct/command_line/entry_points/main.py",))


async def test_the_trust_diff_scrolls_sideways_and_its_path_is_cut_at_the_start(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(TrustPrompt(diff_preview()))
        await pilot.pause(0.3)
        view = app.screen.query_one(DiffView)
        # Every diff line keeps one row (a wrapped `+` line would read as context): 6 lines, 6 rows.
        assert view.virtual_size.height == len(DIFF.splitlines())
        assert view.virtual_size.width > view.scrollable_content_region.width
        assert view.scroll_x == 0
        await pilot.press("right", "right")
        assert view.scroll_x == 16
        await pilot.press("left")
        assert view.scroll_x == 8
        title = app.screen.query_one(PathTitle).render().plain
        width = app.screen.query_one(PathTitle).size.width
        assert title.startswith("diff …/") and title.endswith("/core/calc.py") and len(title) <= width
        assert DEEP.endswith(title.removeprefix("diff …"))
        radius = app.screen.query_one("#trust-radius", Static).content.plain  # type: ignore[union-attr]
        assert "…/entry_points/main.py" in radius.splitlines()  # the narrow column cuts it at a `/`, never mid-word
        facts = app.screen.query_one("#trust-facts", Static)
        files = next(line for line in facts.content.plain.splitlines() if line.startswith("files"))  # type: ignore[union-attr]
        assert files.endswith("/core/calc.py") and "…/" in files and len(files) <= facts.size.width


async def test_the_transcript_diff_scrolls_sideways_too(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        app.query_one(Transcript).add_diff("/diff", DIFF)
        await pilot.pause(0.2)
        view = app.query_one(Transcript).query_one(DiffView)
        assert view.virtual_size.height == len(DIFF.splitlines()) and view.virtual_size.width > view.size.width


async def test_a_real_run_of_lists_reads_as_counts_with_a_check_mark(tmp_path: Path) -> None:
    """The loop notes a status for every entry of `results`, "" for a search match or a graph node:
    those are a list, not a batch (a real run used to show `✗ search 7` with no unit)."""
    root = make_project(tmp_path)
    script = write_script(tmp_path / "script.json", [
        {"text": "Looking.", "tool_calls": [{"name": "search", "arguments": {"query": "def add"}},
                                            {"name": "read_code", "arguments": {"paths": ["calc/core.py", "nope.py"]}}]},
        {"text": "Done."},
    ])
    app = workbench(root, script)
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("look")
        await wait_for(pilot, lambda: len(app.query(ToolCallEntry)) == 2 and all(e.finished for e in app.query(ToolCallEntry)))
        search, read = app.query(ToolCallEntry)
        assert search.finished.statuses and set(search.finished.statuses) == {""}  # as the loop reports them
        assert search.title.plain.startswith("✓ search 1 match") and search.has_class("-ok")
        assert read.title.plain.startswith("◐ read_code 1 ok, 1 not_found")


async def test_a_long_path_in_a_trust_question_is_cut_at_its_start_never_mid_word(tmp_path: Path) -> None:
    """At 80x24 the prompt's title and the transcript's trust line wrap at spaces; a path longer than
    the line is cut at its start (`…/deep_module.py`) instead of being broken wherever the edge falls."""
    from konstruct_tui.agent import TrustRequested

    deep = "src/click/" + "very_long_directory_name_for_testing/" * 2 + "deep_module.py"
    preview = TrustPreview("write_code", "edit", f"change {deep}, src/click/utils.py", (deep, "src/click/utils.py"),
                           blast_radius=(), proposed_glob="src/click/**", project="click")
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        post(app, TrustRequested(1, "c1", "write_code", "edit", f"change {deep}, src/click/utils.py", "granted"))
        await wait_for(pilot, lambda: app.query(".note") and app.query(".note").last().content_region.width)
        note = app.query(".note").last()
        line = note.content.plain  # type: ignore[attr-defined]
        assert "change …/" in line and "/deep_module.py, src/click/utils.py → granted" in line and deep not in line
        assert max(len(word) for word in line.split()) <= note.content_region.width
        app.push_screen(TrustPrompt(preview))
        await pilot.pause(0.2)
        title = app.screen.query_one("#trust-title", Static)
        assert "…/" in title.content.plain and "/deep_module.py, src/click/utils.py" in title.content.plain  # type: ignore[union-attr]
        assert max(len(word) for word in title.content.plain.split()) <= title.content_region.width  # type: ignore[union-attr]


async def test_one_enormous_output_line_shows_its_start_and_end_with_a_mark(tmp_path: Path) -> None:
    """`print('x' * 200000)` kept 64 KB of one line, which wrapped to about a thousand rows and made
    every redraw of the transcript crawl: the block keeps the line's start and end and says what it cut."""
    line = "a" + "x" * 60000 + "z"
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        (entry,) = await _expanded(app, pilot, *command_call("a", {**PASSED, "stdout": line + "\n", "stdout_truncated": False}))
        text = _block_text(entry)
        assert "✂ 58,002 characters of this line not shown here (the session file keeps them)" in text
        shown = text.splitlines()[1]
        assert shown.startswith("axxx") and shown.endswith("xxxz") and len(shown) < 2200
        block = entry.query_one(CommandBlock)
        assert block.size.height < 40  # rows on screen, not a thousand
