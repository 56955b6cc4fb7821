"""env: `-S` split strings are read the way env reads them; a variable in one is never allowed."""

from __future__ import annotations

import pytest
from policy_checks import (
    case_test,
    a_command_run_in_another_folder_is_judged_fully_from_there,
    any_program_naming_a_disk_device_is_on_the_hard_deny_list,
    deny_class_examples_are_refused_in_every_mode,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
    other_refusals_name_their_rule,
    project_scripts_run_as_written,
    read_only_rules_refuse_what_executes_writes_or_redirects,
    spellings_found_by_attacking_the_policy_are_refused,
    unknown_wrapper_options_ask_and_are_never_allowlisted,
)

from konstruct_tui.commands import PolicyConfig, decide


ENV_SPLIT_STRING_DENIED = ["env -S 'rm${IFS}-rf /'", "env -S 'rm\\_-rf\\_/'", "env -S '${X}rm -rf /'",
                           "timeout --signal=KILL 5 rm -rf /", "nice --adjustment 5 rm -rf /", "watch --exec rm -rf /",
                           "chroot --userspec=1:1 / rm -rf /", "npx --yes -- rm -rf /"]


@pytest.mark.parametrize("command", ENV_SPLIT_STRING_DENIED)
def test_env_split_strings_are_read_as_env_reads_them(command: str) -> None:
    decision = decide(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


def test_env_split_string_with_a_variable_is_never_allowed() -> None:
    decision = decide("env -S 'pytest ${ARGS}'", PolicyConfig.build(["python"]))
    assert decision.decision == "refuse"
    assert decide("env -S 'pytest ${ARGS}'").decision == "ask"


DENIED = [
    "env rm -rf /",
    "env FOO=1 rm -rf /",
    "env -i PATH=/bin rm -rf /",
    'env -S "rm -rf /"',
    "/usr/bin/env rm -rf /",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


OTHER_REFUSALS = [
    ("env LD_PRELOAD=/tmp/x.so ls", "env_injection"),
]


test_other_refusals_name_their_rule = case_test(other_refusals_name_their_rule, ("command", "rule"), OTHER_REFUSALS)


ASKED = [
    "env",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "env -iS 'rm -rf /'",
    "env -i -S 'rm -rf /'",
    "env --split-string='rm -rf /'",
    "env --split 'rm -rf /'",
    "env -u HOME -S 'rm -rf /'",
    "env -C / rm -rf bin",
    "env -- rm -rf /",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


UNKNOWN_WRAPPER_OPTIONS = [
    "env --whatever ls",
]


test_unknown_wrapper_options_ask_and_are_never_allowlisted = case_test(
    unknown_wrapper_options_ask_and_are_never_allowlisted, "command", UNKNOWN_WRAPPER_OPTIONS)


SELF_ATTACK_DENIED = [
    "env -S\"rm -rf /\"",
    "env -vS 'rm -rf /'",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


test_read_only_rules_refuse_what_executes_writes_or_redirects = case_test(
    read_only_rules_refuse_what_executes_writes_or_redirects, "command", [
    "env ls",
])


test_project_scripts_run_as_written = case_test(project_scripts_run_as_written, ("command", "decision"), [
    ("env npm test", "ask"),
])


# Broke before: a disk device written by a tool the deny list had no table for (asked instead).
test_any_program_naming_a_disk_device_is_on_the_hard_deny_list = case_test(
    any_program_naming_a_disk_device_is_on_the_hard_deny_list, "command", [
    "env pv /dev/zero -o /dev/mmcblk0",
])


test_a_command_run_in_another_folder_is_judged_fully_from_there = case_test(
    a_command_run_in_another_folder_is_judged_fully_from_there, ("command", "rule"), [
    ("env -C /etc cat shadow", "secrets"),
    ("env -C .. rm -rf project", "outside_workspace"),
])


DENY_CLASS = [
    "env -iS 'rm -rf /'",
]


test_deny_class_examples_are_refused_in_every_mode = case_test(
    deny_class_examples_are_refused_in_every_mode, "command", DENY_CLASS)
