"""`ssh` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/network.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
)


DENIED = [
    "ssh host 'rm -rf /'",
    'ssh -o ProxyCommand="rm -rf /" x',
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


ASKED = [
    "ssh user@host",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "ssh -o 'LocalCommand=rm -rf /' -o PermitLocalCommand=yes x",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)
