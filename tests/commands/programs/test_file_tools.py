"""In the command policy: the look-around programs and file converters: head, wc, stat, sort, tree, file ... (ls,
cat, tail, find have files of their own).

Their facts: konstruct_tui/commands/programs/files.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import READ_ONLY, check

from konstruct_tui.commands import decide


ASKED = [
    "head -n 50 src/main.py",
    "jq '.scripts' package.json",
    'printf "%s\\n" x',
    "diff -u a.txt b.txt",
    "which python",
    "du -sh .",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


OUTPUT_OPTIONS_DENIED = [
    "sort -o /etc/hosts x",
]


@pytest.mark.parametrize("command", OUTPUT_OPTIONS_DENIED)
def test_output_options_aimed_at_the_machine_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


@pytest.mark.parametrize("command", [
    "head -n 5 x.py",
    "wc -l x",
    "pwd",
    "stat x",
    "file x",
    "tree -L 2",
])
def test_read_only_commands_are_allowed_confined_read_only(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert (decision.decision, decision.rule, decision.confinement, decision.capability) == (
        "allow", "read_only", "read-only", None), decision.reason
    assert decision.to_json()["confinement"] == "read-only"


@pytest.mark.parametrize("command", [
    "tree -o out.txt",
    "date -s 2020-01-01",
    "file -C -m x",
    "tree -R -H . -o x",
])
def test_read_only_rules_refuse_what_executes_writes_or_redirects(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert decision.decision != "allow" and decision.confinement is None, decision.reason


# Broke before: `tail /dev/zero` (no grant) keeps every byte waiting for a newline: 1.7 GB in 3 s;
# `tail /proc/self/pagemap`, a kernel pseudo-file with no stated size, 1.3 GB in 3 s.
@pytest.mark.parametrize("command", [
    "wc /dev/./zero",
])
def test_a_look_around_that_reads_a_device_or_a_pipe_asks(command: str, tmp_path: Path) -> None:
    (tmp_path / "zero-link").symlink_to("/dev/zero")
    (tmp_path / "pagemap-link").symlink_to("/proc/self/pagemap")
    os.mkfifo(tmp_path / "pipe")
    assert answer(command, tmp_path) == ("ask", "needs_grant")


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
