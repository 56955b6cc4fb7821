"""Each pane driven by events, as the loop would post them."""

from __future__ import annotations

from pathlib import Path

from rich.syntax import Syntax
from textual.widgets import Collapsible, Static
from textual.widgets._markdown import MarkdownParagraph
from ui_harness import (
    graph_loaded,
    make_project,
    post,
    session_events,
    wait_for,
    workbench,
)

from konstruct_tui.agent import (
    BudgetUpdate,
    Finished,
    SessionStarted,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TurnStarted,
)
from konstruct_tui.blueprint import (
    PhaseClosed,
    PhaseStarted,
    RunStarted,
    VerdictReached,
    WatchdogAlarm,
)
from konstruct_tui.ui.panes.batches import BatchTable
from konstruct_tui.ui.panes.budgets import BudgetsPane
from konstruct_tui.ui.panes.gate import GatePane
from konstruct_tui.ui.panes.neighborhoods import NeighborhoodsPane
from konstruct_tui.ui.panes.transcript import AssistantText, ToolCallEntry


def _text(widget: Static) -> str:
    content = widget.content
    return getattr(content, "plain", str(content))


async def test_transcript_streams_text_and_collapses_tool_calls(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, TurnStarted(1), *[TextDelta(1, f"word{i} ") for i in range(50)])
        await wait_for(pilot, lambda: app.query(AssistantText) and app.query_one(AssistantText).shown.count("word") == 50)
        reply = app.query_one(AssistantText)
        assert reply.shown.startswith("word0 word1") and "word49" in reply.shown

        post(app, ToolStarted(1, "c1", "read_code", {"paths": ["calc/core.py", "web/sum.ts"]}))
        await wait_for(pilot, lambda: app.query(ToolCallEntry))
        entry = app.query_one(ToolCallEntry)
        assert entry.collapsed and entry.has_class("-running")
        assert "running" in entry.title.plain and "calc/core.py, web/sum.ts" in entry.title.plain

        post(app, ToolFinished(1, "c1", "read_code", True, {"results": [{"path": "calc/core.py", "status": "ok"}, {"path": "web/sum.ts", "status": "not_found", "reason": "gone"}]}, ("ok", "not_found")))
        await wait_for(pilot, lambda: entry.finished is not None)
        # One of two entries read: partly done, so ◐ (never a green ✓), and the count says what it counts.
        assert entry.title.plain.startswith("◐ read_code 1 ok, 1 not_found") and entry.has_class("-partial")
        # Collapsed: one line; the body is built only when expanded.
        assert not entry.query(Collapsible.Contents).first().children
        entry.collapsed = False
        await pilot.pause(0.2)
        shown = " ".join(_text(s) for s in entry.query(Static) if not isinstance(s.content, Syntax))
        assert "arguments" in shown and "result" in shown


