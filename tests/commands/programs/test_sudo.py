"""`sudo` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/shells.py."""

from __future__ import annotations

import pytest
from policy_cases import check


DENIED = [
    # wrappers peeled
    "sudo rm -rf /",
    "sudo -u root rm -rf /",
    "doas rm -rf /",
    "sudo mkfs.xfs /dev/nvme0n1",
    "sudo dd if=/dev/zero of=/dev/nvme0n1",
    "su -c 'rm -rf /' root",
    "sudo --user=root rm -rf /",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


SHELL_WRAPPED = [
    "su -c 'ls; ls'",
]


@pytest.mark.parametrize("command", SHELL_WRAPPED)
def test_shells_and_eval_cannot_smuggle_compound_commands(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "shell_wrapper"), decision.reason


OTHER_REFUSALS = [
    ("sudo ls", "privilege"),
    ("sudo -i", "privilege"),
    ("sudo su", "privilege"),
    ("doas sh", "privilege"),
    ("su root", "privilege"),
    ("pkexec ls", "privilege"),
    ("runuser -u bob -- ls", "privilege"),
]


@pytest.mark.parametrize(("command", "rule"), OTHER_REFUSALS)
def test_other_refusals_name_their_rule(command: str, rule: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", rule), decision.reason
