"""The kill switch acts mid-flight: the model stream is closed, child process groups die, and a write
batch is never half-applied (the finish event lists exactly what landed)."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import httpx
import pytest
from agent_harness import DONE, scripted_loop, write_script

from konstruct_tui.agent import (
    AgentLoop,
    CollectingReporter,
    KillSwitch,
    Limits,
    TextDelta,
    ToolStarted,
    headless_gate,
)
from konstruct_tui.providers import OpenAICompatible
from konstruct_tui.trust import TrustStore
from konstruct_tui.workspace import Workspace
from konstruct_tui.workspace import batch as batch_module

SLOW_CHILD = """\
import os, signal, subprocess, sys, time
grandchild = subprocess.Popen([sys.executable, "-c",
    "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"])
# pids as the workbench sees them: a confined command runs in its own PID namespace, where
# os.getpid() and Popen.pid are that namespace's numbers; /proc is the workbench's.
seen = [os.readlink("/proc/self"), *open("/proc/thread-self/children").read().split()]
open("pids.txt", "w").write(" ".join(seen))
time.sleep(60)
"""


class KillOn(CollectingReporter):
    """Throws the switch when the first event of a kind arrives, after `delay` seconds."""

    def __init__(self, switch: KillSwitch, kind: type, delay: float = 0.0) -> None:
        super().__init__()
        self.switch, self.kind, self.delay = switch, kind, delay
        self.killed_at: float | None = None

    def report(self, event) -> None:
        super().report(event)
        if isinstance(event, self.kind) and self.killed_at is None:
            self.killed_at = -1.0
            asyncio.get_running_loop().call_later(self.delay, self._kill)

    def _kill(self) -> None:
        self.killed_at = time.monotonic()
        self.switch.kill()


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ")[1].split()[0] != "Z"  # a zombie is dead, only unreaped
    except FileNotFoundError:
        return False


async def test_kill_mid_stream_closes_the_http_stream_at_once(project: Path) -> None:
    closed = asyncio.Event()

    class Endless(httpx.AsyncByteStream):
        async def __aiter__(self):
            frame = b'data: {"choices": [{"index": 0, "delta": {"content": "tick "}}]}\n\n'
            while True:
                yield frame
                await asyncio.sleep(0.02)

        async def aclose(self) -> None:
            closed.set()

    client = httpx.AsyncClient(transport=httpx.MockTransport(lambda r: httpx.Response(200, stream=Endless())))
    switch = KillSwitch()
    reporter = KillOn(switch, TextDelta, delay=0.1)
    workspace = Workspace(project)
    loop = AgentLoop(workspace, OpenAICompatible(client, model="m", base_url="http://h/v1"), reporter,
                     headless_gate(workspace.root, grant=True, store=TrustStore()), Limits(), None, switch)
    finished = await loop.run("talk")
    stopped = time.monotonic()
    assert finished.reason == "killed" and "cut off" in finished.message
    assert closed.is_set()
    assert stopped - reporter.killed_at < 1.0


async def test_kill_mid_command_kills_the_whole_process_group(project: Path, tmp_path: Path) -> None:
    (project / "slow.py").write_text(SLOW_CHILD)
    run = {"tool_calls": [{"name": "run_command", "arguments": {"command": f"{Path(sys.executable).name} slow.py"}}]}
    switch = KillSwitch()
    reporter = KillOn(switch, ToolStarted, delay=1.0)
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [run, DONE]), switch=switch, reporter=reporter)
    finished = await loop.run("run it")
    ended = time.monotonic()
    pids = [int(p) for p in (project / "pids.txt").read_text().split()]
    assert finished.reason == "killed" and finished.interrupted["tool"] == "run_command"
    assert ended - reporter.killed_at < 1.0
    deadline = time.monotonic() + 0.3
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert not any(alive(p) for p in pids), "a child outlived the kill switch"


async def test_kill_between_batch_entries_lands_nothing_more(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    switch = KillSwitch()
    original = batch_module._apply

    def apply_then_kill(workspace, plan, *keep):
        original(workspace, plan, *keep)
        switch.kill()  # the signal arrives while the first entry is being written

    monkeypatch.setattr(batch_module, "_apply", apply_then_kill)
    edits = [{"path": f"new_{n}.py", "create": True, "content": f"n = {n}\n"} for n in range(3)]
    turn = {"tool_calls": [{"name": "write_code", "arguments": {"edits": edits}}, {"name": "read_code", "arguments": {"paths": ["calc.py"]}}]}
    loop, model, _ = scripted_loop(project, write_script(tmp_path, [turn, DONE]), switch=switch)
    finished = await loop.run("create three")
    assert finished.reason == "killed"
    assert finished.landed == ({"tool": "write_code", "call_id": "script_1_1", "path": "new_0.py", "status": "created"},)
    assert finished.interrupted["landed"] == ["new_0.py"]
    assert finished.interrupted["statuses"] == ["created", "rejected", "rejected"]
    assert sorted(p.name for p in project.glob("new_*.py")) == ["new_0.py"]
    assert len(model.transcripts) == 1  # no next turn, and the read after the batch never ran


def test_first_reason_wins_and_late_hooks_run_at_once() -> None:
    switch = KillSwitch()
    ran: list[str] = []
    switch.on_kill(lambda: ran.append("early"))
    switch.kill("timeout")
    switch.kill("killed")
    switch.on_kill(lambda: ran.append("late"))
    assert switch.reason == "timeout" and switch() and ran == ["early", "late"]


def test_a_failing_hook_does_not_spare_the_others() -> None:
    switch = KillSwitch()
    ran: list[str] = []
    switch.on_kill(lambda: 1 / 0)
    switch.on_kill(lambda: ran.append("second"))
    switch.kill()
    assert ran == ["second"]
