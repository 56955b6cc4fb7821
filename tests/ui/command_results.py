"""run_command results as the tool returns them (shapes from real confined runs on Landlock 7),
for the transcript's command block tests and snapshots."""

from __future__ import annotations

from typing import Any

from konstruct_tui.agent import Finished, TextDelta, ToolFinished, ToolStarted, TurnStarted

SANDBOX = {"mode": "workspace-write", "abi": 7, "network": "blocked", "home": "hidden", "git": "read-only", "lifetime": "pid-namespace"}

PASSED = {
    "command": "pytest -q tests/test_calc.py", "sandbox": SANDBOX, "status": "ok", "exit_code": 0, "duration_s": 0.42,
    "stdout": "..\n[... 20480 bytes truncated ...]\n2 passed in 0.01s\n", "stderr": "",
    "stdout_truncated": True, "stderr_truncated": False,
}
FAILED = {
    "command": "python -m pytest -q", "sandbox": SANDBOX, "status": "failed", "exit_code": 1, "duration_s": 0.31,
    "stdout": "F.\n=== FAILURES ===\n    assert add(2, 3) == 5\nE   assert -1 == 5\n1 failed, 1 passed in 0.02s\n",
    "stderr": "", "stdout_truncated": False, "stderr_truncated": False, "reason": "exited with status 1",
}
SANDBOX_REFUSED = {
    "command": "curl -sS https://pypi.org/simple/", "sandbox": SANDBOX, "status": "failed", "exit_code": 6, "duration_s": 0.05,
    "stdout": "", "stderr": "curl: (6) Could not resolve host: pypi.org\n",
    "stdout_truncated": False, "stderr_truncated": False, "reason": "exited with status 6",
}
POLICY_REFUSED = {
    "status": "refused", "reason": "touch '/etc/motd' would overwrite or remove a system directory", "command": "touch /etc/motd",
    "policy": {"decision": "refuse", "rule": "system_paths"},
}
KILLED = {
    "command": "sleep 120", "sandbox": SANDBOX, "status": "killed", "exit_code": None, "duration_s": 1.2, "stdout": "",
    "stderr": "", "stdout_truncated": False, "stderr_truncated": False, "signal": 9,
    "reason": "cancelled: it and every process it started were killed",
}

STATES: dict[str, dict[str, Any]] = {
    "ok": PASSED, "failed": FAILED, "sandbox-refused": SANDBOX_REFUSED, "policy-refused": POLICY_REFUSED, "killed": KILLED,
}


def command_call(call_id: str, result: dict[str, Any]) -> list[object]:
    return [ToolStarted(1, call_id, "run_command", {"command": result["command"]}),
            ToolFinished(1, call_id, "run_command", True, result)]


def mixed_session() -> list[object]:
    """Every glyph and a labelled count, then a final answer (streamed once, finished after)."""
    write_conflict = {"results": [{"path": "web/sum.ts", "status": "conflict", "reason": "'web/sum.ts' changed since your read"}]}
    read_partly = {"results": [{"path": "calc/core.py", "status": "ok"}, {"path": "calc/gone.py", "status": "not_found"}]}
    hits = {"status": "ok", "results": [{"path": "calc/core.py", "line": n, "text": "add"} for n in range(7)], "truncated": False}
    graph = {"status": "ok", "results": [{"path": f"m{n}.py"} for n in range(40)], "bounds": {"limit_unit": "files"}}
    return [
        TurnStarted(1),
        ToolStarted(1, "s", "search", {"query": "add"}), ToolFinished(1, "s", "search", True, hits),
        ToolStarted(1, "g", "traverse_graph", {"mode": "dependents", "target": "calc/core.py"}),
        ToolFinished(1, "g", "traverse_graph", True, graph),
        ToolStarted(1, "r", "read_code", {"paths": ["calc/core.py", "calc/gone.py"]}),
        ToolFinished(1, "r", "read_code", True, read_partly, ("ok", "not_found")),
        ToolStarted(1, "w", "write_code", {"edits": [{"path": "web/sum.ts"}]}),
        ToolFinished(1, "w", "write_code", True, write_conflict, ("conflict",)),
        *command_call("k", KILLED),
        TurnStarted(2),
        TextDelta(2, "Fixed `add` in **calc/core.py**."),
        Finished("done", "s1", 2, "Fixed `add` in **calc/core.py**."),
    ]
