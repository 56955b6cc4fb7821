"""`ssh` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/network.py."""

from __future__ import annotations

import pytest
from policy_cases import check


DENIED = [
    "ssh host 'rm -rf /'",
    'ssh -o ProxyCommand="rm -rf /" x',
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ASKED = [
    "ssh user@host",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


DENIED_13 = [
    "ssh -o 'LocalCommand=rm -rf /' -o PermitLocalCommand=yes x",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason
