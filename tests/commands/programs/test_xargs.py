"""`xargs` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/runners.py."""

from __future__ import annotations

import pytest
from policy_cases import check

from konstruct_tui.commands import PolicyConfig, decide


DENIED = [
    "xargs rm -rf /",
    "xargs sh -c 'rm -rf /'",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


SHELL_WRAPPED = [
    "xargs sh -c 'ls; ls'",
]


@pytest.mark.parametrize("command", SHELL_WRAPPED)
def test_shells_and_eval_cannot_smuggle_compound_commands(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "shell_wrapper"), decision.reason


DENIED_13 = [
    "xargs --max-args 1 rm -rf /",
    "xargs -n 1 rm -rf /",
    "xargs -I{} rm -rf /",
    "xargs --max-args=1 rm -rf /",
    "xargs -a list.txt rm -rf /",
    "xargs -0 -P 4 rm -rf /",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


SELF_ATTACK_DENIED = [
    "xargs -r -0 rm -rf /",
    "xargs -L1 rm -rf /",
    "xargs -eEOF rm -rf /",
    "xargs -s 1000 rm -rf /",
]


@pytest.mark.parametrize("command", SELF_ATTACK_DENIED)
def test_spellings_found_by_attacking_the_policy_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


DENY_CLASS = [
    "xargs --max-args 1 rm -rf /",
]


@pytest.mark.parametrize("command", DENY_CLASS)
def test_deny_class_examples_are_refused_in_every_mode(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision == "refuse", (command, decision.reason)
