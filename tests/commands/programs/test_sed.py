"""`sed` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/editors.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import check


DENIED = [
    "sed -i 's/a/b/' /etc/hosts",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ASKED = [
    "sed -n '10,20p' src/app.py",
    "sed -i 's/foo/bar/g' src/app.py",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


DENIED_13 = [
    "sed -n '1e rm -rf /' x",
    "sed -e 's/x/rm -rf \\//e' x",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


# Broke before: a disk device written by a tool the deny list had no table for (asked instead).
@pytest.mark.parametrize("command", [
    "sed -n '1w /dev/sda' a.txt",
])
def test_any_program_naming_a_disk_device_is_on_the_hard_deny_list(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")
