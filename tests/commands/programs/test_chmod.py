"""`chmod` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/system.py."""

from __future__ import annotations

import pytest
from policy_cases import check


DENIED = [
    # permissions of the machine
    "chmod -R 777 /",
    "chmod 777 /",
    "chown -R nobody /",
    "chown -R $USER:$USER /",
    "chmod -R 000 ~",
    "chmod +s /bin/bash",
    "chgrp -R users /etc",
    "chmod 000 -R /",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ASKED = [
    "chmod +x scripts/build.sh",
    "chmod -R 755 build",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


def test_recursive_permission_changes_outside_the_project_are_refused() -> None:
    for command in ("chmod -R 777 ~+/..", "chown -R me ../other", "chmod -R 000 ~/Documents"):
        assert (check(command).decision, check(command).rule) == ("refuse", "outside_workspace"), command
    assert check("chmod -R 755 build").decision == "ask"
