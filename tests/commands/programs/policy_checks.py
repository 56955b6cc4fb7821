"""The checks the command-policy case tables run, each written once: a program's file
(test_<program>.py) holds its cases and names the check, `test_x = case_test(x, "command", CASES)`.

The name a test is collected under is the module attribute it is assigned to, so its ids are the
same in every program's file (`test_rm.py::test_hard_deny_list_refuses_every_spelling[rm -rf /]`).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import READ_ONLY, check, project, pytest_project, scripts_project

from konstruct_tui.commands import PolicyConfig, decide


def case_test(body: Callable[..., None], argnames: str | Sequence[str], cases: list) -> Callable[..., None]:
    """A test running `body` for each case (a new function each time: marks never pile up on `body`)."""

    @functools.wraps(body)
    def test(*args: object, **kwargs: object) -> None:
        body(*args, **kwargs)

    return pytest.mark.parametrize(argnames, cases)(test)


def a_command_run_in_another_folder_is_judged_fully_from_there(command: str, rule: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", rule)


def a_look_around_that_reads_a_device_or_a_pipe_asks(command: str, tmp_path: Path) -> None:
    (tmp_path / "zero-link").symlink_to("/dev/zero")
    (tmp_path / "pagemap-link").symlink_to("/proc/self/pagemap")
    os.mkfifo(tmp_path / "pipe")
    assert answer(command, tmp_path) == ("ask", "needs_grant")


def a_program_from_the_project_is_never_a_look_around(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")


def a_program_from_the_project_is_never_admitted_by_a_preset(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path, presets=["python"]) == ("refuse", "allowlist")


def a_project_script_is_judged_with_everything_its_runner_may_run(files: dict[str, str], command: str,
                                                                       tmp_path: Path) -> None:
    decision = decide(command, scripts_project(tmp_path, files))
    assert (decision.decision, decision.rule) == ("refuse", "deny")


def a_test_runner_s_argument_file_is_not_the_project_s_script(command: str, tmp_path: Path) -> None:
    decision = decide(command, pytest_project(tmp_path))
    assert (decision.decision, decision.rule) == ("ask", "needs_grant")


def allowlist_entries_are_argv_rules(allow: list[str], presets: list[str], command: str, expected: str) -> None:
    decision = decide(command, PolicyConfig.build(presets, allow))
    assert decision.decision == expected, decision.reason
    if expected == "allow":
        assert (decision.rule, decision.capability) == ("allowlist", None)


def allowlist_escapes_are_never_allowed(command: str, allow: list[str], presets: list[str]) -> None:
    for config in (None, PolicyConfig.build(presets, allow), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision != "allow", (command, decision.rule, decision.reason)


def any_program_naming_a_disk_device_is_on_the_hard_deny_list(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


def code_inside_strings_is_held_to_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


def deny_class_examples_are_refused_in_every_mode(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision == "refuse", (command, decision.reason)


def everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


def hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


def inline_code_that_decodes_and_runs_a_string_is_refused_even_when_its_interpreter_is_allowed(command: str) -> None:
    for config in (None, PolicyConfig.build(["python"]), PolicyConfig.build([], ["perl"])):
        decision = decide(command, config)
        assert (decision.decision, decision.rule) == ("refuse", "unreadable_expansion"), decision.reason
    assert check("python -c \"import base64; print(base64.b64decode(b'aGk='))\"").decision == "ask"


def inspecting_a_disk_or_writing_to_dev_null_is_not_denied(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")


def issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


def more_deny_class_spellings_are_refused(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        assert decide(command, config).decision == "refuse", command


def more_spellings_of_the_hard_deny_list_hold(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


def other_refusals_name_their_rule(command: str, rule: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", rule), decision.reason


def output_options_aimed_at_the_machine_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


def project_scripts_run_as_written(tmp_path: Path, command: str, decision: str) -> None:
    result = decide(command, project(tmp_path))
    assert result.decision == decision, result.reason
    if decision == "allow":
        assert (result.rule, result.capability) == ("project_script", "scripts")
    if decision == "refuse":
        assert result.rule == "deny"  # the script body is held to the hard deny list


def quoting_tricks_and_unpacking_over_the_machine_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


def read_only_commands_are_allowed_confined_read_only(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert (decision.decision, decision.rule, decision.confinement, decision.capability) == (
        "allow", "read_only", "read-only", None), decision.reason
    assert decision.to_json()["confinement"] == "read-only"


def read_only_rules_refuse_what_executes_writes_or_redirects(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert decision.decision != "allow" and decision.confinement is None, decision.reason


def shells_and_eval_cannot_smuggle_compound_commands(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "shell_wrapper"), decision.reason


def spellings_found_by_attacking_the_policy_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


def spellings_the_tools_themselves_reject_stay_harmless_look_arounds(command: str, tmp_path: Path) -> None:
    """git's revision options take no abbreviations and find's primaries none: these fail in the tool
    (`unrecognized argument`), so allowing them writes nothing. Pinned so a change is noticed."""
    assert answer(command, tmp_path) == ("allow", "read_only")


def the_agent_never_drives_konstruct_s_own_controls(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "self_grant")


def unknown_wrapper_options_ask_and_are_never_allowlisted(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.capability) == ("ask", "commands"), decision.reason
    assert decision.reason.count("option") >= 1
    inner = command.split()[-1]
    assert decide(command, PolicyConfig.build([], ["timeout", "nice", "env", "strace", inner])).decision == "refuse"
