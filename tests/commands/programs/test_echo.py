"""`echo` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/files.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import check


DENIED = [
    "echo x > /dev/sda",
    "echo hi && rm -rf /",
    "echo $(rm -rf /)",
    "echo `rm -rf /`",
    "echo x; mkfs.ext4 /dev/sda",
    "echo c > /proc/sysrq-trigger",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


OTHER_REFUSALS = [
    ("echo $ANTHROPIC_API_KEY", "secrets"),
    ('echo "open', "parse_error"),
]


@pytest.mark.parametrize(("command", "rule"), OTHER_REFUSALS)
def test_other_refusals_name_their_rule(command: str, rule: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", rule), decision.reason


ASKED = [
    "echo 'a && b'",
    'echo "hello; world"',
    "echo '$(id)'",
    "echo \\$\\(id\\)",
    "echo ok \\; rm -rf build",
    'echo "rm -rf /"',
    "echo { x }",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


# Held, not yet tested.
@pytest.mark.parametrize("command", [
    "echo o > /proc/sysrq-trigger",
])
def test_more_spellings_of_the_hard_deny_list_hold(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


def test_printing_such_a_variable_is_refused_as_a_secret(tmp_path: Path) -> None:
    assert answer("echo $PGPASSWORD", tmp_path) == ("refuse", "secrets")
    assert answer("printenv MYSQL_PWD", tmp_path) == ("refuse", "secrets")
