"""`konstruct demo` end to end, headless: a real (scripted) blueprint run with its gate verdict, then
a batched read, a real conflict and its recovery, a trust prompt, and the kill switch stopping the
hung last turn."""

from __future__ import annotations

from pathlib import Path

from ui_harness import wait_for

from konstruct_tui.agent import Limits
from konstruct_tui.providers import resolve
from konstruct_tui.ui.app import Workbench
from konstruct_tui.app.demo import (
    BLUEPRINT,
    BLUEPRINT_SCRIPTS,
    FIRST_REQUEST,
    SAMPLE,
    SCRIPT,
    prepare_demo,
)
from konstruct_tui.ui.panes.batches import BatchTable
from konstruct_tui.ui.panes.budgets import BudgetsPane
from konstruct_tui.ui.panes.gate import GatePane
from konstruct_tui.app import WorkbenchSetup
from konstruct_tui.ui.trust_prompt import TrustPrompt


async def test_the_demo_plays_every_part_and_can_be_killed(tmp_path: Path) -> None:
    root = prepare_demo(tmp_path)
    settings = resolve(provider="scripted", script=str(SCRIPT), turn_deadline_s=60, config={})
    blueprint_settings = resolve(provider="scripted", script=str(BLUEPRINT_SCRIPTS), turn_deadline_s=60, config={})
    app = Workbench(WorkbenchSetup(root, settings, None, Limits(max_turns=20), demo=True, first_request=FIRST_REQUEST,
                                   blueprint=BLUEPRINT, blueprint_settings=blueprint_settings))
    async with app.run_test(size=(120, 40)) as pilot:
        banner = str(app.query_one("#banner").content)
        assert "SCRIPTED DEMO" in banner and "no network" in banner
        gate = app.query_one(GatePane)
        await wait_for(pilot, lambda: "p1" in gate.phases and gate.phases["p1"].closed == "closed", timeout=30)
        verdict = gate.phases["p1"].verdict
        assert verdict is not None and verdict.verdict == "complete_with_defects" and verdict.tier == "adjudicator"
        assert "flat 8% sales tax" in (root / "shop" / "checkout.py").read_text()  # the executor's edit, through the gate
        await wait_for(pilot, lambda: isinstance(app.screen, TrustPrompt), timeout=30)
        await pilot.press("s")  # allow for this session: the recovery write goes through without asking
        table = app.query_one(BatchTable)
        await wait_for(pilot, lambda: [r.status for r in table.rows_shown][-2:] == ["written", "written"], timeout=30)
        statuses = [r.status for r in table.rows_shown][-10:]  # the pair-coding session's batches
        assert statuses[:4] == ["ok", "ok", "ok", "not_found"]  # the batched read
        assert statuses[4:6] == ["rolled_back", "conflict"]  # the atomic write met the outside edit
        budgets = app.query_one(BudgetsPane)
        await wait_for(pilot, lambda: budgets.turn == 5)
        await pilot.press("ctrl+k")
        await wait_for(pilot, lambda: budgets.state == "killed", timeout=5)
    fixed = (root / "shop" / "pricing.py").read_text()
    assert "return round_money(price * (1 - percent / 100))" in fixed
    assert "round_money(price) *" in (SAMPLE / "shop" / "pricing.py").read_text()  # the bundled original is untouched
