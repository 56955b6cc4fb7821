"""`npm` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/build.py."""

from __future__ import annotations

from pathlib import Path

from policy_cases import scripts_project
from policy_checks import (
    case_test,
    a_project_script_is_judged_with_everything_its_runner_may_run,
    allowlist_entries_are_argv_rules,
    allowlist_escapes_are_never_allowed,
    deny_class_examples_are_refused_in_every_mode,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
    project_scripts_run_as_written,
    quoting_tricks_and_unpacking_over_the_machine_are_refused,
    spellings_found_by_attacking_the_policy_are_refused,
)

from konstruct_tui.commands import decide


DENIED = [
    "npx rimraf /",
    "npx -y rimraf ~",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


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


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "npx -c 'rm -rf /'",
    "npx --call='rm -rf /'",
    "npm exec -c 'rm -rf /'",
    "npm exec --call 'rm -rf /'",
    "npm exec -- rm -rf /",
    "npm x -- rm -rf /",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


SELF_ATTACK_DENIED = [
    "npx -p rimraf rimraf /",
    "npx --package=rimraf -- rimraf /",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


QUOTING_AND_UNPACKING_DENIED = [
    "npx rimraf@latest /",
    "npx @scope/rimraf@1 /",
]


test_quoting_tricks_and_unpacking_over_the_machine_are_refused = case_test(
    quoting_tricks_and_unpacking_over_the_machine_are_refused, "command", QUOTING_AND_UNPACKING_DENIED)


ALLOWLIST = [
    ([], ["node"], "npm test --script-shell=./x.sh", "refuse"),
    ([], ["node"], "npm run build --prefix /elsewhere", "refuse"),
    ([], ["node"], "npm exec -- rm -rf build", "refuse"),
    ([], ["node"], "npm exec -c 'ls'", "refuse"),
    ([], ["node"], "npm exec -- jest", "allow"),
    ([], ["node"], "npx jest --ci", "allow"),
    ([], ["node"], "npm run build --git=./evil", "refuse"),
]


test_allowlist_entries_are_argv_rules = case_test(
    allowlist_entries_are_argv_rules, ("allow", "presets", "command", "expected"), ALLOWLIST)


test_project_scripts_run_as_written = case_test(project_scripts_run_as_written, ("command", "decision"), [
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


# Broke before: only the named script's body was held to the hard deny list, while npm runs
# `preNAME`/`postNAME` around it, a body may call another script, and make runs prerequisites first.
test_a_project_script_is_judged_with_everything_its_runner_may_run = case_test(
    a_project_script_is_judged_with_everything_its_runner_may_run, ("files", "command"), [
    ({"package.json": '{"scripts": {"test": "jest", "pretest": "rm -rf /"}}'}, "npm test"),
    ({"package.json": '{"scripts": {"build": "tsc", "postbuild": "rm -rf ~"}}'}, "npm run build"),
    ({"package.json": '{"scripts": {"test": "npm run wipe", "wipe": "rm -rf /"}}'}, "npm t"),
])


def test_a_script_file_with_nothing_denied_still_runs_as_written(tmp_path: Path) -> None:
    config = scripts_project(tmp_path, {"package.json": '{"scripts": {"test": "jest", "pretest": "rm -rf dist"}}'})
    decision = decide("npm test", config)
    assert (decision.decision, decision.rule) == ("allow", "project_script")


DENY_CLASS = [
    "npx -c 'rm -rf /'",
    "npm exec -c 'rm -rf /'",
]


test_deny_class_examples_are_refused_in_every_mode = case_test(
    deny_class_examples_are_refused_in_every_mode, "command", DENY_CLASS)


NEVER_ALLOWED = [
    ("npm test --script-shell=./x.sh", [], ["node"]),
]


test_allowlist_escapes_are_never_allowed = case_test(
    allowlist_escapes_are_never_allowed, ("command", "allow", "presets"), NEVER_ALLOWED)
