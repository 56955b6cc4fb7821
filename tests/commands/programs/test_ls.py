"""`ls` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/files.py."""

from __future__ import annotations

from pathlib import Path

from program_answers import answer
from policy_cases import check
from policy_checks import (
    case_test,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    other_refusals_name_their_rule,
    read_only_commands_are_allowed_confined_read_only,
    read_only_rules_refuse_what_executes_writes_or_redirects,
)

from konstruct_tui.commands import PolicyConfig, decide


DENIED = [
    "ls | xargs rm -rf /",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


OTHER_REFUSALS = [
    ("LD_PRELOAD=/tmp/x.so ls", "env_injection"),
    ("PATH=/tmp/evil:/usr/bin ls", "env_injection"),
]


test_other_refusals_name_their_rule = case_test(other_refusals_name_their_rule, ("command", "rule"), OTHER_REFUSALS)


ASKED = [
    "ls",
    "ls -la",
    "ls -la src/",
    "ls -la ~",
    "ls /",
    "  ls -la  \r\n",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


def test_control_characters_that_hide_text_are_refused() -> None:
    for command in ("ls \x1b[2K rm", "echo \u202eabc", "ls\x00", "rm -rf /\u200b", "r\u200bm -rf /", "ls \ufeff"):
        assert check(command).decision == "refuse", repr(command)


test_read_only_commands_are_allowed_confined_read_only = case_test(
    read_only_commands_are_allowed_confined_read_only, "command", [
    "ls",
    "ls -la src",
])


test_read_only_rules_refuse_what_executes_writes_or_redirects = case_test(
    read_only_rules_refuse_what_executes_writes_or_redirects, "command", [
    "CI=1 ls",
    "/bin/ls",
])


def test_without_a_read_only_sandbox_read_only_commands_ask_as_today() -> None:
    for command in ("ls", "git status", "cat x"):
        decision = decide(command, PolicyConfig())
        assert (decision.decision, decision.rule, decision.confinement) == ("ask", "needs_grant", None)


def test_allowlist_mode_keeps_its_list_and_a_chain_of_read_only_steps_is_confined() -> None:
    config = PolicyConfig.build([], ["pytest"], read_only_sandbox=True)
    assert decide("ls", config).rule == "allowlist" and decide("ls", config).decision == "refuse"
    chained = decide("ls && git status", PolicyConfig(chains=True, read_only_sandbox=True))
    assert (chained.decision, chained.rule, chained.confinement) == ("allow", "chain", "read-only")
    mixed = decide("ls && curl http://localhost", PolicyConfig(chains=True, read_only_sandbox=True))
    assert (mixed.decision, mixed.confinement) == ("ask", None)


def test_wrappers_within_the_budget_are_still_read(tmp_path: Path) -> None:
    assert answer("env " * 31 + "ls", tmp_path) == ("ask", "needs_grant")
    assert answer("env " * 32 + "ls", tmp_path) == ("ask", "needs_grant")
