"""`node` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: none in the program table: the rules judge it by its words."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import check


DENIED = [
    "node -e \"require('fs').rmSync('/', {recursive: true})\"",
    "node -e \"require('child_process').execSync('rm -rf ~')\"",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ASKED = [
    "node scripts/build.js",
    'node -e "console.log(process.version)"',
    "node -e \"require('fs').rmSync('dist', {recursive: true})\"",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


SELF_ATTACK_DENIED = [
    "node -e \"require('child_process').spawnSync('rm',['-rf','/'])\"",
]


@pytest.mark.parametrize("command", SELF_ATTACK_DENIED)
def test_spellings_found_by_attacking_the_policy_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


NESTED_CODE_DENIED = [
    "node -e \"require('fs').writeFileSync('/etc/hosts', 'x')\"",
    "node -e \"require('fs').unlinkSync('/bin/ls')\"",
    "node -e \"eval('require(\\\"child_process\\\").execSync(\\\"rm -rf /\\\")')\"",
]


@pytest.mark.parametrize("command", NESTED_CODE_DENIED)
def test_code_inside_strings_is_held_to_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


# Held, not yet tested.
@pytest.mark.parametrize("command", [
    "node -e \"require('child_process').execSync('rm -rf '+'/')\"",
])
def test_more_spellings_of_the_hard_deny_list_hold(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")
