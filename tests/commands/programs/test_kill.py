"""`kill` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: none in the program table: the rules judge it by its words."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import check

from konstruct_tui.commands import PolicyConfig, decide


DENIED = [
    "kill -9 -1",
    "kill -KILL -1",
    "kill -- -1",
    "kill -9 1",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ASKED = [
    "kill 12345",
    "kill -9 12345",
    "kill -1 12345",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


DENIED_13 = [
    "kill -9 -01",
    "kill -9 ' -1'",
    "kill -- -1",
    "kill -SIGKILL -1",
    "kill -s KILL -1",
    "kill -n 9 -1",
    "kill --signal=KILL -1",
    "kill -9 -0001",
    "kill -9 -- -1",
    "kill -KILL +1",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


SELF_ATTACK_DENIED = [
    "kill -1 -1",
]


@pytest.mark.parametrize("command", SELF_ATTACK_DENIED)
def test_spellings_found_by_attacking_the_policy_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


# Held, not yet tested.
@pytest.mark.parametrize("command", [
    "kill -s 9 -- -1",
])
def test_more_spellings_of_the_hard_deny_list_hold(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


DENY_CLASS = [
    "kill -9 -01",
    "kill -9 ' -1'",
]


@pytest.mark.parametrize("command", DENY_CLASS)
def test_deny_class_examples_are_refused_in_every_mode(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision == "refuse", (command, decision.reason)


MORE_DENY_CLASS = [
    "killall5 -9",
]


@pytest.mark.parametrize("command", MORE_DENY_CLASS)
def test_more_deny_class_spellings_are_refused(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        assert decide(command, config).decision == "refuse", command
