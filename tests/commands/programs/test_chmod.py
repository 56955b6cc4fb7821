"""`chmod` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/system.py."""

from __future__ import annotations

from policy_cases import check
from policy_checks import (
    case_test,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
)


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


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


ASKED = [
    "chmod +x scripts/build.sh",
    "chmod -R 755 build",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


def test_recursive_permission_changes_outside_the_project_are_refused() -> None:
    for command in ("chmod -R 777 ~+/..", "chown -R me ../other", "chmod -R 000 ~/Documents"):
        assert (check(command).decision, check(command).rule) == ("refuse", "outside_workspace"), command
    assert check("chmod -R 755 build").decision == "ask"
