"""Chains the user allowed: `&&`, `||`, `;` of commands each allowed alone, run step by step without a shell."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from konstruct_tui.commands import PolicyConfig, decide
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import Workspace

CHAINS = PolicyConfig(chains=True)


@pytest.mark.parametrize(
    ("line", "decision", "rule"),
    [
        ("ls && ls -la", "ask", "needs_grant"),
        ("ls; ls\nls", "ask", "needs_grant"),
        ("false || echo fallback", "ask", "needs_grant"),
        ("ls | wc -l", "refuse", "compound"),
        ("ls && echo hi > out.txt", "refuse", "compound"),
        ("ls && $(id)", "refuse", "compound"),
        ("ls &", "refuse", "compound"),
        ("ls && && ls", "refuse", "compound"),
        ("ls &&", "refuse", "compound"),
        ("ls && rm -rf /", "refuse", "deny"),
        ("ls && sudo ls", "refuse", "privilege"),
        ("ls && rm -rf .", "refuse", "destructive"),
    ],
)
def test_chains_when_allowed(line: str, decision: str, rule: str) -> None:
    result = decide(line, CHAINS)
    assert (result.decision, result.rule) == (decision, rule), result.reason


def test_chains_are_refused_by_default() -> None:
    assert decide("ls && ls").rule == "compound"


# Broke before: a line of separators and no command crashed the policy when chains were allowed.
@pytest.mark.parametrize("line", [";", "; ", "; ;", "\n;"])
def test_separators_with_no_command_are_compound_not_a_crash(line: str) -> None:
    for config in (PolicyConfig.build(chains=True), PolicyConfig.build(["python"], chains=True), PolicyConfig()):
        assert (decide(line, config).decision, decide(line, config).rule) == ("refuse", "compound")


def test_a_chain_of_allowlisted_steps_is_allowed_and_needs_no_grant() -> None:
    config = PolicyConfig.build(["python"], chains=True)
    result = decide("pytest -q && ruff check .", config)
    assert (result.decision, result.rule, result.capability) == ("allow", "chain", None)
    assert [step.argv for step in result.steps] == [("pytest", "-q"), ("ruff", "check", ".")]
    assert decide("pytest -q && curl https://example.com", config).rule == "allowlist"


def _run(root: Path, command: str) -> dict[str, Any]:
    with Workspace(root) as workspace:
        context = ToolContext(workspace)
        context.command_policy = CHAINS
        return call("run_command", {"command": command}, context).to_json()


def test_steps_run_with_shell_semantics(tmp_path: Path) -> None:
    py = sys.executable
    fail = f"{py} -c 'import sys; sys.exit(3)'"
    result = _run(tmp_path, f"echo one && {fail} && echo skipped || echo rescued; echo last")
    assert result["stdout"] == "one\nrescued\nlast\n"
    assert [s["status"] for s in result["steps"]] == ["ok", "failed", "skipped", "ok", "ok"]
    assert (result["status"], result["exit_code"]) == ("ok", 0)


def test_the_last_step_that_ran_decides(tmp_path: Path) -> None:
    result = _run(tmp_path, f"echo a && {sys.executable} -c 'import sys; sys.exit(5)'")
    assert (result["status"], result["exit_code"]) == ("failed", 5)


def test_the_steps_share_one_timeout(tmp_path: Path) -> None:
    sleep = f"{sys.executable} -c 'import time; time.sleep(5)'"
    with Workspace(tmp_path) as workspace:
        context = ToolContext(workspace)
        context.command_policy = CHAINS
        result = call("run_command", {"command": f"{sleep}; {sleep}", "timeout_s": 0.5}, context).to_json()
    assert result["status"] == "timeout"
    assert result["duration_s"] < 3
    assert len(result["steps"]) == 1
