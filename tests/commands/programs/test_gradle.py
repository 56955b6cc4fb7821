"""`gradle` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/build.py."""

from __future__ import annotations

import pytest
from policy_cases import check

from konstruct_tui.commands import PolicyConfig, decide


ASKED = [
    './gradlew test --tests "com.x.FooTest"',
    "gradle build",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


ALLOWLIST = [
    ([], ["java"], "./gradlew -I evil.gradle test", "refuse"),
]


@pytest.mark.parametrize(("allow", "presets", "command", "expected"), ALLOWLIST)
def test_allowlist_entries_are_argv_rules(allow: list[str], presets: list[str], command: str, expected: str) -> None:
    decision = decide(command, PolicyConfig.build(presets, allow))
    assert decision.decision == expected, decision.reason
    if expected == "allow":
        assert (decision.rule, decision.capability) == ("allowlist", None)
