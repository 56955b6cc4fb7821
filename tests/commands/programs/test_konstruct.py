"""`konstruct` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: none in the program table: the rules judge it by its words."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_checks import (
    case_test,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    other_refusals_name_their_rule,
    the_agent_never_drives_konstruct_s_own_controls,
)


OTHER_REFUSALS = [
    ("konstruct trust grant commands", "self_grant"),
    ("konstruct trust revoke", "self_grant"),
    ("konstruct policy set --preset python", "self_grant"),
]


test_other_refusals_name_their_rule = case_test(other_refusals_name_their_rule, ("command", "rule"), OTHER_REFUSALS)


ASKED = [
    "konstruct trust list",
    "konstruct policy check -- ls",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


# Broke before: `konstruct sandbox set --mode full` only asked, and an option value that spells a
# command (`--model policy`) hid `policy set`. konstruct is now read with its own option table and
# the agent may run it only to look.
test_the_agent_never_drives_konstruct_s_own_controls = case_test(
    the_agent_never_drives_konstruct_s_own_controls, "command", [
    "konstruct sandbox set --mode full",
    "konstruct sandbox clear",
    "konstruct --model policy policy set --preset python",
    "konstruct --root=. policy set",
    "konstruct --root . trust grant commands",
    "konstruct tool run_command --json '{\"command\": \"id\"}'",
    "konstruct run --yes 'do it'",
    "konstruct mcp",
    "konstruct undo",
    "konstruct",
    "konstruct --weird trust grant edit",
])


@pytest.mark.parametrize("command", [
    "konstruct trust list",
    "konstruct policy check -- trust grant edit",
    "konstruct --root . policy show",
    "konstruct sandbox check",
    "konstruct tools",
    "konstruct graph export --format json",
    "konstruct --version",
])
def test_looking_with_konstruct_is_an_ordinary_command(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")
