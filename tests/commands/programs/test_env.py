"""env: `-S` split strings are read the way env reads them; a variable in one is never allowed."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import READ_ONLY, check, project

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


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


OTHER_REFUSALS = [
    ("env LD_PRELOAD=/tmp/x.so ls", "env_injection"),
]


@pytest.mark.parametrize(("command", "rule"), OTHER_REFUSALS)
def test_other_refusals_name_their_rule(command: str, rule: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", rule), decision.reason


ASKED = [
    "env",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


DENIED_13 = [
    "env -iS 'rm -rf /'",
    "env -i -S 'rm -rf /'",
    "env --split-string='rm -rf /'",
    "env --split 'rm -rf /'",
    "env -u HOME -S 'rm -rf /'",
    "env -C / rm -rf bin",
    "env -- rm -rf /",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


UNKNOWN_WRAPPER_OPTIONS = [
    "env --whatever ls",
]


@pytest.mark.parametrize("command", UNKNOWN_WRAPPER_OPTIONS)
def test_unknown_wrapper_options_ask_and_are_never_allowlisted(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.capability) == ("ask", "commands"), decision.reason
    assert decision.reason.count("option") >= 1
    inner = command.split()[-1]
    assert decide(command, PolicyConfig.build([], ["timeout", "nice", "env", "strace", inner])).decision == "refuse"


SELF_ATTACK_DENIED = [
    "env -S\"rm -rf /\"",
    "env -vS 'rm -rf /'",
]


@pytest.mark.parametrize("command", SELF_ATTACK_DENIED)
def test_spellings_found_by_attacking_the_policy_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


@pytest.mark.parametrize("command", [
    "env ls",
])
def test_read_only_rules_refuse_what_executes_writes_or_redirects(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert decision.decision != "allow" and decision.confinement is None, decision.reason


@pytest.mark.parametrize(("command", "decision"), [
    ("env npm test", "ask"),
])
def test_project_scripts_run_as_written(tmp_path: Path, command: str, decision: str) -> None:
    result = decide(command, project(tmp_path))
    assert result.decision == decision, result.reason
    if decision == "allow":
        assert (result.rule, result.capability) == ("project_script", "scripts")
    if decision == "refuse":
        assert result.rule == "deny"  # the script body is held to the hard deny list


# Broke before: a disk device written by a tool the deny list had no table for (asked instead).
@pytest.mark.parametrize("command", [
    "env pv /dev/zero -o /dev/mmcblk0",
])
def test_any_program_naming_a_disk_device_is_on_the_hard_deny_list(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


@pytest.mark.parametrize(("command", "rule"), [
    ("env -C /etc cat shadow", "secrets"),
    ("env -C .. rm -rf project", "outside_workspace"),
])
def test_a_command_run_in_another_folder_is_judged_fully_from_there(command: str, rule: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", rule)


DENY_CLASS = [
    "env -iS 'rm -rf /'",
]


@pytest.mark.parametrize("command", DENY_CLASS)
def test_deny_class_examples_are_refused_in_every_mode(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision == "refuse", (command, decision.reason)
