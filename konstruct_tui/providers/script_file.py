"""A scripted provider's script file, read and checked (its format: `scripted.py`). Apart from the
provider itself, so checking a script before the workbench opens loads no HTTP client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class ScriptInvalid(ValueError):
    """The script file cannot be used; the message names the file and the problem."""


def load_summaries(path: str | Path) -> list[str]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return []
    summaries = data.get("summaries") if isinstance(data, dict) else None
    return [str(s) for s in summaries] if isinstance(summaries, list) else []


def load_script(path: str | Path) -> list[dict[str, Any]]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ScriptInvalid(f"cannot read script {str(path)!r}: {error.strerror or error}") from None
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError:
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as error:
            raise ScriptInvalid(f"script {path.name!r} is neither JSON nor JSON lines: {error.msg} (line {error.lineno})") from None
    turns = data.get("turns") if isinstance(data, dict) else data
    if not isinstance(turns, list) or not turns:
        raise ScriptInvalid(f"script {path.name!r} has no turns (expected {{\"turns\": [...]}}, a list, or JSON lines)")
    for number, turn in enumerate(turns, 1):
        if not isinstance(turn, dict):
            raise ScriptInvalid(f"script {path.name!r}: turn {number} is not an object")
        for call in turn.get("tool_calls") or ():
            if not isinstance(call, dict) or not isinstance(call.get("name"), str):
                raise ScriptInvalid(f"script {path.name!r}: turn {number} has a tool call without a name")
    return turns
