"""`pkill` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: none in the program table: the rules judge it by its words."""

from __future__ import annotations

import pytest
from policy_cases import check


SELF_ATTACK_DENIED = [
    "pkill -9 -u root",
    "pkill -u $USER",
    "killall -9 -r .",
    "pkill -f .",
]


@pytest.mark.parametrize("command", SELF_ATTACK_DENIED)
def test_spellings_found_by_attacking_the_policy_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason
