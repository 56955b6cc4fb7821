"""`pytest` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/test_tools.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from policy_cases import pytest_project
from policy_checks import (
    case_test,
    a_program_from_the_project_is_never_admitted_by_a_preset,
    a_test_runner_s_argument_file_is_not_the_project_s_script,
    allowlist_entries_are_argv_rules,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    project_scripts_run_as_written,
)

from konstruct_tui.commands import decide


ASKED = [
    "pytest",
    "pytest -q tests/test_x.py",
    "pytest -x -q",
    "pytest -q\n",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


ALLOWLIST = [
    ([], ["python"], "CI=1 pytest", "refuse"),
    ([], ["python"], "pytest -p evil_plugin", "refuse"),
    ([], ["python"], "pytest --basetemp=/home/someone", "refuse"),
    ([], ["python"], "pytest -c /tmp/evil.ini", "refuse"),
]


test_allowlist_entries_are_argv_rules = case_test(
    allowlist_entries_are_argv_rules, ("allow", "presets", "command", "expected"), ALLOWLIST)


test_project_scripts_run_as_written = case_test(project_scripts_run_as_written, ("command", "decision"), [
    ("pytest -q -k smoke tests/test_a.py", "allow"),
    ("pytest -p evil_plugin", "ask"),
    ("pytest /tmp/test_evil.py", "ask"),
    ("pytest ../other/test_x.py", "ask"),
    ("pytest -c /tmp/x.ini", "ask"),
    ("pytest --rootdir=/", "ask"),
])


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


test_a_program_from_the_project_is_never_admitted_by_a_preset = case_test(
    a_program_from_the_project_is_never_admitted_by_a_preset, "command", [
    "bin/pytest -q",
])


# Broke before: pytest reads more options from `@FILE` (one per line: `-p`, `evil_plugin`), past the
# test runner's list of safe options.
test_a_test_runner_s_argument_file_is_not_the_project_s_script = case_test(
    a_test_runner_s_argument_file_is_not_the_project_s_script, "command", [
    "pytest @args.txt",
    "pytest -q @tests/args",
])
