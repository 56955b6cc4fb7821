"""`awk` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/files.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    any_program_naming_a_disk_device_is_on_the_hard_deny_list,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    more_spellings_of_the_hard_deny_list_hold,
)


DENIED = [
    "awk 'BEGIN{system(\"rm -rf /\")}'",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


ASKED = [
    "awk '{print $1}' data.txt",
    "awk -F, '{sum+=$2} END {print sum}' data.csv",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


# Broke before: a disk device written by a tool the deny list had no table for (asked instead).
test_any_program_naming_a_disk_device_is_on_the_hard_deny_list = case_test(
    any_program_naming_a_disk_device_is_on_the_hard_deny_list, "command", [
    "awk '{print > \"/dev/sda\"}' a.txt",
])


# Held, not yet tested.
test_more_spellings_of_the_hard_deny_list_hold = case_test(more_spellings_of_the_hard_deny_list_hold, "command", [
    "mawk 'BEGIN{system(\"rm -rf /\")}'",
])
