"""The scripted provider replays a script and says so; revisions come from the transcript."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from konstruct_tui.agent import (
    AssistantMessage,
    TextChunk,
    ToolCallChunk,
    ToolResultMessage,
    UsageChunk,
    UserMessage,
)
from konstruct_tui.providers import (
    ScriptedProvider,
    ScriptExhausted,
    ScriptInvalid,
    TurnDeadlineExceeded,
)


def script(tmp_path: Path, turns: object, name: str = "s.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(turns) if not isinstance(turns, str) else turns)
    return path


async def turn(provider, transcript):
    return [item async for item in provider.stream_turn("s", transcript, [])]


async def test_turns_follow_the_transcript_and_fill_revisions(tmp_path: Path) -> None:
    provider = ScriptedProvider(script(tmp_path, {"turns": [
        {"text": "reading", "tool_calls": [{"name": "read_code", "arguments": {"paths": ["a.py"]}}]},
        {"tool_calls": [{"name": "write_code", "arguments": {"edits": [{"path": "a.py", "revision": "$revision:a.py", "content": "x"}]}}],
         "usage": {"input_tokens": 10, "output_tokens": 3}},
    ]}))
    assert provider.provider == "scripted" and provider.model == "scripted:s.json" and "no model is called" in provider.note
    first = await turn(provider, [UserMessage("go")])
    assert "".join(i.text for i in first if isinstance(i, TextChunk)) == "reading"
    result = json.dumps({"results": [{"path": "a.py", "status": "ok", "revision": "sha256:abc"}]})
    transcript = [UserMessage("go"), AssistantMessage("reading", (first[1].call,)), ToolResultMessage(first[1].call.id, "read_code", result)]
    second = await turn(provider, transcript)
    (call,) = [i.call for i in second if isinstance(i, ToolCallChunk)]
    assert call.arguments["edits"][0]["revision"] == "sha256:abc"
    (usage,) = [i.usage for i in second if isinstance(i, UsageChunk)]
    assert (usage.input_tokens, usage.output_tokens, usage.estimated) == (10, 3, False)
    transcript.append(AssistantMessage("", (call,)))
    with pytest.raises(ScriptExhausted, match="has 2 turns and the run asked for turn 3"):
        await turn(provider, transcript)


async def test_json_lines_and_raw_arguments(tmp_path: Path) -> None:
    path = script(tmp_path, '{"tool_calls": [{"name": "write_code", "raw_arguments": "{broken"}]}\n{"text": "done"}\n', "s.jsonl")
    items = await turn(ScriptedProvider(path), [UserMessage("go")])
    (call,) = [i.call for i in items if isinstance(i, ToolCallChunk)]
    assert call.problem and "not valid JSON" in call.problem


async def test_a_hanging_turn_is_cut_by_the_deadline(tmp_path: Path) -> None:
    provider = ScriptedProvider(script(tmp_path, [{"text": "thinking", "hang": True}]), turn_deadline_s=0.1)
    with pytest.raises(TurnDeadlineExceeded):
        await turn(provider, [UserMessage("go")])


@pytest.mark.parametrize("content, problem", [
    ("{oops", "neither JSON nor JSON lines"),
    ("", "has no turns"),
    ("[]", "has no turns"),
    ('{"turns": [{"tool_calls": [{"arguments": {}}]}]}', "tool call without a name"),
])
def test_unusable_scripts_say_why(tmp_path: Path, content: str, problem: str) -> None:
    with pytest.raises(ScriptInvalid, match=problem):
        ScriptedProvider(script(tmp_path, content))


async def test_a_scripted_turn_can_think_first(tmp_path) -> None:
    from konstruct_tui.agent import ReasoningChunk, ReasoningDone, TextChunk, UserMessage
    from konstruct_tui.providers import ScriptedProvider

    script = tmp_path / "s.json"
    script.write_text('{"turns": [{"reasoning": "The bug is in add.", "text": "Reading."}]}')
    items = [i async for i in ScriptedProvider(script).stream_turn("s", [UserMessage("go")], [])]
    assert "".join(i.text for i in items if isinstance(i, ReasoningChunk)) == "The bug is in add."
    assert "".join(i.text for i in items if isinstance(i, TextChunk)) == "Reading."
    assert [i.part.text for i in items if isinstance(i, ReasoningDone)] == ["The bug is in add."]
    assert items.index(next(i for i in items if isinstance(i, ReasoningChunk))) < items.index(next(i for i in items if isinstance(i, TextChunk)))
