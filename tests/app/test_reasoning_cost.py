"""`/cost` says how much of the output was reasoning, where the server reported it."""

from __future__ import annotations

from konstruct_tui.agent import BudgetUpdate, SessionStarted
from konstruct_tui.app.session_commands import CostLedger


def test_cost_names_the_reasoning_part_of_the_output() -> None:
    ledger = CostLedger()
    ledger.note(SessionStarted("20260101-120000-a1b2c3", "openai-responses", "gpt-5-codex"))
    ledger.note(BudgetUpdate(2, 50, 3310, 360, None, False, 0.0078, None, None, 1.0, None, 1408, 0, 256))
    assert ledger.lines() == ["last run: 2 / 50 turns, 3,310 in + 360 out (256 of it reasoning) = 3,670 / no limit tokens, $0.0078 / no limit"]


def test_no_reasoning_no_mention() -> None:
    ledger = CostLedger()
    ledger.note(SessionStarted("20260101-120000-a1b2c3", "openai", "m"))
    ledger.note(BudgetUpdate(1, 50, 100, 10, None, False, None, None, None, 1.0, None))
    assert "reasoning" not in ledger.lines()[0]
