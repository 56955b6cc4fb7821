"""In the command policy: zip, unzip, 7z and the other archivers (tar has test_tar.py).

Their facts: konstruct_tui/commands/programs/archives.py."""

from __future__ import annotations

import pytest
from policy_cases import check


DENIED = [
    'zip x.zip x -T -TT "rm -rf /"',
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


DENIED_13 = [
    "zip -T --unzip-command='rm -rf /' x.zip x",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


QUOTING_AND_UNPACKING_DENIED = [
    "unzip evil.zip -d /",
    "unzip -o evil.zip -d ~",
]


@pytest.mark.parametrize("command", QUOTING_AND_UNPACKING_DENIED)
def test_quoting_tricks_and_unpacking_over_the_machine_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason
