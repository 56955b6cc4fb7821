"""Building blocks for agent tests: scripts on disk, a loop wired to real tools, recorded transcripts."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from konstruct_tui.agent import (
    AgentLoop,
    CollectingReporter,
    KillSwitch,
    Limits,
    headless_gate,
)
from konstruct_tui.agent.ports import Message, ToolSpec, TurnItem
from konstruct_tui.providers import ScriptedProvider
from konstruct_tui.trust import TrustStore
from konstruct_tui.workspace import Workspace

CALC = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
READ_CALC = {"text": "I will read calc.py.", "tool_calls": [{"name": "read_code", "arguments": {"paths": ["calc.py"]}}]}
FIX_CALC = {"text": "Fixing the sign.", "tool_calls": [{"name": "write_code", "arguments": {"edits": [
    {"path": "calc.py", "revision": "$revision:calc.py", "replacements": [{"old": "return a - b", "new": "return a + b"}]}]}}]}
DONE = {"text": "Fixed add: it subtracted."}


def write_script(folder: Path, turns: list[dict[str, Any]], name: str = "script.json") -> Path:
    path = folder / name
    path.write_text(json.dumps({"turns": turns}))
    return path


class Recording:
    """A model port that remembers the transcript of every turn it was asked for."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.provider = inner.provider
        self.model = inner.model
        self.transcripts: list[list[Message]] = []

    def stream_turn(self, system: str, transcript: Sequence[Message], tools: Sequence[ToolSpec]) -> AsyncIterator[TurnItem]:
        self.transcripts.append(list(transcript))
        self.system = system
        return self.inner.stream_turn(system, transcript, tools)

    async def aclose(self) -> None:
        await self.inner.aclose()


def scripted_loop(root: Path, script: Path, *, grant: bool = True, limits: Limits | None = None, price: Any = None,
                  switch: KillSwitch | None = None, reporter: Any = None, **extra: Any) -> tuple[AgentLoop, Recording, CollectingReporter]:
    model = Recording(ScriptedProvider(script, turn_deadline_s=extra.pop("turn_deadline_s", 30.0)))
    reporter = reporter or CollectingReporter()
    workspace = Workspace(root)
    loop = AgentLoop(workspace, model, reporter, headless_gate(workspace.root, grant=grant, store=TrustStore()),
                     limits or Limits(), price, switch or KillSwitch(), **extra)
    return loop, model, reporter
