"""Shared pieces of the UI tests: a small project, a workbench on it, a fixed event sequence, and a
wait helper for Pilot (the loop runs on a worker thread, so tests wait for what the screen shows)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from konstruct_tui.agent import Limits
from konstruct_tui.agent import (
    BudgetUpdate,
    Finished,
    SessionStarted,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TrustRequested,
    TurnStarted,
)
from konstruct_tui.blueprint import PhaseStarted, VerdictReached
from konstruct_tui.providers import resolve
from konstruct_tui.ui.app import Workbench
from konstruct_tui.ui.messages import Reported
from konstruct_tui.app import WorkbenchSetup

PROJECT = {
    "calc/core.py": "def add(a, b):\n    return a - b\n\n\ndef double(x):\n    return add(x, x)\n",
    "calc/cli.py": "from calc.core import add\n\n\ndef main():\n    print(add(2, 3))\n",
    "calc/__init__.py": "",
    "web/sum.ts": "export function sum(a: number, b: number): number {\n  return a - b;\n}\n",
    "web/app.ts": 'import { sum } from "./sum";\nconsole.log(sum(1, 2));\n',
}


def make_project(parent: Path, name: str = "project") -> Path:
    root = parent / name
    for rel, text in PROJECT.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def write_script(path: Path, turns: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"turns": turns}), encoding="utf-8")
    return path


def workbench(root: Path, script: Path | None = None, *, theme: str | None = None, demo: bool = False, first_request: str | None = None) -> Workbench:
    settings = resolve(provider="scripted", script=str(script), turn_deadline_s=60, config={}) if script else None
    problem = None if script else "no model configured (test)"
    return Workbench(WorkbenchSetup(root, settings, problem, Limits(max_turns=10), demo=demo, theme=theme, first_request=first_request))


async def wait_for(pilot: Pilot[Any], condition: Callable[[], object], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {getattr(condition, '__name__', 'a condition')}")
        await pilot.pause(0.05)


async def graph_loaded(app: Workbench, pilot: Pilot[Any]) -> None:
    """Wait for the start-up graph overview (it starts after the first frame)."""
    from konstruct_tui.ui.panes.neighborhoods import NeighborhoodsPane

    pane = app.query_one(NeighborhoodsPane)
    await wait_for(pilot, lambda: pane.graph_status != "graph: indexing…", timeout=30)
    await app.workers.wait_for_complete()


def post(app: Workbench, *events: object) -> None:
    for event in events:
        app.post_message(Reported(event))  # type: ignore[arg-type]


READ_RESULT = {
    "results": [
        {"path": "calc/core.py", "status": "ok", "revision": "sha256:aa", "content": "..."},
        {"path": "web/sum.ts", "status": "ok", "revision": "sha256:bb", "content": "..."},
        {"path": "calc/missing.py", "status": "not_found", "reason": "'calc/missing.py' does not exist"},
    ]
}
WRITE_RESULT = {
    "results": [
        {"path": "calc/core.py", "status": "rolled_back", "reason": "the batch was atomic and another entry failed"},
        {"path": "web/sum.ts", "status": "conflict", "reason": "'web/sum.ts' changed since your read"},
    ],
    "atomic": True,
}
RECOVERED = {
    "results": [
        {"path": "calc/core.py", "status": "written", "diff": "--- a/calc/core.py\n+++ b/calc/core.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"},
    ]
}
HOODS = (
    {"name": "calc (core)", "size": 3, "members": ["calc/__init__.py", "calc/cli.py", "calc/core.py"], "bridges": ["calc/core.py"]},
    {"name": "web (sum)", "size": 2, "members": ["web/app.ts", "web/sum.ts"], "bridges": []},
)


def session_events() -> list[object]:
    """A fixed, finished session touching every pane (for pane tests and snapshots)."""
    return [
        SessionStarted("20260101-120000-abc123", "scripted", "scripted:test.json", note="replaying a recorded script: no model is called", neighborhoods=HOODS),
        TurnStarted(1),
        TextDelta(1, "I'll read both "),
        TextDelta(1, "implementations in one batch."),
        ToolStarted(1, "c1", "read_code", {"paths": ["calc/core.py", "web/sum.ts", "calc/missing.py"]}),
        ToolFinished(1, "c1", "read_code", True, READ_RESULT, ("ok", "ok", "not_found")),
        BudgetUpdate(1, 10, 1200, 80, 100_000, False, 0.0042, 1.0, None, 3.0, None),
        TurnStarted(2),
        TextDelta(2, "Fixing both in one atomic batch."),
        ToolStarted(2, "c2", "write_code", {"atomic": True, "edits": [{"path": "calc/core.py"}, {"path": "web/sum.ts"}]}),
        TrustRequested(2, "c2", "write_code", "edit", "change calc/core.py, web/sum.ts", "granted"),
        ToolFinished(2, "c2", "write_code", True, WRITE_RESULT, ("rolled_back", "conflict")),
        TurnStarted(3),
        ToolStarted(3, "c3", "write_code", {"edits": [{"path": "calc/core.py"}]}),
        ToolFinished(3, "c3", "write_code", True, RECOVERED, ("written",)),
        PhaseStarted("r1", "p1", "Fix add", 1, "s1", True, ({"id": "t1", "title": "fix add"},)),
        VerdictReached("r1", "p1", 1, "adjudicator", "complete_with_defects", "close", defects=("web/sum.ts still subtracts",)),
        BudgetUpdate(3, 10, 3600, 240, 100_000, False, 0.0125, 1.0, None, 9.0, None),
        Finished("done", "20260101-120000-abc123", 3, "fixed calc/core.py"),
    ]
