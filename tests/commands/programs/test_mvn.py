"""`mvn` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/build.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from policy_checks import (
    case_test,
    allowlist_entries_are_argv_rules,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
)

from konstruct_tui.commands import PolicyConfig, decide, discover_scripts
from konstruct_tui.workspace import Workspace


ASKED = [
    "mvn -q test",
    "mvn -Dtest=FooTest test",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


ALLOWLIST = [
    ([], ["java"], "mvn -f /tmp/evil.xml test", "refuse"),
]


test_allowlist_entries_are_argv_rules = case_test(
    allowlist_entries_are_argv_rules, ("allow", "presets", "command", "expected"), ALLOWLIST)


@pytest.mark.parametrize(("command", "decision"), [
    ("mvn test", "allow"),
    ("mvn -q test", "allow"),
    ("mvn -Dtest=FooTest test", "allow"),
    ("mvn -Pci test", "allow"),
    ("mvn -Dexec.executable=/bin/sh test", "ask"),
    ("mvn -Dmaven.repo.local=/ test", "ask"),
    ("mvn test -f evil.xml", "ask"),
])
def test_maven_scripts_take_only_flags_that_pick_tests(tmp_path: Path, command: str, decision: str) -> None:
    (tmp_path / "pom.xml").write_text("<project/>")
    with Workspace(tmp_path) as ws:
        config = PolicyConfig(scripts=tuple(discover_scripts(ws)), root=ws.root)
    assert decide(command, config).decision == decision
