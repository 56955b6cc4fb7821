"""`cat` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/files.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import READ_ONLY, check

from konstruct_tui.commands import PolicyConfig, decide


DENIED = [
    "cat /dev/zero > /dev/sda",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


OTHER_REFUSALS = [
    ("cat ~/.ssh/id_rsa", "secrets"),
    ("cat /etc/shadow", "secrets"),
    ("cat ~/.aws/credentials", "secrets"),
    ("cat ~/.bash_history", "secrets"),
    ("cat /proc/self/environ", "secrets"),
]


@pytest.mark.parametrize(("command", "rule"), OTHER_REFUSALS)
def test_other_refusals_name_their_rule(command: str, rule: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", rule), decision.reason


ASKED = [
    "cat package.json",
    "cat /etc/os-release",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


@pytest.mark.parametrize("command", [
    "cat README.md",
])
def test_read_only_commands_are_allowed_confined_read_only(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert (decision.decision, decision.rule, decision.confinement, decision.capability) == (
        "allow", "read_only", "read-only", None), decision.reason
    assert decision.to_json()["confinement"] == "read-only"


# Broke before: `tail /dev/zero` (no grant) keeps every byte waiting for a newline: 1.7 GB in 3 s;
# `tail /proc/self/pagemap`, a kernel pseudo-file with no stated size, 1.3 GB in 3 s.
@pytest.mark.parametrize("command", [
    "cat pipe",
    "cat /proc/cpuinfo",
])
def test_a_look_around_that_reads_a_device_or_a_pipe_asks(command: str, tmp_path: Path) -> None:
    (tmp_path / "zero-link").symlink_to("/dev/zero")
    (tmp_path / "pagemap-link").symlink_to("/proc/self/pagemap")
    os.mkfifo(tmp_path / "pipe")
    assert answer(command, tmp_path) == ("ask", "needs_grant")


def test_dev_null_is_still_read_freely(tmp_path: Path) -> None:
    assert answer("cat /dev/null", tmp_path) == ("allow", "read_only")
    assert answer("diff /dev/null a.txt", tmp_path) == ("allow", "read_only")


# Held, pinned: a file the agent wrote (or named like a look-around program) is never a look around,
# nor admitted by a preset; it runs only under the commands grant, in the sandbox.
@pytest.mark.parametrize("command", [
    "src/../cat a.txt",
    "/usr/bin/cat a.txt",
])
def test_a_program_from_the_project_is_never_a_look_around(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")


DENY_CLASS = [
    "cat /proc/1//environ",
]


@pytest.mark.parametrize("command", DENY_CLASS)
def test_deny_class_examples_are_refused_in_every_mode(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision == "refuse", (command, decision.reason)
