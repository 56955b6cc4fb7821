"""`awk` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/files.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import check


DENIED = [
    "awk 'BEGIN{system(\"rm -rf /\")}'",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ASKED = [
    "awk '{print $1}' data.txt",
    "awk -F, '{sum+=$2} END {print sum}' data.csv",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


# Broke before: a disk device written by a tool the deny list had no table for (asked instead).
@pytest.mark.parametrize("command", [
    "awk '{print > \"/dev/sda\"}' a.txt",
])
def test_any_program_naming_a_disk_device_is_on_the_hard_deny_list(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


# Held, not yet tested.
@pytest.mark.parametrize("command", [
    "mawk 'BEGIN{system(\"rm -rf /\")}'",
])
def test_more_spellings_of_the_hard_deny_list_hold(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")
