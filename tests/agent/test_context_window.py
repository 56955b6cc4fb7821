"""A long run stays sendable: old large tool results are elided from what the model is sent, never
from the session, and never the latest ones."""

from __future__ import annotations

import json
from pathlib import Path

from agent_harness import DONE, scripted_loop, write_script

from konstruct_tui.agent.context_window import KEEP_RECENT_RESULTS, fit
from konstruct_tui.agent.ports import (
    AssistantMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from konstruct_tui.agent.sessions import load


def transcript(results: int, size: int) -> list:
    messages = [UserMessage("request")]
    for n in range(results):
        messages.append(AssistantMessage("", (ToolCall(f"c{n}", "read_code", {"paths": [f"f{n}.py"]}),)))
        messages.append(ToolResultMessage(f"c{n}", "read_code", json.dumps({"results": [{"content": "x" * size}]})))
    return messages


def test_under_budget_nothing_changes() -> None:
    messages = transcript(3, 1000)
    assert fit(messages, 100_000) == messages


def test_oldest_large_results_go_first_and_the_recent_ones_stay() -> None:
    messages = transcript(10, 20_000)
    fitted = fit(messages, 150_000)
    results = [m for m in fitted if isinstance(m, ToolResultMessage)]
    elided = [m for m in results if "elided" in m.content]
    assert elided and elided == results[: len(elided)]  # oldest first
    assert all("x" * 100 in m.content for m in results[-KEEP_RECENT_RESULTS:])
    assert sum(len(m.content) for m in results) <= 150_000
    assert len(elided) < len(results) - KEEP_RECENT_RESULTS  # it stopped once under budget
    assert fitted[0] == messages[0] and len(fitted) == len(messages)


async def test_near_the_limit_the_model_gets_a_compacted_copy_and_the_session_keeps_all(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "big.py").write_text("# filler line\n" * 2000)
    read = {"tool_calls": [{"name": "read_code", "arguments": {"paths": ["big.py"]}}]}
    loop, model, _ = scripted_loop(root, write_script(tmp_path, [read] * 8 + [DONE]))
    loop.context_chars = 30_000
    finished = await loop.run("read a lot")
    # With a model to summarise, compaction replaces the trim (tests/agent/test_compaction.py).
    last = model.transcripts[-1]
    assert isinstance(last[0], UserMessage) and last[0].text.startswith("[compacted: ")
    assert "big.py: read at sha256:" in last[0].text
    assert "filler" in [m for m in last if isinstance(m, ToolResultMessage)][-1].content
    kept = [m for m in load(finished.session_id).transcript if isinstance(m, ToolResultMessage)]
    assert all("filler" in m.content for m in kept)
