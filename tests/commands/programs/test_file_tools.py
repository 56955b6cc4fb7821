"""In the command policy: the look-around programs and file converters: head, wc, stat, sort, tree, file ... (ls,
cat, tail, find have files of their own).

Their facts: konstruct_tui/commands/programs/files.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    a_look_around_that_reads_a_device_or_a_pipe_asks,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    output_options_aimed_at_the_machine_are_refused,
    read_only_commands_are_allowed_confined_read_only,
    read_only_rules_refuse_what_executes_writes_or_redirects,
)


ASKED = [
    "head -n 50 src/main.py",
    "jq '.scripts' package.json",
    'printf "%s\\n" x',
    "diff -u a.txt b.txt",
    "which python",
    "du -sh .",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


OUTPUT_OPTIONS_DENIED = [
    "sort -o /etc/hosts x",
]


test_output_options_aimed_at_the_machine_are_refused = case_test(
    output_options_aimed_at_the_machine_are_refused, "command", OUTPUT_OPTIONS_DENIED)


test_read_only_commands_are_allowed_confined_read_only = case_test(
    read_only_commands_are_allowed_confined_read_only, "command", [
    "head -n 5 x.py",
    "wc -l x",
    "pwd",
    "stat x",
    "file x",
    "tree -L 2",
])


test_read_only_rules_refuse_what_executes_writes_or_redirects = case_test(
    read_only_rules_refuse_what_executes_writes_or_redirects, "command", [
    "tree -o out.txt",
    "date -s 2020-01-01",
    "file -C -m x",
    "tree -R -H . -o x",
])


# Broke before: `tail /dev/zero` (no grant) keeps every byte waiting for a newline: 1.7 GB in 3 s;
# `tail /proc/self/pagemap`, a kernel pseudo-file with no stated size, 1.3 GB in 3 s.
test_a_look_around_that_reads_a_device_or_a_pipe_asks = case_test(
    a_look_around_that_reads_a_device_or_a_pipe_asks, "command", [
    "wc /dev/./zero",
])


# Broke before: credentials under names the pattern missed (`PGPASSWORD`, `MYSQL_PWD`, `SENTRY_DSN`)
# or in a URL whatever the name (`DATABASE_URL=postgres://u:pw@db`) reached every command.
def test_commands_never_see_credentials_by_name_or_in_a_url() -> None:
    from konstruct_tui.commands.environment import scrubbed_environment

    env = scrubbed_environment({
        "PGPASSWORD": "x", "MYSQL_PWD": "x", "SENTRY_DSN": "https://k@sentry.io/1", "NPM_AUTH": "x", "PASSWORD": "x",
        "DATABASE_URL": "postgres://u:pw@db/x", "PIP_INDEX_URL": "https://user:tok@pypi.example/simple",
        "HTTP_PROXY": "http://u:p@proxy:3128", "PWD": "/p", "OLDPWD": "/o", "HOME": "/h", "GIT_URL": "https://github.com/a/b",
    }, extra={"REDIS_URL": "redis://:pw@cache:6379", "CI": "1"})
    assert sorted(env) == ["CI", "GIT_URL", "HOME", "OLDPWD", "PWD"]
