"""The loop's own turn backstop (a blueprint session's) counts from the last streamed piece too: a
model that reasons aloud past it goes on; one that goes silent that long is stopped."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from konstruct_tui.agent import AgentLoop, CollectingReporter, KillSwitch, Limits, headless_gate
from konstruct_tui.agent import loop as agent_loop
from konstruct_tui.agent.ports import ReasoningChunk, TextChunk, TurnEnd, UsageChunk, Usage
from konstruct_tui.trust import TrustStore
from konstruct_tui.workspace import Workspace


class Thinker:
    provider = "fake"
    model = "thinker"

    def __init__(self, gaps: list[float]) -> None:
        self.gaps = gaps

    async def stream_turn(self, system, transcript, tools):  # type: ignore[no-untyped-def]
        for number, gap in enumerate(self.gaps):
            await asyncio.sleep(gap)
            yield ReasoningChunk(f"step {number}. ")
        yield TextChunk("done")
        yield UsageChunk(Usage(10, 10))
        yield TurnEnd("stop")

    async def aclose(self) -> None:
        pass


def _loop(project: Path, gaps: list[float]) -> AgentLoop:
    workspace = Workspace(project)
    return AgentLoop(workspace, Thinker(gaps), CollectingReporter(), headless_gate(workspace.root, grant=True, store=TrustStore()),
                     Limits(), None, KillSwitch(), turn_deadline_s=0.3)


async def test_a_long_reasoning_stream_outlasts_the_backstop(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agent_loop, "DEADLINE_BACKSTOP_S", 0.0)
    stop = await _loop(project, [0.1] * 8).advance([], "think hard")  # 0.8 s in all, never 0.3 s silent
    assert stop.reason == "done" and stop.text == "done"


async def test_a_silent_turn_is_still_stopped(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agent_loop, "DEADLINE_BACKSTOP_S", 0.0)
    stop = await _loop(project, [0.05, 1.0]).advance([], "think hard")
    assert stop.reason == "deadline"
