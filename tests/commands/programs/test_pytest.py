"""`pytest` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/test_tools.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import check, project, pytest_project

from konstruct_tui.commands import PolicyConfig, decide


ASKED = [
    "pytest",
    "pytest -q tests/test_x.py",
    "pytest -x -q",
    "pytest -q\n",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


ALLOWLIST = [
    ([], ["python"], "CI=1 pytest", "refuse"),
    ([], ["python"], "pytest -p evil_plugin", "refuse"),
    ([], ["python"], "pytest --basetemp=/home/someone", "refuse"),
    ([], ["python"], "pytest -c /tmp/evil.ini", "refuse"),
]


@pytest.mark.parametrize(("allow", "presets", "command", "expected"), ALLOWLIST)
def test_allowlist_entries_are_argv_rules(allow: list[str], presets: list[str], command: str, expected: str) -> None:
    decision = decide(command, PolicyConfig.build(presets, allow))
    assert decision.decision == expected, decision.reason
    if expected == "allow":
        assert (decision.rule, decision.capability) == ("allowlist", None)


@pytest.mark.parametrize(("command", "decision"), [
    ("pytest -q -k smoke tests/test_a.py", "allow"),
    ("pytest -p evil_plugin", "ask"),
    ("pytest /tmp/test_evil.py", "ask"),
    ("pytest ../other/test_x.py", "ask"),
    ("pytest -c /tmp/x.ini", "ask"),
    ("pytest --rootdir=/", "ask"),
])
def test_project_scripts_run_as_written(tmp_path: Path, command: str, decision: str) -> None:
    result = decide(command, project(tmp_path))
    assert result.decision == decision, result.reason
    if decision == "allow":
        assert (result.rule, result.capability) == ("project_script", "scripts")
    if decision == "refuse":
        assert result.rule == "deny"  # the script body is held to the hard deny list


# Broke before: `pytest ./..` passed as the project's own test script and collected the parent
# folder (its conftest.py included); paths are now judged on their normal form.
@pytest.mark.parametrize("command", [
    "pytest ./..",
    "pytest .//..",
    "pytest tests/..//..",
    "pytest -q ./../other/tests",
])
def test_a_test_path_above_the_project_is_not_the_project_s_script(command: str, tmp_path: Path) -> None:
    decision = decide(command, pytest_project(tmp_path))
    assert (decision.decision, decision.rule) == ("ask", "needs_grant")


@pytest.mark.parametrize("command", [
    "pytest -q tests",
    "pytest tests/../tests",
    "pytest tests/test_a.py::test_a",
])
def test_test_paths_inside_the_project_stay_the_project_s_script(command: str, tmp_path: Path) -> None:
    decision = decide(command, pytest_project(tmp_path))
    assert (decision.decision, decision.rule) == ("allow", "project_script")


@pytest.mark.parametrize("command", [
    "bin/pytest -q",
])
def test_a_program_from_the_project_is_never_admitted_by_a_preset(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path, presets=["python"]) == ("refuse", "allowlist")


# Broke before: pytest reads more options from `@FILE` (one per line: `-p`, `evil_plugin`), past the
# test runner's list of safe options.
@pytest.mark.parametrize("command", [
    "pytest @args.txt",
    "pytest -q @tests/args",
])
def test_a_test_runner_s_argument_file_is_not_the_project_s_script(command: str, tmp_path: Path) -> None:
    decision = decide(command, pytest_project(tmp_path))
    assert (decision.decision, decision.rule) == ("ask", "needs_grant")
