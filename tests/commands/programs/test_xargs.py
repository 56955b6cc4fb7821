"""`xargs` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/runners.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    deny_class_examples_are_refused_in_every_mode,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
    shells_and_eval_cannot_smuggle_compound_commands,
    spellings_found_by_attacking_the_policy_are_refused,
)


DENIED = [
    "xargs rm -rf /",
    "xargs sh -c 'rm -rf /'",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


SHELL_WRAPPED = [
    "xargs sh -c 'ls; ls'",
]


test_shells_and_eval_cannot_smuggle_compound_commands = case_test(
    shells_and_eval_cannot_smuggle_compound_commands, "command", SHELL_WRAPPED)


DENIED_13 = [
    "xargs --max-args 1 rm -rf /",
    "xargs -n 1 rm -rf /",
    "xargs -I{} rm -rf /",
    "xargs --max-args=1 rm -rf /",
    "xargs -a list.txt rm -rf /",
    "xargs -0 -P 4 rm -rf /",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


SELF_ATTACK_DENIED = [
    "xargs -r -0 rm -rf /",
    "xargs -L1 rm -rf /",
    "xargs -eEOF rm -rf /",
    "xargs -s 1000 rm -rf /",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


DENY_CLASS = [
    "xargs --max-args 1 rm -rf /",
]


test_deny_class_examples_are_refused_in_every_mode = case_test(
    deny_class_examples_are_refused_in_every_mode, "command", DENY_CLASS)