async def test_transcript_says_how_each_command_was_confined(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        confined = {"status": "ok", "exit_code": 0, "sandbox": {"mode": "workspace-write", "abi": 7, "network": "blocked"}}
        bare = {"status": "ok", "exit_code": 0, "sandbox": {"mode": "unsandboxed", "abi": 0, "network": "unrestricted"}}
        post(app, ToolStarted(1, "r1", "run_command", {"script": "test"}), ToolFinished(1, "r1", "run_command", True, confined),
             ToolStarted(1, "r2", "run_command", {"script": "test"}), ToolFinished(1, "r2", "run_command", True, bare))
        await wait_for(pilot, lambda: len(app.query(ToolCallEntry)) == 2 and all(e.finished for e in app.query(ToolCallEntry)))
        first, second = (entry.title.plain for entry in app.query(ToolCallEntry))
        assert "ok · workspace-write · Landlock 7 · network blocked" in first
        assert "ok · unsandboxed" in second


async def test_transcript_shows_write_diffs_highlighted(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    diff = "--- a/calc/core.py\n+++ b/calc/core.py\n@@ -1,2 +1,2 @@\n-    return a - b\n+    return a + b\n"
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, ToolStarted(1, "w1", "write_code", {"edits": [{"path": "calc/core.py"}]}),
             ToolFinished(1, "w1", "write_code", True, {"results": [{"path": "calc/core.py", "status": "written", "diff": diff}]}, ("written",)))
        await wait_for(pilot, lambda: app.query(ToolCallEntry) and app.query_one(ToolCallEntry).finished is not None)
        await pilot.press("ctrl+g")  # expand every call
        await pilot.pause(0.2)
        syntaxes = [s.content for s in app.query_one(ToolCallEntry).query(Static) if isinstance(s.content, Syntax)]
        lexers = [getattr(s.lexer, "name", s.lexer).lower() for s in syntaxes]
        assert "diff" in lexers
        assert any(s.code == diff.removesuffix("\n") for s in syntaxes)  # every line, no empty row drawn after


async def test_failed_tool_call_is_marked_failed_with_its_error(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, ToolStarted(1, "x", "write_code", {"edits": []}),
             ToolFinished(1, "x", "write_code", False, {"error": "denied: no edit grant", "status": "denied"}, error="denied: no edit grant"))
        await wait_for(pilot, lambda: app.query(ToolCallEntry) and app.query_one(ToolCallEntry).finished is not None)
        entry = app.query_one(ToolCallEntry)
        assert entry.has_class("-failed") and "denied: no edit grant" in entry.title.plain


async def test_batches_table_has_a_row_per_entry_colored_by_status(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, *session_events())
        table = app.query_one(BatchTable)
        await wait_for(pilot, lambda: table.row_count == 6)
        statuses = [row.status for row in table.rows_shown]
        assert statuses == ["ok", "ok", "not_found", "rolled_back", "conflict", "written"]
        assert table.rows_shown[4].reason == "'web/sum.ts' changed since your read"
        conflict_cell = table.get_row_at(4)[3]
        expected = app.theme_variables["status-conflict"].lower()
        assert conflict_cell.style.color.triplet.hex == expected
        # A theme change re-colors the rows already shown.
        app.theme = "konstruct-light"
        await pilot.pause(0.2)
        recolored = table.get_row_at(4)[3]
        assert recolored.style.color.triplet.hex == app.theme_variables["status-conflict"].lower() != expected


async def test_neighborhoods_show_members_and_what_the_session_touched(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await graph_loaded(app, pilot)
        post(app, *session_events())
        pane = app.query_one(NeighborhoodsPane)
        await wait_for(pilot, lambda: pane.hoods and pane.hoods[0].touched.get("calc/core.py") == "written")
        assert [h.name for h in pane.hoods][:2] == ["calc (core)", "web (sum)"]
        assert pane.hoods[1].touched == {"web/sum.ts": "read"}
        text = _text(pane.query_one("#hood-lines", Static))
        assert "calc (core)" in text and "touched 1" in text and "✎ calc/core.py" in text
        assert pane.graph_status.startswith("graph: ready")


async def test_gate_is_empty_without_a_run_then_shows_phase_verdict_and_defects(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        body = app.query_one(GatePane).query_one("#gate-body", Static)
        assert "No blueprint run" in _text(body)
        post(app, RunStarted("r", "scripted", "m", run_id="r", title="Fix the calculator", phases=("p1",)),
             PhaseStarted("r", "p1", "Fix add", 1, "s1", True, ({"id": "t1"}, {"id": "t2"})))
        await wait_for(pilot, lambda: "gate pending" in _text(body))
        assert "run Fix the calculator" in _text(body)
        post(app, VerdictReached("r", "p1", 1, "executable", "incomplete", "retry", ("t2",), vetoes=("pytest failed in calc/core.py",)))
        await wait_for(pilot, lambda: "incomplete" in _text(body))
        assert "outstanding: t2" in _text(body) and "veto: pytest failed" in _text(body) and "by executable → retry" in _text(body)
        post(app, PhaseStarted("r", "p1", "Fix add", 2, "s2", False),
             VerdictReached("r", "p1", 2, "adjudicator", "complete_with_defects", "close", defects=("slow path",)),
             PhaseClosed("r", "p1", "complete_with_defects", 2, "closed", ("slow path",)),
             WatchdogAlarm("r", "silent", "p1", "s2", 301.0, "nudged"))
        await wait_for(pilot, lambda: "complete_with_defects" in _text(body))
        text = _text(body)
        assert "attempt 2" in text and text.count("defect: slow path") == 1 and "closed" in text
        assert "watchdog: silent" in text


async def test_budgets_show_use_against_limits_and_the_kill_control_follows_the_run(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(BudgetsPane)
        kill = pane.query_one("#kill")
        assert kill.disabled and "Kill" in str(kill.label)
        post(app, SessionStarted("s", "scripted", "m"), TurnStarted(3), BudgetUpdate(3, 20, 10_000, 500, 50_000, True, 0.25, 2.0, None, 75.0, 600.0))
        await wait_for(pilot, lambda: pane.budget is not None)
        lines = _text(pane.query_one("#budget-lines", Static))
        assert "3 / 20" in lines and "10,500 / 50,000" in lines and "(est.)" in lines
        assert "$0.2500 / $2.00" in lines and "/ 10:00" in lines
        assert not kill.disabled and "running" in _text(pane.query_one("#run-state", Static))
        post(app, Finished("max_tokens", "s", 3))
        await wait_for(pilot, lambda: pane.state == "max_tokens")
        assert kill.disabled and "max_tokens" in _text(pane.query_one("#run-state", Static))


async def test_budgets_say_how_much_of_the_input_came_from_the_prompt_cache(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, BudgetUpdate(2, 20, 12_000, 300, None, False, 0.01, None, None, 5.0, None, cache_read_tokens=9_000))
        pane = app.query_one(BudgetsPane)
        await wait_for(pilot, lambda: pane.budget is not None)
        assert "12,300" in _text(pane.query_one("#budget-lines", Static)) and "9,000 cached" in _text(pane.query_one("#budget-lines", Static))


async def test_unknown_model_price_says_cost_is_not_counted(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, BudgetUpdate(1, None, 10, 5, None, False, None, None, "no price", 1.0, None))
        pane = app.query_one(BudgetsPane)
        await wait_for(pilot, lambda: pane.budget is not None)
        assert "not counted" in _text(pane.query_one("#budget-lines", Static))


async def test_a_long_reply_keeps_its_finished_blocks_and_shows_all_of_it(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    paragraphs = [f"paragraph {i} " + "x" * 60 + "\n\n" for i in range(80)]
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, TurnStarted(1), *[TextDelta(1, p) for p in paragraphs[:40]])
        await wait_for(pilot, lambda: app.query(AssistantText) and app.query_one(AssistantText).shown == "".join(paragraphs[:40]))
        reply = app.query_one(AssistantText)
        first_blocks = list(reply.query(MarkdownParagraph))[:39]
        post(app, *[TextDelta(1, p) for p in paragraphs[40:]])
        await wait_for(pilot, lambda: reply.shown == "".join(paragraphs))
        blocks = list(reply.query(MarkdownParagraph))
        assert len(blocks) == 80
        assert blocks[:39] == first_blocks  # appending re-parsed the tail only: earlier blocks were kept, not rebuilt
        assert "paragraph 79" in str(blocks[-1]._content)

async def test_the_first_neighborhoods_files_start_with_the_projects_own_sources(tmp_path: Path) -> None:
    """On click the first neighborhood is `src/click`, and its first file shown was an example that
    imports it: the project's own files come first, examples and tests after them."""
    root = tmp_path / "project"
    (root / "src" / "core").mkdir(parents=True)
    (root / "examples").mkdir()
    (root / "src" / "__init__.py").write_text("")
    (root / "src" / "core" / "__init__.py").write_text("")
    (root / "src" / "core" / "engine.py").write_text("def run():\n    pass\n")
    (root / "src" / "core" / "parts.py").write_text("from src.core.engine import run\n\n\ndef part():\n    run()\n")
    (root / "examples" / "aa_demo.py").write_text(
        "from src.core.engine import run\nfrom src.core.parts import part\n\n\ndef demo():\n    run()\n    part()\n")
    app = workbench(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await graph_loaded(app, pilot)
        pane = app.query_one(NeighborhoodsPane)
        await wait_for(pilot, lambda: pane.hoods)
        first = pane.hoods[0]
        assert "examples/aa_demo.py" in first.members, first.members  # the example belongs with the code it uses
        assert first.members[-1] == "examples/aa_demo.py" and first.members[0].startswith("src/")
        shown = _text(pane.query_one("#hood-lines", Static)).splitlines()
        assert shown[1].lstrip(" ·").startswith("src/"), shown
