"""In the command policy: programs that start another: strace, unshare, time, flock, watch, busybox, setsid ...
(env, timeout, nice, xargs, sudo have files of their own).

Their facts: konstruct_tui/commands/programs/runners.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    a_command_run_in_another_folder_is_judged_fully_from_there,
    a_program_from_the_project_is_never_a_look_around,
    deny_class_examples_are_refused_in_every_mode,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
    more_deny_class_spellings_are_refused,
    shells_and_eval_cannot_smuggle_compound_commands,
    spellings_found_by_attacking_the_policy_are_refused,
    unknown_wrapper_options_ask_and_are_never_allowlisted,
)


DENIED = [
    "nohup rm -rf /",
    "command rm -rf /",
    "exec rm -rf /",
    "busybox rm -rf /",
    "stdbuf -oL rm -rf /",
    "ionice -c3 rm -rf /",
    "time rm -rf /",
    "setsid rm -rf /",
    "watch -n 1 'rm -rf /'",
    "busybox sh -c 'rm -rf /'",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


SHELL_WRAPPED = [
    "flock /tmp/lock -c 'ls; ls'",
]


test_shells_and_eval_cannot_smuggle_compound_commands = case_test(
    shells_and_eval_cannot_smuggle_compound_commands, "command", SHELL_WRAPPED)


ASKED = [
    "time pytest",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "strace --output /dev/null rm -rf /",
    "strace -o /dev/null rm -rf /",
    "strace -f -e trace=all rm -rf /",
    "strace -o '|rm -rf /' ls",
    "ltrace -o /dev/null rm -rf /",
    "unshare -w / rm -rf /",
    "unshare --wd=/ rm -rf /",
    "unshare -r rm -rf /",
    "setarch x86_64 rm -rf /",
    "setarch x86_64 -R rm -rf /",
    "stdbuf --output=L rm -rf /",
    "ionice -c 3 -n 7 rm -rf /",
    "chrt -f 1 rm -rf /",
    "taskset -c 0 rm -rf /",
    "taskset 0x1 rm -rf /",
    "setsid -f rm -rf /",
    "time -o /dev/null rm -rf /",
    "time -p rm -rf /",
    "chroot / rm -rf /",
    "flock -w 5 /tmp/l rm -rf /",
    "flock /tmp/l -c 'rm -rf /'",
    "watch -x rm -rf /",
    "nohup -- rm -rf /",
    "strace -o /etc/passwd ls",
    "busybox rm -rf /",
    "command -p rm -rf /",
    "builtin exec rm -rf /",
    "exec -a x rm -rf /",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


UNKNOWN_WRAPPER_OPTIONS = [
    "strace -Z9 ls",
]


test_unknown_wrapper_options_ask_and_are_never_allowlisted = case_test(
    unknown_wrapper_options_ask_and_are_never_allowlisted, "command", UNKNOWN_WRAPPER_OPTIONS)


SELF_ATTACK_DENIED = [
    "flock -xn /tmp/x rm -rf /",
    "unshare --fork --pid rm -rf /",
    "nsenter -t 1 -m rm -rf /",
    "strace -ff -o x rm -rf /",
    "ltrace -f rm -rf /",
    "script -qc 'rm -rf /' /dev/null",
    "watch -n1 -x rm -rf /",
    "bunx rimraf /",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


test_a_command_run_in_another_folder_is_judged_fully_from_there = case_test(
    a_command_run_in_another_folder_is_judged_fully_from_there, ("command", "rule"), [
    ("unshare -w /etc cat shadow", "secrets"),
])


# Held, pinned: a file the agent wrote (or named like a look-around program) is never a look around,
# nor admitted by a preset; it runs only under the commands grant, in the sandbox.
test_a_program_from_the_project_is_never_a_look_around = case_test(
    a_program_from_the_project_is_never_a_look_around, "command", [
    "exec ./x.sh",
])


DENY_CLASS = [
    "strace --output /dev/null rm -rf /",
    "unshare -w / rm -rf /",
    "setarch x86_64 rm -rf /",
]


test_deny_class_examples_are_refused_in_every_mode = case_test(
    deny_class_examples_are_refused_in_every_mode, "command", DENY_CLASS)


MORE_DENY_CLASS = [
    "ionice -c3 rm -rf /",
    "taskset 1 rm -rf /",
    "chroot / rm -rf /",
]


test_more_deny_class_spellings_are_refused = case_test(
    more_deny_class_spellings_are_refused, "command", MORE_DENY_CLASS)
