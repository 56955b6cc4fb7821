"""`cat` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/files.py."""

from __future__ import annotations

from pathlib import Path

from program_answers import answer
from policy_checks import (
    case_test,
    a_look_around_that_reads_a_device_or_a_pipe_asks,
    a_program_from_the_project_is_never_a_look_around,
    deny_class_examples_are_refused_in_every_mode,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    other_refusals_name_their_rule,
    read_only_commands_are_allowed_confined_read_only,
)


DENIED = [
    "cat /dev/zero > /dev/sda",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


OTHER_REFUSALS = [
    ("cat ~/.ssh/id_rsa", "secrets"),
    ("cat /etc/shadow", "secrets"),
    ("cat ~/.aws/credentials", "secrets"),
    ("cat ~/.bash_history", "secrets"),
    ("cat /proc/self/environ", "secrets"),
]


test_other_refusals_name_their_rule = case_test(other_refusals_name_their_rule, ("command", "rule"), OTHER_REFUSALS)


ASKED = [
    "cat package.json",
    "cat /etc/os-release",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


test_read_only_commands_are_allowed_confined_read_only = case_test(
    read_only_commands_are_allowed_confined_read_only, "command", [
    "cat README.md",
])


# Broke before: `tail /dev/zero` (no grant) keeps every byte waiting for a newline: 1.7 GB in 3 s;
# `tail /proc/self/pagemap`, a kernel pseudo-file with no stated size, 1.3 GB in 3 s.
test_a_look_around_that_reads_a_device_or_a_pipe_asks = case_test(
    a_look_around_that_reads_a_device_or_a_pipe_asks, "command", [
    "cat pipe",
    "cat /proc/cpuinfo",
])


def test_dev_null_is_still_read_freely(tmp_path: Path) -> None:
    assert answer("cat /dev/null", tmp_path) == ("allow", "read_only")
    assert answer("diff /dev/null a.txt", tmp_path) == ("allow", "read_only")


# Held, pinned: a file the agent wrote (or named like a look-around program) is never a look around,
# nor admitted by a preset; it runs only under the commands grant, in the sandbox.
test_a_program_from_the_project_is_never_a_look_around = case_test(
    a_program_from_the_project_is_never_a_look_around, "command", [
    "src/../cat a.txt",
    "/usr/bin/cat a.txt",
])


DENY_CLASS = [
    "cat /proc/1//environ",
]


test_deny_class_examples_are_refused_in_every_mode = case_test(
    deny_class_examples_are_refused_in_every_mode, "command", DENY_CLASS)
