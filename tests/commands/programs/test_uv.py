"""`uv` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/build.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    allowlist_entries_are_argv_rules,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    issue_13_spellings_are_refused_by_the_deny_list,
    spellings_found_by_attacking_the_policy_are_refused,
    the_agent_never_drives_konstruct_s_own_controls,
)


ASKED = [
    "uv run pytest",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "uv run rm -rf /",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


SELF_ATTACK_DENIED = [
    "uvx --from x rm -rf /",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


ALLOWLIST = [
    ([], ["python"], "uv run pytest -q", "allow"),
    ([], ["python"], "uv run rm -rf build", "refuse"),
]


test_allowlist_entries_are_argv_rules = case_test(
    allowlist_entries_are_argv_rules, ("allow", "presets", "command", "expected"), ALLOWLIST)


# Broke before: `konstruct sandbox set --mode full` only asked, and an option value that spells a
# command (`--model policy`) hid `policy set`. konstruct is now read with its own option table and
# the agent may run it only to look.
test_the_agent_never_drives_konstruct_s_own_controls = case_test(
    the_agent_never_drives_konstruct_s_own_controls, "command", [
    "uv run konstruct sandbox set --unsandboxed run",
])
