"""rg: a look around, unless it is told to run a program on what it searches (`--pre`) or to start
decompressors found on PATH (`-z`) (its facts: commands/programs/search.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_checks import (
    case_test,
    allowlist_entries_are_argv_rules,
    allowlist_escapes_are_never_allowed,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    issue_13_spellings_are_refused_by_the_deny_list,
    read_only_commands_are_allowed_confined_read_only,
    read_only_rules_refuse_what_executes_writes_or_redirects,
)

from konstruct_tui.commands import PolicyConfig, decide


# Broke before: look-arounds that start other programs found on PATH (which may name a folder in the
# project): rg's decompressors, file's.
@pytest.mark.parametrize("command", ["rg -z needle", "rg --search-zip needle", "rg -nz needle", "file -z a.gz",
                                     "file --uncompress a.gz"])
def test_a_look_around_that_starts_decompressors_asks(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")


ASKED = [
    'rg "a;b" src',
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "rg --pre 'rm -rf /' x",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


ALLOWLIST = [
    # (allow entries, presets, command, decision)
    (["rg"], [], "rg -n foo src", "allow"),
    (["rg"], [], "rg --pre rm foo .", "refuse"),
    (["rg"], [], "rg --pre=rm foo .", "refuse"),
    (["rg --pre"], [], "rg --pre cat foo .", "allow"),
    ([], ["python"], "rg --pre rm x .", "refuse"),
]


test_allowlist_entries_are_argv_rules = case_test(
    allowlist_entries_are_argv_rules, ("allow", "presets", "command", "expected"), ALLOWLIST)


def test_a_refusal_names_the_option_and_how_to_list_it() -> None:
    decision = decide("rg --pre cat foo .", PolicyConfig.build([], ["rg"]))
    assert "--pre" in decision.reason and "lists that option" in decision.reason


test_read_only_commands_are_allowed_confined_read_only = case_test(
    read_only_commands_are_allowed_confined_read_only, "command", [
    "rg -n foo src",
])


test_read_only_rules_refuse_what_executes_writes_or_redirects = case_test(
    read_only_rules_refuse_what_executes_writes_or_redirects, "command", [
    "rg --pre rm foo .",
    "rg --pre=cat x",
])


NEVER_ALLOWED = [
    ("rg --pre rm -n x .", ["rg"], []),
]


test_allowlist_escapes_are_never_allowed = case_test(
    allowlist_escapes_are_never_allowed, ("command", "allow", "presets"), NEVER_ALLOWED)
