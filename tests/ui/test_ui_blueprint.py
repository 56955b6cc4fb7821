"""A blueprint run started in the workbench (`konstruct --blueprint FILE`): the real orchestrator and
gate, scripted executor and adjudicator sessions, reported into the panes."""

from __future__ import annotations

import json
from pathlib import Path

from ui_harness import make_project, wait_for

from konstruct_tui.agent import Limits
from konstruct_tui.providers import resolve
from konstruct_tui.ui.app import Workbench
from konstruct_tui.ui.panes.batches import BatchTable
from konstruct_tui.ui.panes.budgets import BudgetsPane
from konstruct_tui.ui.panes.gate import GatePane
from konstruct_tui.app import WorkbenchSetup

BLUEPRINT = """title = "Calc fixes"

[[phases]]
id = "p1"
title = "Fix add"
goal = "add() returns the sum"
relevant = ["calc/core.py"]

[[phases.tasks]]
id = "t1"
text = "make add return a + b"
"""
EVIDENCE = "calc/core.py line 2: add() now returns a + b, so add(2, 3) gives 5 as the task requires"


def _scripts(folder: Path) -> Path:
    folder.mkdir()
    executor = [
        {"text": "Reading.", "tool_calls": [{"name": "read_code", "arguments": {"paths": ["calc/core.py"]}}]},
        {"text": "Fixing.", "tool_calls": [
            {"name": "write_code", "arguments": {"edits": [{"path": "calc/core.py", "revision": "$revision:calc/core.py",
                                                            "replacements": [{"old": "return a - b", "new": "return a + b"}]}]}},
            {"name": "mark_task", "arguments": {"id": "t1", "status": "done", "note": "done"}},
            {"name": "phase_done", "arguments": {"summary": "add fixed"}},
        ]},
    ]
    adjudicator = [{"text": "Verdict.", "tool_calls": [{"name": "submit_verdict", "arguments": {
        "verdict": "complete_with_defects", "tasks": [{"id": "t1", "evidence": EVIDENCE}], "outstanding": [], "defects": ["double() is untested"]}}]}]
    (folder / "executor.json").write_text(json.dumps({"turns": executor}))
    (folder / "adjudicator.json").write_text(json.dumps({"turns": adjudicator}))
    return folder


async def test_a_blueprint_run_shows_its_phase_verdict_and_defects(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    plan = tmp_path / "fix.toml"
    plan.write_text(BLUEPRINT)
    settings = resolve(provider="scripted", script=str(_scripts(tmp_path / "scripts")), turn_deadline_s=30, config={})
    app = Workbench(WorkbenchSetup(root, settings, None, Limits(), blueprint=plan))
    async with app.run_test(size=(120, 40)) as pilot:
        budgets = app.query_one(BudgetsPane)
        await wait_for(pilot, lambda: budgets.state not in ("idle", "running"), timeout=60)
        gate = app.query_one(GatePane)
        assert budgets.state == "done", gate.phases
        view = gate.phases["p1"]
        assert view.verdict is not None and view.verdict.verdict == "complete_with_defects" and view.closed == "closed"
        assert view.defects == ["double() is untested"] and gate.run_title == "Calc fixes"
        assert ("calc/core.py", "written") in [(r.path, r.status) for r in app.query_one(BatchTable).rows_shown]
    assert "return a + b" in (root / "calc/core.py").read_text()
    # The workbench's run went through the durable engine, as `konstruct blueprint run` does.
    from dbos import DBOSClient

    from konstruct_tui.blueprint import RunStore, default_path

    [run] = RunStore().runs()
    client = DBOSClient(system_database_url=f"sqlite:///{default_path()}")
    try:
        [workflow] = client.list_workflows(workflow_id_prefix=run.id)
        units = [s["output"]["unit"] for s in client.list_workflow_steps(workflow.workflow_id)]
    finally:
        client.destroy()
    assert workflow.status == "SUCCESS" and units == ["baseline p1", "attempt p1.1", "adjudicate p1.1"]


def test_cli_refuses_a_broken_blueprint_before_the_screen_opens(konstruct, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import konstruct_tui.ui as ui

    opened: list[object] = []
    monkeypatch.setattr(ui, "run_workbench", opened.append)
    bad = tmp_path / "bad.toml"
    bad.write_text("title = \n")
    scripts = _scripts(tmp_path / "scripts")
    code, _, err = konstruct("--root", str(make_project(tmp_path)), "--provider", "scripted", "--script", str(scripts), "--blueprint", str(bad))
    assert code == 2 and not opened and "bad.toml" in err
    plan = tmp_path / "fix.toml"
    plan.write_text(BLUEPRINT)
    code, _, err = konstruct("--root", str(tmp_path / "project"), "--provider", "scripted", "--script", str(scripts), "--blueprint", str(plan))
    assert code == 0, err
    [setup] = opened
    assert setup.blueprint == plan.resolve()  # type: ignore[attr-defined]
