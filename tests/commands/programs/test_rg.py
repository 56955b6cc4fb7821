"""rg: a look around, unless it is told to run a program on what it searches (`--pre`) or to start
decompressors found on PATH (`-z`) (its facts: commands/programs/search.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import READ_ONLY, check

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


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


DENIED_13 = [
    "rg --pre 'rm -rf /' x",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ALLOWLIST = [
    # (allow entries, presets, command, decision)
    (["rg"], [], "rg -n foo src", "allow"),
    (["rg"], [], "rg --pre rm foo .", "refuse"),
    (["rg"], [], "rg --pre=rm foo .", "refuse"),
    (["rg --pre"], [], "rg --pre cat foo .", "allow"),
    ([], ["python"], "rg --pre rm x .", "refuse"),
]


@pytest.mark.parametrize(("allow", "presets", "command", "expected"), ALLOWLIST)
def test_allowlist_entries_are_argv_rules(allow: list[str], presets: list[str], command: str, expected: str) -> None:
    decision = decide(command, PolicyConfig.build(presets, allow))
    assert decision.decision == expected, decision.reason
    if expected == "allow":
        assert (decision.rule, decision.capability) == ("allowlist", None)


def test_a_refusal_names_the_option_and_how_to_list_it() -> None:
    decision = decide("rg --pre cat foo .", PolicyConfig.build([], ["rg"]))
    assert "--pre" in decision.reason and "lists that option" in decision.reason


@pytest.mark.parametrize("command", [
    "rg -n foo src",
])
def test_read_only_commands_are_allowed_confined_read_only(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert (decision.decision, decision.rule, decision.confinement, decision.capability) == (
        "allow", "read_only", "read-only", None), decision.reason
    assert decision.to_json()["confinement"] == "read-only"


@pytest.mark.parametrize("command", [
    "rg --pre rm foo .",
    "rg --pre=cat x",
])
def test_read_only_rules_refuse_what_executes_writes_or_redirects(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert decision.decision != "allow" and decision.confinement is None, decision.reason


NEVER_ALLOWED = [
    ("rg --pre rm -n x .", ["rg"], []),
]


@pytest.mark.parametrize(("command", "allow", "presets"), NEVER_ALLOWED)
def test_allowlist_escapes_are_never_allowed(command: str, allow: list[str], presets: list[str]) -> None:
    for config in (None, PolicyConfig.build(presets, allow), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision != "allow", (command, decision.rule, decision.reason)
