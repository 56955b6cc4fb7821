"""`docker` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/system.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    spellings_found_by_attacking_the_policy_are_refused,
)


DENIED = [
    "docker run -v /:/host ubuntu",
    "docker run --privileged ubuntu sh",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


ASKED = [
    "docker build -t app .",
    "docker run --rm -v ./src:/app node:20 npm test",
    'docker run --rm node:20 sh -c "npm test"',
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


SELF_ATTACK_DENIED = [
    "docker run --pid=host x",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)
