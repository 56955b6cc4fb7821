"""`npm` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/build.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from policy_cases import check, project, scripts_project

from konstruct_tui.commands import PolicyConfig, decide


DENIED = [
    "npx rimraf /",
    "npx -y rimraf ~",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ASKED = [
    "npm test",
    "npm ci",
    "npm run build",
    "npm run lint -- --fix",
    "npx tsc --noEmit",
    "npx jest --coverage",
    "FOO=bar npm test",
    "CI=true npm test",
    "npx jest",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


DENIED_13 = [
    "npx -c 'rm -rf /'",
    "npx --call='rm -rf /'",
    "npm exec -c 'rm -rf /'",
    "npm exec --call 'rm -rf /'",
    "npm exec -- rm -rf /",
    "npm x -- rm -rf /",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


SELF_ATTACK_DENIED = [
    "npx -p rimraf rimraf /",
    "npx --package=rimraf -- rimraf /",
]


@pytest.mark.parametrize("command", SELF_ATTACK_DENIED)
def test_spellings_found_by_attacking_the_policy_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


QUOTING_AND_UNPACKING_DENIED = [
    "npx rimraf@latest /",
    "npx @scope/rimraf@1 /",
]


@pytest.mark.parametrize("command", QUOTING_AND_UNPACKING_DENIED)
def test_quoting_tricks_and_unpacking_over_the_machine_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ALLOWLIST = [
    ([], ["node"], "npm test --script-shell=./x.sh", "refuse"),
    ([], ["node"], "npm run build --prefix /elsewhere", "refuse"),
    ([], ["node"], "npm exec -- rm -rf build", "refuse"),
    ([], ["node"], "npm exec -c 'ls'", "refuse"),
    ([], ["node"], "npm exec -- jest", "allow"),
    ([], ["node"], "npx jest --ci", "allow"),
    ([], ["node"], "npm run build --git=./evil", "refuse"),
]


@pytest.mark.parametrize(("allow", "presets", "command", "expected"), ALLOWLIST)
def test_allowlist_entries_are_argv_rules(allow: list[str], presets: list[str], command: str, expected: str) -> None:
    decision = decide(command, PolicyConfig.build(presets, allow))
    assert decision.decision == expected, decision.reason
    if expected == "allow":
        assert (decision.rule, decision.capability) == ("allowlist", None)


@pytest.mark.parametrize(("command", "decision"), [
    ("npm test", "allow"),
    ("npm test -- --watch", "allow"),
    # Issue 31: extras behind `--` are the program's options, judged by the same unsafe-option rules.
    ("npm run test -- --script-shell=x", "ask"),
    ("npm test --script-shell=./x.sh", "ask"),
    ("npm test --prefix=/elsewhere", "ask"),
    ("npm test -C /x", "ask"),
    ("npm test --userconfig /tmp/npmrc", "ask"),
    ("npm t --node-options=--require=./evil.js", "ask"),
    ("CI=1 npm test", "ask"),
    ("npm run wipe", "refuse"),
    ("npm run clean", "refuse"),
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
    ({"package.json": '{"scripts": {"test": "jest", "pretest": "rm -rf /"}}'}, "npm test"),
    ({"package.json": '{"scripts": {"build": "tsc", "postbuild": "rm -rf ~"}}'}, "npm run build"),
    ({"package.json": '{"scripts": {"test": "npm run wipe", "wipe": "rm -rf /"}}'}, "npm t"),
])
def test_a_project_script_is_judged_with_everything_its_runner_may_run(files: dict[str, str], command: str,
                                                                       tmp_path: Path) -> None:
    decision = decide(command, scripts_project(tmp_path, files))
    assert (decision.decision, decision.rule) == ("refuse", "deny")


def test_a_script_file_with_nothing_denied_still_runs_as_written(tmp_path: Path) -> None:
    config = scripts_project(tmp_path, {"package.json": '{"scripts": {"test": "jest", "pretest": "rm -rf dist"}}'})
    decision = decide("npm test", config)
    assert (decision.decision, decision.rule) == ("allow", "project_script")


DENY_CLASS = [
    "npx -c 'rm -rf /'",
    "npm exec -c 'rm -rf /'",
]


@pytest.mark.parametrize("command", DENY_CLASS)
def test_deny_class_examples_are_refused_in_every_mode(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision == "refuse", (command, decision.reason)


NEVER_ALLOWED = [
    ("npm test --script-shell=./x.sh", [], ["node"]),
]


@pytest.mark.parametrize(("command", "allow", "presets"), NEVER_ALLOWED)
def test_allowlist_escapes_are_never_allowed(command: str, allow: list[str], presets: list[str]) -> None:
    for config in (None, PolicyConfig.build(presets, allow), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision != "allow", (command, decision.rule, decision.reason)
