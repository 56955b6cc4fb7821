"""Blueprint sessions run on the agent's own turn loop: the kill switch reaches a phase's child
processes, and a tool's own crash ends the run instead of being told to the model."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from blueprint_harness import PHASE_FIX, blueprint_text, read, write_scripts

from konstruct_tui.agent import CollectingReporter, KillSwitch
from konstruct_tui.app import ScriptBook
from konstruct_tui.blueprint import Orchestrator, RunOptions, RunStore, new_run_id, parse_blueprint
from konstruct_tui.tools import TOOLS
from konstruct_tui.workspace import Workspace

# A heartbeat, not a pid: a confined command may run in a pid namespace of its own.
SLEEPER = "import time\nfor n in range(1200):\n    open('beat', 'w').write(str(n))\n    time.sleep(0.05)\n"


def _beat(project: Path) -> str:
    try:
        return (project / "beat").read_text()
    except FileNotFoundError:
        return ""


def test_the_kill_switch_reaches_a_phase_command_at_once(project: Path, tmp_path: Path) -> None:
    (project / "sleeper.py").write_text(SLEEPER)
    run = {"text": "Running.", "tool_calls": [{"name": "run_command", "arguments": {"command": "python sleeper.py", "timeout_s": 60}}]}
    scripts = write_scripts(tmp_path / "s", {"executor-p1": [run]})
    blueprint = parse_blueprint(blueprint_text(PHASE_FIX))
    store = RunStore(tmp_path / "runs.sqlite3")
    run_id = new_run_id()
    store.create_run(run_id, blueprint.title, "blueprint.toml", "", str(project), {"provider": "scripted"}, ["p1"])
    switch = KillSwitch()
    options = RunOptions(max_retries=0, turn_deadline_s=20, adjudicator_deadline_s=30, grant_commands=True)

    async def go() -> tuple[str, float]:
        with Workspace(project) as workspace:
            orchestrator = Orchestrator(store, run_id, blueprint, workspace, ScriptBook(scripts, 20), CollectingReporter(), options, switch)
            running = asyncio.ensure_future(orchestrator.run())
            for _ in range(300):
                if _beat(project):
                    break
                await asyncio.sleep(0.05)
            assert _beat(project), "the phase's command never started"
            thrown = time.monotonic()
            switch.kill("killed")
            finished = await running
            took = time.monotonic() - thrown
            last = _beat(project)
            await asyncio.sleep(0.5)  # ten beats, had it lived on
            assert _beat(project) == last, "the phase's command outlived the kill switch"
            return finished.reason, took

    reason, took = asyncio.run(go())
    assert reason == "killed" and took < 5


def test_a_tool_that_crashes_ends_the_run_and_is_not_told_to_the_model(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from blueprint_harness import RecordingBook, run_with

    class Broken(type(TOOLS["read_code"])):  # type: ignore[misc]  # a subclass of whatever read_code is
        def run(self, params, context):  # noqa: ANN001, ANN201
            raise KeyError("boom")

    monkeypatch.setitem(TOOLS, "read_code", Broken())
    scripts = write_scripts(tmp_path / "s", {"executor-p1": [read("calc.py"), read("calc.py")]})
    book = RecordingBook(scripts)
    result = run_with(project, blueprint_text(PHASE_FIX), book, options=RunOptions(max_retries=0, turn_deadline_s=20, adjudicator_deadline_s=30))
    assert result.finished.reason == "error" and "read_code failed with KeyError" in result.finished.message
    assert len(book.seen[("executor", "p1", 1)]) == 1, "the model was asked again after the crash"
