"""The scripted provider: replays a recorded script instead of calling a model (tests and the demo).
It says so wherever it is shown: its provider name is `scripted` and its model `scripted:<file>`.

Script format (UTF-8 JSON): an object `{"turns": [TURN, ...]}`, a bare list of turns, or JSON lines
with one TURN per line. Turn N of the script answers the model turn that has N-1 assistant messages
before it in the transcript, so a resumed session picks up where it stopped. A TURN:

    {
      "reasoning": "The bug is in add.",          optional: streamed first, as reasoning (shown dimmed)
      "text": "I will read it first.",             streamed as text deltas, word by word
      "tool_calls": [                                 run in order after the text
        {"name": "read_code", "arguments": {"paths": ["calc.py"]}},
        {"name": "write_code", "arguments": {"edits": [{"path": "calc.py",
            "revision": "$revision:calc.py", "replacements": [{"old": "a - b", "new": "a + b"}]}]}},
        {"name": "write_code", "raw_arguments": "{not json"}      sent as is: a malformed call
      ],
      "usage": {"input_tokens": 1200, "output_tokens": 80},       optional; else counted as estimated
      "delay_s": 0.05,                                              pause before each text piece
      "hang": true                                                  never finish (kill/deadline demos)
    }

`"$revision:PATH"` anywhere in the arguments stands for the revision of PATH in the latest tool result
of the transcript that carries one (what a model would copy from its read_code result), so a script
does not hard-code file hashes. Asking for a turn past the script's end is an error.

Compaction asks the model for a summary; a script answers those requests from its top-level
`"summaries": ["...", ...]` in order (then a fixed line saying no model wrote it). Model turns folded
into a compaction still count when choosing the script's next turn.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from ..agent import (
    SUMMARY_SYSTEM,
    Message,
    ReasoningChunk,
    ReasoningDone,
    ReasoningPart,
    TextChunk,
    ToolCall,
    ToolCallChunk,
    ToolResultMessage,
    ToolSpec,
    TurnEnd,
    TurnItem,
    Usage,
    UsageChunk,
    UserMessage,
    carried_facts,
    model_turns,
)
from .errors import ProviderError, ScriptExhausted
from .script_file import ScriptInvalid, load_script, load_summaries
from .streaming import END, parse_arguments, within_deadline

__all__ = ["ScriptInvalid", "ScriptedProvider", "load_script", "load_summaries"]

_PLACEHOLDER = "$revision:"


class ScriptedProvider:
    provider = "scripted"

    def __init__(self, script: str | Path, *, turn_deadline_s: float = 300.0) -> None:
        self.path = Path(script)
        self.turns = load_script(self.path)
        self.summaries = load_summaries(self.path)
        self.model = f"scripted:{self.path.name}"
        self.turn_deadline_s = turn_deadline_s

    note = "replaying a recorded script: no model is called"

    async def aclose(self) -> None:
        return None

    def stream_turn(self, system: str, transcript: Sequence[Message], tools: Sequence[ToolSpec]) -> AsyncIterator[TurnItem]:
        if system == SUMMARY_SYSTEM:
            return within_deadline(self._summarise, self.turn_deadline_s, self.provider)
        return within_deadline(lambda queue: self._replay(queue, transcript), self.turn_deadline_s, self.provider)

    async def _summarise(self, queue: asyncio.Queue[object]) -> None:
        text = self.summaries.pop(0) if self.summaries else "(scripted provider: no model wrote this summary; the facts below are exact)"
        queue.put_nowait(TextChunk(text))
        queue.put_nowait(UsageChunk(Usage(0, len(text) // 4, estimated=True)))
        queue.put_nowait(TurnEnd("stop"))
        queue.put_nowait(END)

    async def _replay(self, queue: asyncio.Queue[object], transcript: Sequence[Message]) -> None:
        index = model_turns(transcript)
        try:
            if index >= len(self.turns):
                raise ScriptExhausted(f"the script {self.path.name!r} has {len(self.turns)} turns and the run asked for turn {index + 1}")
            turn = self.turns[index]
            delay = float(turn.get("delay_s") or 0)
            thought = str(turn.get("reasoning") or "")
            for position, word in enumerate(thought.split(" ") if thought else []):
                if delay:
                    await asyncio.sleep(delay)
                queue.put_nowait(ReasoningChunk(word if position == 0 else " " + word))
            if thought:
                queue.put_nowait(ReasoningDone(ReasoningPart("scripted", thought)))
            text = str(turn.get("text") or "")
            words = text.split(" ")
            for position, word in enumerate(words if text else []):
                if delay:
                    await asyncio.sleep(delay)
                queue.put_nowait(TextChunk(word if position == 0 else " " + word))
            if turn.get("hang"):
                await asyncio.Event().wait()  # until the deadline or the kill switch closes the turn
            revisions = _revisions(transcript)
            calls = []
            for number, spec in enumerate(turn.get("tool_calls") or (), 1):
                raw = spec["raw_arguments"] if "raw_arguments" in spec else _fill(spec.get("arguments", {}), revisions)
                arguments, problem = parse_arguments(raw, spec["name"])
                calls.append(ToolCall(str(spec.get("id") or f"script_{index + 1}_{number}"), spec["name"], arguments, problem))
                queue.put_nowait(ToolCallChunk(calls[-1]))
            usage = turn.get("usage")
            if isinstance(usage, dict):
                queue.put_nowait(UsageChunk(Usage(int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0)))))
            else:
                sent = sum(len(getattr(m, "text", "") or getattr(m, "content", "")) for m in transcript)
                queue.put_nowait(UsageChunk(Usage(sent // 4, (len(text) + len(json.dumps([c.arguments for c in calls]))) // 4, estimated=True)))
            queue.put_nowait(TurnEnd("tool_calls" if calls else "stop"))
            queue.put_nowait(END)
        except ProviderError as error:
            queue.put_nowait(error)


def _revisions(transcript: Sequence[Message]) -> dict[str, str]:
    """path -> revision from the tool results so far (and the facts of a compaction), later ones winning."""
    found: dict[str, str] = {}
    for message in transcript:
        if isinstance(message, UserMessage):
            facts = carried_facts(message.text)  # a compaction folded earlier results into its facts
            found.update(facts.read if facts else {})
            continue
        if not isinstance(message, ToolResultMessage):
            continue
        try:
            payload = json.loads(message.content)
        except json.JSONDecodeError:
            continue
        for entry in payload.get("results", []) if isinstance(payload, dict) else ():
            if isinstance(entry, dict) and isinstance(entry.get("path"), str) and isinstance(entry.get("revision"), str):
                found[entry["path"]] = entry["revision"]
    return found


def _fill(value: Any, revisions: dict[str, str]) -> Any:
    if isinstance(value, str) and value.startswith(_PLACEHOLDER):
        return revisions.get(value[len(_PLACEHOLDER):], value)
    if isinstance(value, dict):
        return {key: _fill(item, revisions) for key, item in value.items()}
    if isinstance(value, list):
        return [_fill(item, revisions) for item in value]
    return value
