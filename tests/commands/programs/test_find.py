"""find: its actions (`-delete`, `-exec`, `-fprint`) and the filters that must come before them."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import READ_ONLY, check

from konstruct_tui.commands import PolicyConfig, decide


def test_find_deletes_everything_when_the_action_comes_before_the_filter() -> None:
    assert decide("find . -delete -name x").rule == "destructive"
    assert decide("find . -name x -delete").decision == "ask"


DENIED = [
    "find . -exec sh -c 'rm -rf /' \\;",
    "find / -delete",
    "find ~ -delete",
    "find / -name x -exec rm -rf {} +",
    "find / -exec rm -rf {} \\;",
    "find $HOME -delete",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


SHELL_WRAPPED = [
    "find . -exec sh -c 'ls | wc -l' \\;",
]


@pytest.mark.parametrize("command", SHELL_WRAPPED)
def test_shells_and_eval_cannot_smuggle_compound_commands(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "shell_wrapper"), decision.reason


OTHER_REFUSALS = [
    ("find . -delete", "destructive"),
    ("find . -exec rm -rf {} \\;", "destructive"),
    ("find ~/Documents -delete", "outside_workspace"),
    ("find .. -delete", "outside_workspace"),
]


@pytest.mark.parametrize(("command", "rule"), OTHER_REFUSALS)
def test_other_refusals_name_their_rule(command: str, rule: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", rule), decision.reason


ASKED = [
    "find . -name '*.py' -type f",
    'find . -name "*.pyc" -delete',
    "find . -name '*.pyc' -exec rm -f {} \\;",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


SELF_ATTACK_DENIED = [
    "find . -fprintf /etc/passwd x",
    "find / -maxdepth 0 -exec rm -rf {} \\;",
    "find ~ -execdir rm {} \\;",
]


@pytest.mark.parametrize("command", SELF_ATTACK_DENIED)
def test_spellings_found_by_attacking_the_policy_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ALLOWLIST = [
    (["find"], [], "find . -name '*.py'", "allow"),
    (["find"], [], "find . -name x -delete", "refuse"),
    (["find"], [], "find . -fprintf /tmp/x %p", "refuse"),
    (["find"], [], "find . -exec cat {} +", "refuse"),
]


@pytest.mark.parametrize(("allow", "presets", "command", "expected"), ALLOWLIST)
def test_allowlist_entries_are_argv_rules(allow: list[str], presets: list[str], command: str, expected: str) -> None:
    decision = decide(command, PolicyConfig.build(presets, allow))
    assert decision.decision == expected, decision.reason
    if expected == "allow":
        assert (decision.rule, decision.capability) == ("allowlist", None)


@pytest.mark.parametrize("command", [
    "find . -name '*.py' -type f",
])
def test_read_only_commands_are_allowed_confined_read_only(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert (decision.decision, decision.rule, decision.confinement, decision.capability) == (
        "allow", "read_only", "read-only", None), decision.reason
    assert decision.to_json()["confinement"] == "read-only"


@pytest.mark.parametrize("command", [
    "find . -exec cat {} +",
    "find src -delete",
    "find . -fprint /tmp/x",
    "find . -fprintf /tmp/x %p",
    "find . -fls /tmp/x",
])
def test_read_only_rules_refuse_what_executes_writes_or_redirects(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert decision.decision != "allow" and decision.confinement is None, decision.reason


# Held, not yet tested.
@pytest.mark.parametrize("command", [
    "find /. -delete",
])
def test_more_spellings_of_the_hard_deny_list_hold(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


@pytest.mark.parametrize("command", [
    "find . -fprin /tmp/x",
])
def test_spellings_the_tools_themselves_reject_stay_harmless_look_arounds(command: str, tmp_path: Path) -> None:
    """git's revision options take no abbreviations and find's primaries none: these fail in the tool
    (`unrecognized argument`), so allowing them writes nothing. Pinned so a change is noticed."""
    assert answer(command, tmp_path) == ("allow", "read_only")
