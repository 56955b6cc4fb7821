"""Programs run from the project's own folder (`./x.sh`): never a look around, never admitted by a
preset."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import READ_ONLY, check

from konstruct_tui.commands import decide


DENIED = [
    "./rm -rf /",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ASKED = [
    "./scripts/build.sh",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


@pytest.mark.parametrize("command", [
    "./ls",
])
def test_read_only_rules_refuse_what_executes_writes_or_redirects(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert decision.decision != "allow" and decision.confinement is None, decision.reason


# Held, pinned: a file the agent wrote (or named like a look-around program) is never a look around,
# nor admitted by a preset; it runs only under the commands grant, in the sandbox.
@pytest.mark.parametrize("command", [
    "./x.sh",
    "./ls",
    "./cat a.txt",
])
def test_a_program_from_the_project_is_never_a_look_around(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")


@pytest.mark.parametrize("command", [
    "./x.sh",
    "./pytest",
    "./cat a.txt",
])
def test_a_program_from_the_project_is_never_admitted_by_a_preset(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path, presets=["python"]) == ("refuse", "allowlist")
