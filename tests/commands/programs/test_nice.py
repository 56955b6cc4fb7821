"""`nice` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/runners.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from policy_cases import check, project

from konstruct_tui.commands import PolicyConfig, decide


DENIED = [
    "nice rm -rf /",
    "nice -n 10 rm -rf /",
    "nice -n 5 timeout 9 env X=1 /bin/rm -rf /",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


DENIED_13 = [
    "nice -5 rm -rf /",
    "nice --adjustment=5 rm -rf /",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


UNKNOWN_WRAPPER_OPTIONS = [
    "nice --weird ls",
]


@pytest.mark.parametrize("command", UNKNOWN_WRAPPER_OPTIONS)
def test_unknown_wrapper_options_ask_and_are_never_allowlisted(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.capability) == ("ask", "commands"), decision.reason
    assert decision.reason.count("option") >= 1
    inner = command.split()[-1]
    assert decide(command, PolicyConfig.build([], ["timeout", "nice", "env", "strace", inner])).decision == "refuse"


@pytest.mark.parametrize(("command", "decision"), [
    ("nice make test", "ask"),
])
def test_project_scripts_run_as_written(tmp_path: Path, command: str, decision: str) -> None:
    result = decide(command, project(tmp_path))
    assert result.decision == decision, result.reason
    if decision == "allow":
        assert (result.rule, result.capability) == ("project_script", "scripts")
    if decision == "refuse":
        assert result.rule == "deny"  # the script body is held to the hard deny list
