"""`pkill` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: none in the program table: the rules judge it by its words."""

from __future__ import annotations

from policy_checks import case_test, spellings_found_by_attacking_the_policy_are_refused


SELF_ATTACK_DENIED = [
    "pkill -9 -u root",
    "pkill -u $USER",
    "killall -9 -r .",
    "pkill -f .",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)
