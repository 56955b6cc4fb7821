"""`gradle` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/build.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    allowlist_entries_are_argv_rules,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
)


ASKED = [
    './gradlew test --tests "com.x.FooTest"',
    "gradle build",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


ALLOWLIST = [
    ([], ["java"], "./gradlew -I evil.gradle test", "refuse"),
]


test_allowlist_entries_are_argv_rules = case_test(
    allowlist_entries_are_argv_rules, ("allow", "presets", "command", "expected"), ALLOWLIST)
