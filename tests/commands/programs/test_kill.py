"""`kill` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: none in the program table: the rules judge it by its words."""

from __future__ import annotations

from policy_checks import (
    case_test,
    deny_class_examples_are_refused_in_every_mode,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
    more_deny_class_spellings_are_refused,
    more_spellings_of_the_hard_deny_list_hold,
    spellings_found_by_attacking_the_policy_are_refused,
)


DENIED = [
    "kill -9 -1",
    "kill -KILL -1",
    "kill -- -1",
    "kill -9 1",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


ASKED = [
    "kill 12345",
    "kill -9 12345",
    "kill -1 12345",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "kill -9 -01",
    "kill -9 ' -1'",
    "kill -- -1",
    "kill -SIGKILL -1",
    "kill -s KILL -1",
    "kill -n 9 -1",
    "kill --signal=KILL -1",
    "kill -9 -0001",
    "kill -9 -- -1",
    "kill -KILL +1",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


SELF_ATTACK_DENIED = [
    "kill -1 -1",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


# Held, not yet tested.
test_more_spellings_of_the_hard_deny_list_hold = case_test(more_spellings_of_the_hard_deny_list_hold, "command", [
    "kill -s 9 -- -1",
])


DENY_CLASS = [
    "kill -9 -01",
    "kill -9 ' -1'",
]


test_deny_class_examples_are_refused_in_every_mode = case_test(
    deny_class_examples_are_refused_in_every_mode, "command", DENY_CLASS)


MORE_DENY_CLASS = [
    "killall5 -9",
]


test_more_deny_class_spellings_are_refused = case_test(
    more_deny_class_spellings_are_refused, "command", MORE_DENY_CLASS)
