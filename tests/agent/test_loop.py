"""The turn loop on a real checkout: tools run for real, in order, with trust, budgets and the
session's context in front of the model."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from agent_harness import CALC, DONE, FIX_CALC, READ_CALC, scripted_loop, write_script

from konstruct_tui.agent import (
    BudgetUpdate,
    Finished,
    Limits,
    SessionStarted,
    ToolFinished,
    TrustRequested,
    TurnStarted,
)
from konstruct_tui.agent import loop as loop_module
from konstruct_tui.agent.ports import ToolResultMessage
from konstruct_tui.providers import Price
from konstruct_tui.tools import TOOLS


async def test_read_edit_with_revision_then_done(project: Path, tmp_path: Path) -> None:
    loop, model, events = scripted_loop(project, write_script(tmp_path, [READ_CALC, FIX_CALC, DONE]))
    finished = await loop.run("add subtracts; fix it")
    assert (project / "calc.py").read_text() == CALC.replace("a - b", "a + b")
    assert finished.reason == "done" and finished.turns == 3
    assert finished.landed == ({"tool": "write_code", "call_id": "script_2_1", "path": "calc.py", "status": "written"},)
    assert isinstance(events.events[0], SessionStarted) and isinstance(events.events[-1], Finished)
    assert [e.turn for e in events.of(TurnStarted)] == [1, 2, 3]
    assert [(e.tool, e.statuses) for e in events.of(ToolFinished)] == [("read_code", ("ok",)), ("write_code", ("written",))]
    assert [(e.capability, e.decision) for e in events.of(TrustRequested)] == [("edit", "granted")]
    assert "revision" in model.system and "write_code" in model.system  # the system prompt teaches revisions and lists tools


async def test_without_a_grant_the_edit_is_denied_and_the_model_is_told(project: Path, tmp_path: Path) -> None:
    loop, model, events = scripted_loop(project, write_script(tmp_path, [READ_CALC, FIX_CALC, DONE]), grant=False)
    finished = await loop.run("fix add")
    assert (project / "calc.py").read_text() == CALC
    assert finished.reason == "done" and finished.landed == ()
    denied = events.of(ToolFinished)[1]
    assert not denied.ok and denied.result["status"] == "denied" and "edit" in denied.error
    told = model.transcripts[2][-1]
    assert isinstance(told, ToolResultMessage) and told.is_error and "denied" in told.content


async def test_a_malformed_argument_string_is_a_tool_error_the_model_sees(project: Path, tmp_path: Path) -> None:
    broken = {"tool_calls": [{"name": "write_code", "raw_arguments": '{"edits": [{"path": "calc.py", '}]}
    loop, model, events = scripted_loop(project, write_script(tmp_path, [broken, DONE]))
    finished = await loop.run("fix add")
    assert finished.reason == "done"
    (result,) = events.of(ToolFinished)
    assert not result.ok and "not valid JSON" in result.error
    seen = model.transcripts[1][-1]
    assert isinstance(seen, ToolResultMessage) and seen.is_error and "not valid JSON" in seen.content


async def test_tool_calls_of_one_turn_run_in_order(project: Path, tmp_path: Path) -> None:
    turn = {"tool_calls": [
        {"name": "write_code", "arguments": {"edits": [{"path": "new.py", "create": True, "content": "x = 1\n"}]}},
        {"name": "read_code", "arguments": {"paths": ["new.py"]}},
    ]}
    loop, _, events = scripted_loop(project, write_script(tmp_path, [turn, DONE]))
    await loop.run("make new.py")
    read = events.of(ToolFinished)[1]
    assert read.result["results"][0]["content"] == "x = 1\n"  # the read saw the create that came before it


async def test_max_turns_stops_a_model_that_keeps_going(project: Path, tmp_path: Path) -> None:
    loop, _, events = scripted_loop(project, write_script(tmp_path, [READ_CALC] * 5), limits=Limits(max_turns=2))
    finished = await loop.run("read forever")
    assert finished.reason == "max_turns" and finished.turns == 2
    assert len(events.of(TurnStarted)) == 2


async def test_token_budget_ends_the_run_after_the_turn_that_crossed_it(project: Path, tmp_path: Path) -> None:
    turn = {**READ_CALC, "usage": {"input_tokens": 500, "output_tokens": 100}}
    loop, _, events = scripted_loop(project, write_script(tmp_path, [turn] * 5), limits=Limits(max_tokens=1000))
    finished = await loop.run("read")
    assert finished.reason == "max_tokens" and finished.turns == 2
    last = events.of(BudgetUpdate)[-1]
    assert (last.input_tokens, last.output_tokens, last.tokens_estimated) == (1000, 200, False)


async def test_cost_budget_uses_the_price_table(project: Path, tmp_path: Path) -> None:
    turn = {**READ_CALC, "usage": {"input_tokens": 100_000, "output_tokens": 10_000}}
    loop, _, events = scripted_loop(project, write_script(tmp_path, [turn] * 5), limits=Limits(max_cost_usd=0.5), price=Price(2.0, 10.0))
    finished = await loop.run("read")
    assert finished.reason == "max_cost"
    assert [e.cost_usd for e in events.of(BudgetUpdate)] == [0.3, 0.6]


async def test_an_unknown_price_is_said_not_guessed(project: Path, tmp_path: Path) -> None:
    loop, _, events = scripted_loop(project, write_script(tmp_path, [READ_CALC, DONE]), limits=Limits(max_cost_usd=1.0), price=None)
    finished = await loop.run("read")
    assert finished.reason == "done"
    budget = events.of(BudgetUpdate)[-1]
    assert budget.cost_usd is None and "no price known" in budget.cost_note and "cannot be enforced" in budget.cost_note


async def test_wall_clock_timeout_cuts_a_hung_turn(project: Path, tmp_path: Path) -> None:
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [{"text": "thinking", "hang": True}]), limits=Limits(timeout_s=0.3))
    started = time.monotonic()
    finished = await loop.run("think")
    assert finished.reason == "timeout"
    assert time.monotonic() - started < 1.5


async def test_agents_md_and_neighborhoods_come_before_the_request(project: Path, tmp_path: Path) -> None:
    (project / "AGENTS.md").write_text("Run pytest before you finish.\n")
    hood = {"name": "calc", "size": 2, "members": ["calc.py", "test_calc.py"], "bridges": ["calc.py"]}
    loop, model, events = scripted_loop(project, write_script(tmp_path, [DONE]), rank_neighborhoods=lambda ws, request: [hood])
    await loop.run("fix add in calc")
    first = model.transcripts[0][0].text
    assert first.index("Run pytest before you finish.") < first.index("calc (2 files): calc.py, test_calc.py") < first.index("fix add in calc")
    started = events.of(SessionStarted)[0]
    assert started.agents_md and started.neighborhoods == (hood,)


async def test_without_agents_md_or_graph_nothing_is_said_about_them(project: Path, tmp_path: Path) -> None:
    loop, model, events = scripted_loop(project, write_script(tmp_path, [DONE]))
    await loop.run("fix add")
    first = model.transcripts[0][0].text
    assert "AGENTS.md" not in first and "neighborhood" not in first.lower()
    assert not events.of(SessionStarted)[0].agents_md


async def test_a_slow_or_failing_graph_never_holds_the_run(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loop_module, "NEIGHBORHOOD_WAIT_S", 0.1)

    slow_s = 5.0

    def slow(ws, request):
        time.sleep(slow_s)
        return [{"name": "late"}]

    def broken(ws, request):
        raise RuntimeError("index corrupt")

    for ranker in (slow, broken):
        loop, model, _ = scripted_loop(project, write_script(tmp_path, [DONE]), rank_neighborhoods=ranker)
        started = time.monotonic()
        assert (await loop.run("fix add")).reason == "done"
        assert time.monotonic() - started < slow_s / 2  # against the slow ranker's own time: it did not wait for it
        assert "neighborhood" not in model.transcripts[0][0].text.lower()


async def test_the_run_wide_65_percent_guard_spans_turns(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    lines = [f"line {n}\n" for n in range(10)]
    (root / "ten.py").write_text("".join(lines))

    def edit(old: str, new: str) -> dict:
        return {"tool_calls": [{"name": "write_code", "arguments": {"edits": [
            {"path": "ten.py", "revision": "$revision:ten.py", "replacements": [{"old": old, "new": new}]}]}}]}

    read = {"tool_calls": [{"name": "read_code", "arguments": {"paths": ["ten.py"]}}]}
    first = edit("".join(lines[0:4]), "".join(l.upper() for l in lines[0:4]))  # 40% of the file
    second = edit("".join(lines[4:7]), "".join(l.upper() for l in lines[4:7]))  # 30% more: 70% in this run
    loop, _, events = scripted_loop(root, write_script(tmp_path, [read, first, second, DONE]))
    await loop.run("shout")
    statuses = [e.statuses for e in events.of(ToolFinished)]
    assert statuses[1] == ("written",) and statuses[2] == ("rejected",)
    assert "65%" in events.of(ToolFinished)[2].result["results"][0]["reason"]


async def test_a_tool_that_crashes_ends_the_run_with_an_error(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        name = "read_code"
        description = "broken"
        mutating = False
        Input = TOOLS["read_code"].Input

        def run(self, params, context):
            raise KeyError("bug")

        @classmethod
        def schema(cls):
            return {}

    monkeypatch.setitem(TOOLS, "read_code", Broken())
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [READ_CALC, DONE]))
    finished = await loop.run("read")
    assert finished.reason == "error" and "read_code failed with KeyError" in finished.message


async def test_a_provider_failure_finishes_with_error(project: Path, tmp_path: Path) -> None:
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [READ_CALC]))
    finished = await loop.run("read")
    assert finished.reason == "error" and "has 1 turns and the run asked for turn 2" in finished.message
    assert json.dumps(finished.landed) == "[]"


async def test_a_gate_without_grants_is_asked_before_a_command_runs(project: Path, tmp_path: Path) -> None:
    """A gate that only answers `ask` (no grants for the tool to check) still stands before run_command."""
    class AskOnly:
        def __init__(self) -> None:
            self.questions = []

        async def ask(self, question) -> bool:
            self.questions.append(question)
            return False

    run = {"tool_calls": [{"name": "run_command", "arguments": {"command": "touch made.txt"}}]}
    loop, _, events = scripted_loop(project, write_script(tmp_path, [run, DONE]))
    loop.gate = gate = AskOnly()
    await loop.run("touch")
    assert [(q.tool, q.capability) for q in gate.questions] == [("run_command", "commands")]
    assert not (project / "made.txt").exists()
    assert events.of(ToolFinished)[0].result["status"] == "denied"


@pytest.mark.parametrize("grant", [True, False])
async def test_commands_need_the_grant_the_policy_names(project: Path, tmp_path: Path, grant: bool) -> None:
    run = {"tool_calls": [{"name": "run_command", "arguments": {"command": "touch made.txt"}}]}
    loop, _, events = scripted_loop(project, write_script(tmp_path, [run, DONE]), grant=grant)
    await loop.run("touch")
    (trust,) = events.of(TrustRequested)
    assert (trust.capability, trust.detail, trust.decision) == ("commands", "touch made.txt", "granted" if grant else "denied")
    assert (project / "made.txt").exists() == grant
    assert events.of(ToolFinished)[0].result["status"] == ("ok" if grant else "denied")


async def test_unknown_tools_and_invalid_input_are_tool_errors_the_model_sees(project: Path, tmp_path: Path) -> None:
    turn = {"tool_calls": [{"name": "format_disk", "arguments": {}}, {"name": "read_code", "arguments": {"paths": []}}]}
    loop, model, events = scripted_loop(project, write_script(tmp_path, [turn, DONE]))
    finished = await loop.run("go")
    assert finished.reason == "done"
    unknown, invalid = events.of(ToolFinished)
    assert not unknown.ok and "unknown tool 'format_disk'" in unknown.error
    assert not invalid.ok and "invalid input for read_code" in invalid.error
    assert [m.is_error for m in model.transcripts[1][-2:]] == [True, True]
