"""The event names and finish reasons are a contract (DESIGN.md §11): an outside suite reads them."""

from __future__ import annotations

import json
import typing

from konstruct_tui.agent import (
    FINISH_REASONS,
    AgentEvent,
    BudgetUpdate,
    Finished,
    ToolFinished,
    event_json,
)


def test_event_names_are_the_designed_ones() -> None:
    names = {cls.name for cls in typing.get_args(AgentEvent)}
    assert names == {"session_started", "turn_started", "text_delta", "reasoning", "tool_started", "tool_finished", "budget", "trust_request", "warning", "compacted", "finished"}
    assert FINISH_REASONS == ("done", "max_turns", "max_tokens", "max_cost", "timeout", "killed", "error")


def test_events_are_flat_json_with_the_event_key_first() -> None:
    finished = Finished("killed", "20260101-000000-abcdef", 2, "cut", ({"tool": "write_code", "call_id": "c", "path": "a.py", "status": "written"},), {"tool": "write_code", "landed": ["a.py"]})
    line = json.dumps(event_json(finished))
    assert line.startswith('{"event": "finished", "reason": "killed"')
    assert json.loads(line)["landed"][0]["path"] == "a.py"
    tool = event_json(ToolFinished(1, "c", "read_code", True, {"results": []}, ("ok", "skipped")))
    assert tool["statuses"] == ["ok", "skipped"] and tool["result"] == {"results": []}
    budget = event_json(BudgetUpdate(1, 50, 10, 2, None, False, None, None, "no price known", 0.5, None))
    assert budget["event"] == "budget" and budget["cost_usd"] is None and budget["cost_note"] == "no price known"
