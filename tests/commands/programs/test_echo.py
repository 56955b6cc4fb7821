"""`echo` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/files.py."""

from __future__ import annotations

from pathlib import Path

from program_answers import answer
from policy_checks import (
    case_test,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    more_spellings_of_the_hard_deny_list_hold,
    other_refusals_name_their_rule,
)


DENIED = [
    "echo x > /dev/sda",
    "echo hi && rm -rf /",
    "echo $(rm -rf /)",
    "echo `rm -rf /`",
    "echo x; mkfs.ext4 /dev/sda",
    "echo c > /proc/sysrq-trigger",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


OTHER_REFUSALS = [
    ("echo $ANTHROPIC_API_KEY", "secrets"),
    ('echo "open', "parse_error"),
]


test_other_refusals_name_their_rule = case_test(other_refusals_name_their_rule, ("command", "rule"), OTHER_REFUSALS)


ASKED = [
    "echo 'a && b'",
    'echo "hello; world"',
    "echo '$(id)'",
    "echo \\$\\(id\\)",
    "echo ok \\; rm -rf build",
    'echo "rm -rf /"',
    "echo { x }",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


# Held, not yet tested.
test_more_spellings_of_the_hard_deny_list_hold = case_test(more_spellings_of_the_hard_deny_list_hold, "command", [
    "echo o > /proc/sysrq-trigger",
])


def test_printing_such_a_variable_is_refused_as_a_secret(tmp_path: Path) -> None:
    assert answer("echo $PGPASSWORD", tmp_path) == ("refuse", "secrets")
    assert answer("printenv MYSQL_PWD", tmp_path) == ("refuse", "secrets")
