"""`make` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/build.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from policy_cases import check, project, scripts_project

from konstruct_tui.commands import PolicyConfig, decide


ASKED = [
    "make",
    "make test",
    "make -j4 build",
    'make CFLAGS="-O2 -g"',
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


DENIED_13 = [
    "make --eval='x:;rm -rf /' x",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ALLOWLIST = [
    (["make"], [], "make test", "allow"),
    (["make"], [], "make test -f evil.mk", "refuse"),
    (["make"], [], "make -fevil.mk test", "refuse"),
    (["make"], [], "make --eval='x:' test", "refuse"),
    (["make"], [], "make -C /elsewhere test", "refuse"),
    (["make"], [], "make SHELL=./evil.sh test", "refuse"),
    (["make"], [], "make test CC=./evil", "refuse"),
    (["make CFLAGS=-O2"], [], "make CFLAGS=-O2", "allow"),
]


@pytest.mark.parametrize(("allow", "presets", "command", "expected"), ALLOWLIST)
def test_allowlist_entries_are_argv_rules(allow: list[str], presets: list[str], command: str, expected: str) -> None:
    decision = decide(command, PolicyConfig.build(presets, allow))
    assert decision.decision == expected, decision.reason
    if expected == "allow":
        assert (decision.rule, decision.capability) == ("allowlist", None)


@pytest.mark.parametrize(("command", "decision"), [
    ("make test", "allow"),
    ("make test -f evil.mk", "ask"),
    ("make test -fevil.mk", "ask"),
    ("make test --file=evil.mk", "ask"),
    ("make test --makefile evil.mk", "ask"),
    ("make test -C /elsewhere", "ask"),
    ("make test --eval=x", "ask"),
    ("make test SHELL=./evil.sh", "ask"),
    ("make test -I /tmp", "ask"),
    ("make test -- extra", "ask"),
    ("make nuke", "refuse"),
])
def test_project_scripts_run_as_written(tmp_path: Path, command: str, decision: str) -> None:
    result = decide(command, project(tmp_path))
    assert result.decision == decision, result.reason
    if decision == "allow":
        assert (result.rule, result.capability) == ("project_script", "scripts")
    if decision == "refuse":
        assert result.rule == "deny"  # the script body is held to the hard deny list


# Broke before: only the named script's body was held to the hard deny list, while npm runs
# `preNAME`/`postNAME` around it, a body may call another script, and make runs prerequisites first.
@pytest.mark.parametrize(("files", "command"), [
    ({"Makefile": "test: setup\n\tpytest\n\nsetup:\n\trm -rf /\n"}, "make test"),
    ({"Makefile": "all:\n\t$(MAKE) clean\n\nclean:\n\trm -rf ~\n"}, "make all"),
])
def test_a_project_script_is_judged_with_everything_its_runner_may_run(files: dict[str, str], command: str,
                                                                       tmp_path: Path) -> None:
    decision = decide(command, scripts_project(tmp_path, files))
    assert (decision.decision, decision.rule) == ("refuse", "deny")


@pytest.mark.parametrize(("files", "command"), [
    ({"Makefile": "lint: $(CHECK)\n\truff .\n\nCHECK = clean\nclean:\n\trm -rf ~\n"}, "make lint"),
    ({"Makefile": "test: ; rm -rf /\n"}, "make test"),
    ({"Makefile": "all:\n\t$(MAKE) $(WHAT)\n\nwipe:\n\trm -rf /\n"}, "make all"),
])
def test_make_variables_and_inline_recipes_are_judged_too(files: dict[str, str], command: str, tmp_path: Path) -> None:
    decision = decide(command, scripts_project(tmp_path, files))
    assert (decision.decision, decision.rule) == ("refuse", "deny")


NEVER_ALLOWED = [
    ("make test -f evil.mk", ["make test"], []),
]


@pytest.mark.parametrize(("command", "allow", "presets"), NEVER_ALLOWED)
def test_allowlist_escapes_are_never_allowed(command: str, allow: list[str], presets: list[str]) -> None:
    for config in (None, PolicyConfig.build(presets, allow), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision != "allow", (command, decision.rule, decision.reason)


@pytest.mark.parametrize("command", ["gmake SHELL=/tmp/x test", "make CC=./evil build"])
def test_a_variable_operand_of_make_is_admitted_only_when_the_entry_lists_it(command: str, tmp_path: Path) -> None:
    decision = decide(command, PolicyConfig.build(root=tmp_path, allow=["make", "gmake"]))
    assert decision.decision != "allow" and "make variable" in decision.reason
