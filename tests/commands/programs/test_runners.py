"""In the command policy: programs that start another: strace, unshare, time, flock, watch, busybox, setsid ...
(env, timeout, nice, xargs, sudo have files of their own).

Their facts: konstruct_tui/commands/programs/runners.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import check

from konstruct_tui.commands import PolicyConfig, decide


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


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


SHELL_WRAPPED = [
    "flock /tmp/lock -c 'ls; ls'",
]


@pytest.mark.parametrize("command", SHELL_WRAPPED)
def test_shells_and_eval_cannot_smuggle_compound_commands(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "shell_wrapper"), decision.reason


ASKED = [
    "time pytest",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


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


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


UNKNOWN_WRAPPER_OPTIONS = [
    "strace -Z9 ls",
]


@pytest.mark.parametrize("command", UNKNOWN_WRAPPER_OPTIONS)
def test_unknown_wrapper_options_ask_and_are_never_allowlisted(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.capability) == ("ask", "commands"), decision.reason
    assert decision.reason.count("option") >= 1
    inner = command.split()[-1]
    assert decide(command, PolicyConfig.build([], ["timeout", "nice", "env", "strace", inner])).decision == "refuse"


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


@pytest.mark.parametrize("command", SELF_ATTACK_DENIED)
def test_spellings_found_by_attacking_the_policy_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


@pytest.mark.parametrize(("command", "rule"), [
    ("unshare -w /etc cat shadow", "secrets"),
])
def test_a_command_run_in_another_folder_is_judged_fully_from_there(command: str, rule: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", rule)


# Held, pinned: a file the agent wrote (or named like a look-around program) is never a look around,
# nor admitted by a preset; it runs only under the commands grant, in the sandbox.
@pytest.mark.parametrize("command", [
    "exec ./x.sh",
])
def test_a_program_from_the_project_is_never_a_look_around(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")


DENY_CLASS = [
    "strace --output /dev/null rm -rf /",
    "unshare -w / rm -rf /",
    "setarch x86_64 rm -rf /",
]


@pytest.mark.parametrize("command", DENY_CLASS)
def test_deny_class_examples_are_refused_in_every_mode(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision == "refuse", (command, decision.reason)


MORE_DENY_CLASS = [
    "ionice -c3 rm -rf /",
    "taskset 1 rm -rf /",
    "chroot / rm -rf /",
]


@pytest.mark.parametrize("command", MORE_DENY_CLASS)
def test_more_deny_class_spellings_are_refused(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        assert decide(command, config).decision == "refuse", command
