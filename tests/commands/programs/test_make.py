"""`make` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/build.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from policy_cases import scripts_project
from policy_checks import (
    case_test,
    a_project_script_is_judged_with_everything_its_runner_may_run,
    allowlist_entries_are_argv_rules,
    allowlist_escapes_are_never_allowed,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    issue_13_spellings_are_refused_by_the_deny_list,
    project_scripts_run_as_written,
)

from konstruct_tui.commands import PolicyConfig, decide


ASKED = [
    "make",
    "make test",
    "make -j4 build",
    'make CFLAGS="-O2 -g"',
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "make --eval='x:;rm -rf /' x",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


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


test_allowlist_entries_are_argv_rules = case_test(
    allowlist_entries_are_argv_rules, ("allow", "presets", "command", "expected"), ALLOWLIST)


test_project_scripts_run_as_written = case_test(project_scripts_run_as_written, ("command", "decision"), [
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


# Broke before: only the named script's body was held to the hard deny list, while npm runs
# `preNAME`/`postNAME` around it, a body may call another script, and make runs prerequisites first.
test_a_project_script_is_judged_with_everything_its_runner_may_run = case_test(
    a_project_script_is_judged_with_everything_its_runner_may_run, ("files", "command"), [
    ({"Makefile": "test: setup\n\tpytest\n\nsetup:\n\trm -rf /\n"}, "make test"),
    ({"Makefile": "all:\n\t$(MAKE) clean\n\nclean:\n\trm -rf ~\n"}, "make all"),
])


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


test_allowlist_escapes_are_never_allowed = case_test(
    allowlist_escapes_are_never_allowed, ("command", "allow", "presets"), NEVER_ALLOWED)


@pytest.mark.parametrize("command", ["gmake SHELL=/tmp/x test", "make CC=./evil build"])
def test_a_variable_operand_of_make_is_admitted_only_when_the_entry_lists_it(command: str, tmp_path: Path) -> None:
    decision = decide(command, PolicyConfig.build(root=tmp_path, allow=["make", "gmake"]))
    assert decision.decision != "allow" and "make variable" in decision.reason
