"""`dd` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: none in the program table: the rules judge it by its words."""

from __future__ import annotations

from policy_checks import (
    case_test,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
)


DENIED = [
    "dd if=/dev/zero of=/dev/sda",
    "dd if=/dev/urandom of=/dev/sda bs=1M",
    "dd of=/dev/sda if=/dev/zero",
    "dd if=disk.img of=out.img",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


ASKED = [
    "dd --version",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)
