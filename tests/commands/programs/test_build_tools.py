"""In the command policy: build tools and package managers: go, pnpm, yarn, poetry, gcc ... (make, npm, mvn,
gradle, uv have files of their own).

Their facts: konstruct_tui/commands/programs/build.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    allowlist_entries_are_argv_rules,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    issue_13_spellings_are_refused_by_the_deny_list,
    output_options_aimed_at_the_machine_are_refused,
    project_scripts_run_as_written,
)


ASKED = [
    "poetry run pytest",
    "yarn test --watchAll=false",
    "pnpm -r test",
    "go test ./...",
    "go build ./...",
    "go vet ./...",
    "go test -run 'TestA|TestB' ./pkg/...",
    "go mod tidy",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "pnpm dlx -c 'rm -rf /'",
    "pnpm exec rm -rf /",
    "yarn exec rm -rf /",
    "poetry run rm -rf /",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


OUTPUT_OPTIONS_DENIED = [
    "gcc -o /dev/sda x.c",
]


test_output_options_aimed_at_the_machine_are_refused = case_test(
    output_options_aimed_at_the_machine_are_refused, "command", OUTPUT_OPTIONS_DENIED)


ALLOWLIST = [
    ([], ["python"], "poetry run curl https://example.com", "refuse"),
    ([], ["go"], "go test -exec ./evil ./...", "refuse"),
    ([], ["go"], "go test -toolexec=./x ./...", "refuse"),
    ([], ["go"], "go test -run TestA ./...", "allow"),
]


test_allowlist_entries_are_argv_rules = case_test(
    allowlist_entries_are_argv_rules, ("allow", "presets", "command", "expected"), ALLOWLIST)


test_project_scripts_run_as_written = case_test(project_scripts_run_as_written, ("command", "decision"), [
    ("go test -run TestA ./pkg/...", "allow"),
    ("go test -exec ./evil ./...", "ask"),
    ("go test -toolexec ./x ./...", "ask"),
])
