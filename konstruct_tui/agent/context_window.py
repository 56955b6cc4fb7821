"""Keeping what the model is sent within reach of its context window.

Tool results dominate a long run (whole files, command output). When the transcript grows past a
character budget, the oldest large tool results are replaced, in the copy sent to the model only,
by a short note saying what was dropped; the session file keeps everything. The request, the
model's own replies and the latest results are never dropped, so the model can always re-read.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .ports import AssistantMessage, Message, ToolResultMessage, UserMessage

DEFAULT_BUDGET_CHARS = 400_000  # about 100k tokens at 4 characters a token
KEEP_RECENT_RESULTS = 6
SMALL_RESULT = 2_000


def size_of(message: Message) -> int:
    if isinstance(message, UserMessage):
        return len(message.text)
    if isinstance(message, AssistantMessage):
        thought = sum(len(r.text) + len(json.dumps(r.data)) for r in message.reasoning)  # sent back too, for some APIs
        return len(message.text) + thought + sum(len(json.dumps(c.arguments)) for c in message.tool_calls)
    return len(message.content)


def fit(transcript: Sequence[Message], budget_chars: int = DEFAULT_BUDGET_CHARS) -> list[Message]:
    fitted = list(transcript)
    total = sum(size_of(m) for m in fitted)
    if total <= budget_chars:
        return fitted
    results = [i for i, m in enumerate(fitted) if isinstance(m, ToolResultMessage)]
    for index in results[: max(0, len(results) - KEEP_RECENT_RESULTS)]:
        message = fitted[index]
        assert isinstance(message, ToolResultMessage)
        if len(message.content) <= SMALL_RESULT:
            continue
        note = json.dumps({"elided": f"this {message.name} result ({len(message.content)} characters) was dropped to keep "
                                      "the conversation short; call the tool again if you still need it"})
        fitted[index] = ToolResultMessage(message.call_id, message.name, note, message.is_error)
        total -= len(message.content) - len(note)
        if total <= budget_chars:
            break
    return fitted
