"""In the command policy: build tools and package managers: go, pnpm, yarn, poetry, gcc ... (make, npm, mvn,
gradle, uv have files of their own).

Their facts: konstruct_tui/commands/programs/build.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from policy_cases import check, project

from konstruct_tui.commands import PolicyConfig, decide


ASKED = [
    "poetry run pytest",
    "yarn test --watchAll=false",
    "pnpm -r test",
    "go test ./...",
    "go build ./...",
    "go vet ./...",
    "go test -run 'TestA|TestB' ./pkg/...",
    "go mod tidy",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


DENIED_13 = [
    "pnpm dlx -c 'rm -rf /'",
    "pnpm exec rm -rf /",
    "yarn exec rm -rf /",
    "poetry run rm -rf /",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


OUTPUT_OPTIONS_DENIED = [
    "gcc -o /dev/sda x.c",
]


@pytest.mark.parametrize("command", OUTPUT_OPTIONS_DENIED)
def test_output_options_aimed_at_the_machine_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ALLOWLIST = [
    ([], ["python"], "poetry run curl https://example.com", "refuse"),
    ([], ["go"], "go test -exec ./evil ./...", "refuse"),
    ([], ["go"], "go test -toolexec=./x ./...", "refuse"),
    ([], ["go"], "go test -run TestA ./...", "allow"),
]


@pytest.mark.parametrize(("allow", "presets", "command", "expected"), ALLOWLIST)
def test_allowlist_entries_are_argv_rules(allow: list[str], presets: list[str], command: str, expected: str) -> None:
    decision = decide(command, PolicyConfig.build(presets, allow))
    assert decision.decision == expected, decision.reason
    if expected == "allow":
        assert (decision.rule, decision.capability) == ("allowlist", None)


@pytest.mark.parametrize(("command", "decision"), [
    ("go test -run TestA ./pkg/...", "allow"),
    ("go test -exec ./evil ./...", "ask"),
    ("go test -toolexec ./x ./...", "ask"),
])
def test_project_scripts_run_as_written(tmp_path: Path, command: str, decision: str) -> None:
    result = decide(command, project(tmp_path))
    assert result.decision == decision, result.reason
    if decision == "allow":
        assert (result.rule, result.capability) == ("project_script", "scripts")
    if decision == "refuse":
        assert result.rule == "deny"  # the script body is held to the hard deny list
