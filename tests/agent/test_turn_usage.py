"""Tokens count what streamed, also in a turn the person killed mid-stream."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from konstruct_tui.agent import (
    AgentLoop,
    BudgetUpdate,
    CollectingReporter,
    KillSwitch,
    Limits,
    TextDelta,
    headless_gate,
)
from konstruct_tui.providers import OpenAICompatible
from konstruct_tui.trust import TrustStore
from konstruct_tui.workspace import Workspace


class KillAfter(CollectingReporter):
    def __init__(self, switch: KillSwitch, deltas: int) -> None:
        super().__init__()
        self.switch, self.left = switch, deltas

    def report(self, event) -> None:
        super().report(event)
        if isinstance(event, TextDelta):
            self.left -= 1
            if self.left == 0:
                self.switch.kill("killed")


async def test_a_turn_killed_mid_stream_counts_its_streamed_tokens(project: Path) -> None:
    class Endless(httpx.AsyncByteStream):
        async def __aiter__(self):
            while True:
                yield b'data: {"choices": [{"index": 0, "delta": {"content": "tick tock "}}]}\n\n'
                await asyncio.sleep(0.01)

    client = httpx.AsyncClient(transport=httpx.MockTransport(lambda r: httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Endless())))
    switch = KillSwitch()
    reporter = KillAfter(switch, 8)
    with Workspace(project) as workspace:
        loop = AgentLoop(workspace, OpenAICompatible(client, model="m", base_url="http://127.0.0.1:9/v1"), reporter,
                         headless_gate(workspace.root, grant=True, store=TrustStore()), Limits(), None, switch)
        finished = await loop.run("talk")
    budget = reporter.of(BudgetUpdate)[-1]
    streamed = sum(len(e.text) for e in reporter.of(TextDelta))
    assert finished.reason == "killed" and budget.tokens_estimated
    assert budget.output_tokens == streamed // 4 and budget.output_tokens >= 20
