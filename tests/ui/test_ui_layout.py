"""Narrow terminals, the trust prompt's full diffs, ctrl+r, Markdown replies, counters, the demo's
follow-ups: what a person sees at 80x24 and 120x40."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Markdown, Static
from textual.widgets._markdown import MarkdownFence
from ui_harness import make_project, post, session_events, wait_for, workbench, write_script

from konstruct_tui.agent import Limits
from konstruct_tui.agent import TextDelta, TurnStarted
from konstruct_tui.providers import resolve
from konstruct_tui.ui.app import Workbench
from konstruct_tui.ui.panes.budgets import BudgetsPane
from konstruct_tui.ui.panes.request_input import RequestInput
from konstruct_tui.ui.panes.transcript import AssistantText, Transcript
from konstruct_tui.ui.screens.history_search import HistorySearch, matching
from konstruct_tui.app import WorkbenchSetup
from konstruct_tui.app import TrustPreview
from konstruct_tui.ui.diff_view import DiffView
from konstruct_tui.ui.trust_prompt import TrustPrompt


def _text_of(app: Any) -> str:
    return "\n".join(getattr(w.content, "plain", str(w.content)) for w in app.query_one(Transcript).query("Static"))


async def test_at_80x24_the_transcript_keeps_the_row_and_ctrl_b_cycles_the_panes(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        transcript, side, batches = app.query_one("#transcript"), app.query_one("#side"), app.query_one("#batches")
        assert transcript.size.width >= 50 and transcript.region.width >= 78
        assert not side.display or side.region.width == 0
        assert "Panes" in "".join(str(w.render()) for w in app.query("FooterKey"))  # the footer names the key
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert side.region.width >= 78 and transcript.region.width == 0
        assert app.query_one("#budgets").region.height >= 5 and app.query_one("#gate").region.height >= 3
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert batches.region.width >= 78 and batches.region.height >= 10 and side.region.width == 0
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert transcript.region.width >= 78


async def test_at_120x40_everything_is_on_screen_side_by_side(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.query_one("#transcript").region.width >= 50
        assert app.query_one("#side").region.width == 48 and app.query_one("#batches").region.height >= 5
        assert "Panes" not in "".join(str(w.render()) for w in app.query("FooterKey"))  # nothing to toggle here
    narrow = workbench(make_project(tmp_path, "p2"))
    async with narrow.run_test(size=(120, 40)) as pilot:
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert narrow.query_one("#transcript").region.width >= 78
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert narrow.query_one("#side").region.width == 48


def _two_file_preview() -> TrustPreview:
    def diff(path: str, n: int) -> str:
        body = "".join(f"-old line {i}\n+new line {i}\n" for i in range(n))
        return f"--- a/{path}\n+++ b/{path}\n@@ -1,{n} +1,{n} @@\n{body}"

    return TrustPreview("write_code", "edit", "change shop/pricing.py, web/src/pricing.ts",
                        ("shop/pricing.py", "web/src/pricing.ts"),
                        diffs=(("shop/pricing.py", diff("shop/pricing.py", 15)), ("web/src/pricing.ts", diff("web/src/pricing.ts", 15) + "+THE LAST LINE\n")),
                        blast_radius=("shop/cart.py", "web/src/cart.ts"))


async def test_the_trust_prompt_shows_every_diff_whole_and_scrolls_by_keyboard(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        answers: list[object] = []
        app.push_screen(TrustPrompt(_two_file_preview()), answers.append)
        await pilot.pause()
        prompt = app.screen
        details = prompt.query_one("#trust-details")
        bodies = [view.diff for view in prompt.query(DiffView)]
        assert len(bodies) == 2 and bodies[1].endswith("+THE LAST LINE\n")
        assert details.max_scroll_y > 0  # more than fits: it must scroll
        radius = prompt.query_one("#trust-radius", Static)
        assert "shop/cart.py" in str(radius.content) and radius.region.width > 0  # beside the diffs
        assert prompt.query_one("#allow-once").region.height > 0  # the answers stay on screen
        await pilot.press("end")
        assert details.scroll_y == details.max_scroll_y
        await pilot.press("home")
        assert details.scroll_y == 0
        await pilot.press("pagedown")
        assert details.scroll_y > 0
        await pilot.press("down")
        await pilot.press("up", "up")
        await pilot.press("pageup")
        assert details.scroll_y == 0
        assert answers == []  # scrolling never answers
        await pilot.press("o")
        assert answers and answers[0].granted  # type: ignore[attr-defined]


def test_history_search_matches_every_word_newest_first_once() -> None:
    history = ["fix the discount", "run tests", "Fix discount rounding in cart", "fix the discount"]
    assert matching(history, "discount fix") == ["fix the discount", "Fix discount rounding in cart"]
    assert matching(history, "nothing") == []


async def test_ctrl_r_finds_an_earlier_request_and_puts_it_back(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        request = app.query_one(RequestInput)
        request.remember(["fix the discount rounding", "run the tests", "explain the cart"])
        request.focus()
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, HistorySearch))
        await pilot.pause()
        await pilot.press(*"disc")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, HistorySearch))
        assert request.value == "fix the discount rounding" and not app.runs.running


async def test_a_streamed_reply_renders_as_markdown_with_highlighted_code(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    reply = "Here is the fix:\n\n```python\ndef add(a, b):\n    return a + b\n```\n\nIt **adds** now; `[red]` stays text.\n"
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, TurnStarted(1), *[TextDelta(1, reply[i : i + 7]) for i in range(0, len(reply), 7)])
        await wait_for(pilot, lambda: app.query(AssistantText) and app.query_one(AssistantText).shown == reply)
        await pilot.pause()
        text = app.query_one(AssistantText)
        assert len(text.query(MarkdownFence)) == 1 and "return a + b" in text.query_one(MarkdownFence).code
        assert text.query_one(Markdown).source == reply  # appended piece by piece, the same document
        assert "[red]" in text.query_one(Markdown).source


async def test_counters_show_used_over_limit_before_and_after_a_run(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        lines = app.query_one(BudgetsPane).query_one("#budget-lines", Static)
        shown = str(lines.content)
        assert "turns   0 / 10" in shown and "tokens  0 / no limit" in shown and "/ no limit" in shown.split("time", 1)[1]
        post(app, *session_events())
        await wait_for(pilot, lambda: app.query_one(BudgetsPane).state == "done")
        assert "turns   3 / 10" in str(lines.content)


async def test_the_demo_answers_a_follow_up_honestly_instead_of_replaying(tmp_path: Path) -> None:
    from konstruct_tui.app.demo import FOLLOW_UP

    first = write_script(tmp_path / "first.json", [{"text": "First answer."}, {"text": "must never be replayed", "hang": True}])
    setup = WorkbenchSetup(make_project(tmp_path), resolve(provider="scripted", script=str(first), config={}), None, Limits(max_turns=20),
                           demo=True, follow_up_settings=resolve(provider="scripted", script=str(FOLLOW_UP), config={}))
    app = Workbench(setup)
    async with app.run_test(size=(80, 24)) as pilot:
        app.submit("do the demo thing")
        # The pane says "done" when the loop's last event arrives; the run's worker ends just after
        # (a request typed in between is queued behind it): wait for both, to type into an idle app.
        await wait_for(pilot, lambda: app.query_one(BudgetsPane).state == "done" and not app.runs.running)
        first_session = app.runs.session_id
        app.submit("and now something else")
        await wait_for(pilot, lambda: "/model" in _text_of(app).split("and now something else", 1)[-1] and not app.runs.running)
        assert "must never be replayed" not in _text_of(app)
        assert "scripted demo" in _text_of(app) and app.runs.session_id != first_session
        assert "turns   1 / 20" in str(app.query_one(BudgetsPane).query_one("#budget-lines", Static).content)


async def test_a_resize_under_a_modal_still_reflows_the_main_screen(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(TrustPrompt(_two_file_preview()))
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        assert app.query_one("#transcript").region.width >= 78


async def test_ctrl_r_inside_the_search_moves_the_match_and_opens_nothing_more(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        request = app.query_one(RequestInput)
        request.remember(["fix the discount", "fix the tax"])
        request.focus()
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, HistorySearch))
        await pilot.press(*"fix", "ctrl+r", "enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, HistorySearch))
        assert len(app.screen_stack) == 1 and request.value == "fix the discount"  # newest first, then one older
