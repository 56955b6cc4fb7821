"""`timeout` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/runners.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
    read_only_rules_refuse_what_executes_writes_or_redirects,
    spellings_found_by_attacking_the_policy_are_refused,
    unknown_wrapper_options_ask_and_are_never_allowlisted,
)


DENIED = [
    "timeout 5 rm -rf /",
    "timeout -s KILL 10s rm -rf /",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


ASKED = [
    "timeout 60 pytest -x",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "timeout -k 5 10 rm -rf /",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


UNKNOWN_WRAPPER_OPTIONS = [
    "timeout --frobnicate 5 ls",
]


test_unknown_wrapper_options_ask_and_are_never_allowlisted = case_test(
    unknown_wrapper_options_ask_and_are_never_allowlisted, "command", UNKNOWN_WRAPPER_OPTIONS)


SELF_ATTACK_DENIED = [
    "timeout 5 -- rm -rf /",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


test_read_only_rules_refuse_what_executes_writes_or_redirects = case_test(
    read_only_rules_refuse_what_executes_writes_or_redirects, "command", [
    "timeout 5 ls",
])
