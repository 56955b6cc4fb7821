"""`timeout` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/runners.py."""

from __future__ import annotations

import pytest
from policy_cases import READ_ONLY, check

from konstruct_tui.commands import PolicyConfig, decide


DENIED = [
    "timeout 5 rm -rf /",
    "timeout -s KILL 10s rm -rf /",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ASKED = [
    "timeout 60 pytest -x",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


DENIED_13 = [
    "timeout -k 5 10 rm -rf /",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


UNKNOWN_WRAPPER_OPTIONS = [
    "timeout --frobnicate 5 ls",
]


@pytest.mark.parametrize("command", UNKNOWN_WRAPPER_OPTIONS)
def test_unknown_wrapper_options_ask_and_are_never_allowlisted(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.capability) == ("ask", "commands"), decision.reason
    assert decision.reason.count("option") >= 1
    inner = command.split()[-1]
    assert decide(command, PolicyConfig.build([], ["timeout", "nice", "env", "strace", inner])).decision == "refuse"


SELF_ATTACK_DENIED = [
    "timeout 5 -- rm -rf /",
]


@pytest.mark.parametrize("command", SELF_ATTACK_DENIED)
def test_spellings_found_by_attacking_the_policy_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


@pytest.mark.parametrize("command", [
    "timeout 5 ls",
])
def test_read_only_rules_refuse_what_executes_writes_or_redirects(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert decision.decision != "allow" and decision.confinement is None, decision.reason
