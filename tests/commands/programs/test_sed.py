"""`sed` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/editors.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    any_program_naming_a_disk_device_is_on_the_hard_deny_list,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
)


DENIED = [
    "sed -i 's/a/b/' /etc/hosts",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


ASKED = [
    "sed -n '10,20p' src/app.py",
    "sed -i 's/foo/bar/g' src/app.py",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "sed -n '1e rm -rf /' x",
    "sed -e 's/x/rm -rf \\//e' x",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


# Broke before: a disk device written by a tool the deny list had no table for (asked instead).
test_any_program_naming_a_disk_device_is_on_the_hard_deny_list = case_test(
    any_program_naming_a_disk_device_is_on_the_hard_deny_list, "command", [
    "sed -n '1w /dev/sda' a.txt",
])
