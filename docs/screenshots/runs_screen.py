"""Makes the runs screen's pictures for docs/blueprints.md and docs/workbench.md (SVG, Textual's own
screenshot): a scripted two-attempt blueprint run that stalls on a failing check, then the Gate pane,
the runs list and the attached run. No model, no network.

    PYTHONPATH=$PWD python docs/screenshots/runs_screen.py [OUT_DIR]   (default: docs/screenshots)
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "blueprint"))
from blueprint_harness import CALC, CHECK, EVIDENCE, PHASE_FIX, blueprint_text  # noqa: E402  (the blueprint tests' own project and plan)

PLAN = blueprint_text(PHASE_FIX)


def _edit(old: str, new: str) -> dict:
    return {"text": "Editing.", "tool_calls": [
        {"name": "write_code", "arguments": {"edits": [{"path": "calc.py", "revision": "$revision:calc.py", "replacements": [{"old": old, "new": new}]}]}},
        {"name": "mark_task", "arguments": {"id": "t1", "status": "done"}},
        {"name": "phase_done", "arguments": {"summary": "add fixed"}}]}


def _verdict() -> dict:
    return {"text": "Verdict.", "tool_calls": [{"name": "submit_verdict", "arguments": {
        "verdict": "incomplete", "tasks": [{"id": "t1", "evidence": EVIDENCE}], "outstanding": ["t1"], "defects": []}}]}


async def main(out: Path) -> None:
    from konstruct_tui.agent import Limits
    from konstruct_tui.app import WorkbenchSetup
    from konstruct_tui.providers import resolve
    from konstruct_tui.ui.app import Workbench
    from konstruct_tui.ui.panes.budgets import BudgetsPane
    from konstruct_tui.ui.runs_screen import RunScreen, RunsScreen

    work = Path(tempfile.mkdtemp(prefix="konstruct-shots-"))
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        os.environ[name] = str(work / name.lower())
    scripts = work / "scripts"
    scripts.mkdir()
    executor = [{"text": "Reading.", "tool_calls": [{"name": "read_code", "arguments": {"paths": ["calc.py"]}}]},
                _edit("return a - b", "return (a + b) / 0"), _edit("def add(a, b):\n", "def add(a, b):\n    \"\"\"The sum.\"\"\"\n")]
    (scripts / "executor-p1.json").write_text(json.dumps({"turns": executor}))
    (scripts / "adjudicator-p1.json").write_text(json.dumps({"turns": [_verdict()]}))
    plan = work / "plan.toml"
    plan.write_text(PLAN)
    settings = resolve(provider="scripted", script=str(scripts), turn_deadline_s=30, config={})
    for size in ((120, 40), (80, 24)):
        root = work / f"calc-{size[0]}" / "calc"  # a fresh project each time: the first run changed calc.py
        root.mkdir(parents=True)
        (root / "calc.py").write_text(CALC)
        (root / "check_calc.py").write_text(CHECK)
        app = Workbench(WorkbenchSetup(root, settings, None, Limits(), blueprint=plan))
        suffix = "" if size == (120, 40) else "-80x24"
        async with app.run_test(size=size) as pilot:
            budgets = app.query_one(BudgetsPane)
            deadline = time.monotonic() + 60
            while budgets.state in ("idle", "running") and time.monotonic() < deadline:
                await pilot.pause(0.1)
            if size == (120, 40):
                app.query_one("#request").cursor_blink = False  # type: ignore[attr-defined]
                await pilot.pause(0.3)
                app.save_screenshot(str(out / "gate-history.svg"))
            await pilot.press("f2")
            while not (isinstance(app.screen, RunsScreen) and app.screen.rows):
                await pilot.pause(0.1)
            await pilot.pause(0.3)
            app.save_screenshot(str(out / f"runs-list{suffix}.svg"))
            await pilot.press("enter")
            while not (isinstance(app.screen, RunScreen) and app.screen.query(".verification")):
                await pilot.pause(0.1)
            await pilot.pause(0.3)
            app.save_screenshot(str(out / f"run-attached{suffix}.svg"))


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
    target.mkdir(parents=True, exist_ok=True)
    asyncio.run(main(target.resolve()))
