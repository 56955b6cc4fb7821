"""`nice` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/runners.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
    project_scripts_run_as_written,
    unknown_wrapper_options_ask_and_are_never_allowlisted,
)


DENIED = [
    "nice rm -rf /",
    "nice -n 10 rm -rf /",
    "nice -n 5 timeout 9 env X=1 /bin/rm -rf /",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


DENIED_13 = [
    "nice -5 rm -rf /",
    "nice --adjustment=5 rm -rf /",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


UNKNOWN_WRAPPER_OPTIONS = [
    "nice --weird ls",
]


test_unknown_wrapper_options_ask_and_are_never_allowlisted = case_test(
    unknown_wrapper_options_ask_and_are_never_allowlisted, "command", UNKNOWN_WRAPPER_OPTIONS)


test_project_scripts_run_as_written = case_test(project_scripts_run_as_written, ("command", "decision"), [
    ("nice make test", "ask"),
])
