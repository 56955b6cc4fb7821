"""Blueprint sessions run on the agent's own turn loop: the kill switch reaches a phase's child
processes, and a tool's own crash ends the run instead of being told to the model."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest
from blueprint_harness import PHASE_FIX, blueprint_text, read, write_scripts

from konstruct_tui.agent import CollectingReporter, KillSwitch
from konstruct_tui.app import ScriptBook
from konstruct_tui.blueprint import Orchestrator, RunOptions, RunStore, new_run_id, parse_blueprint
from konstruct_tui.tools import TOOLS
from konstruct_tui.workspace import Workspace

SLEEPER = "import os, time\nopen('sleeper.pid', 'w').write(str(os.getpid()))\ntime.sleep(60)\n"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


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
            pid_file = project / "sleeper.pid"
            for _ in range(300):
                if pid_file.exists() and pid_file.read_text():
                    break
                await asyncio.sleep(0.05)
            pid = int(pid_file.read_text())
            thrown = time.monotonic()
            switch.kill("killed")
            finished = await running
            while _alive(pid) and time.monotonic() - thrown < 5:
                await asyncio.sleep(0.02)
            assert not _alive(pid), "the phase's command outlived the kill switch"
            return finished.reason, time.monotonic() - thrown

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
