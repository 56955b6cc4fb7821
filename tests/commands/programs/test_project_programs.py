"""Programs run from the project's own folder (`./x.sh`): never a look around, never admitted by a
preset."""

from __future__ import annotations

from policy_checks import (
    case_test,
    a_program_from_the_project_is_never_a_look_around,
    a_program_from_the_project_is_never_admitted_by_a_preset,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    read_only_rules_refuse_what_executes_writes_or_redirects,
)


DENIED = [
    "./rm -rf /",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


ASKED = [
    "./scripts/build.sh",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


test_read_only_rules_refuse_what_executes_writes_or_redirects = case_test(
    read_only_rules_refuse_what_executes_writes_or_redirects, "command", [
    "./ls",
])


# Held, pinned: a file the agent wrote (or named like a look-around program) is never a look around,
# nor admitted by a preset; it runs only under the commands grant, in the sandbox.
test_a_program_from_the_project_is_never_a_look_around = case_test(
    a_program_from_the_project_is_never_a_look_around, "command", [
    "./x.sh",
    "./ls",
    "./cat a.txt",
])


test_a_program_from_the_project_is_never_admitted_by_a_preset = case_test(
    a_program_from_the_project_is_never_admitted_by_a_preset, "command", [
    "./x.sh",
    "./pytest",
    "./cat a.txt",
])
