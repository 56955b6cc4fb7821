"""grep: its own options are never read as abbreviations of another program's unsafe ones."""

from __future__ import annotations

from pathlib import Path

from program_answers import answer
from policy_cases import check
from policy_checks import (
    case_test,
    a_look_around_that_reads_a_device_or_a_pipe_asks,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    read_only_commands_are_allowed_confined_read_only,
)


# Broke before (the other way): grep's own `--include=GLOB` was read as an abbreviation of `--include-dir`.
def test_grep_include_is_grep_s_own_option_not_an_abbreviation(tmp_path: Path) -> None:
    assert answer("grep -rn --include=*.py needle .", tmp_path) == ("allow", "read_only")
    assert answer("grep -rn --include=*.py needle .", tmp_path, presets=["python"]) == ("allow", "allowlist")
    # make's `--include` still abbreviates its unsafe `--include-dir`
    assert answer("make --include=/tmp/x all", tmp_path, allow=["make"]) == ("refuse", "allowlist")


ASKED = [
    'grep -rn "a|b" src',
    'grep -rn "TODO" .',
    "grep -rn 'foo\\|bar' src",
    'grep -E "a|b;c&d" file',
    "grep -rn OPENAI_API_KEY src",
    'grep -rn "rm -rf /" .',
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


def test_a_whole_process_folder_is_a_credential_store() -> None:
    """/proc/PID/environ holds the workbench's own API keys: reading the folder recursively reads it."""
    for command in ("grep -ra KEY /proc/1234/", "grep -r KEY /proc", "cat /proc//1/environ", "rg KEY /proc/self"):
        assert (check(command).decision, check(command).rule) == ("refuse", "secrets"), command
    assert check("cat /proc/cpuinfo").decision == "ask"


test_read_only_commands_are_allowed_confined_read_only = case_test(
    read_only_commands_are_allowed_confined_read_only, "command", [
    "grep -rn foo src",
])


def test_searching_for_a_disk_s_name_is_a_look_around(tmp_path: Path) -> None:
    """The look-around rule judges the real file (a pattern naming a disk reads no disk); the deny list
    leaves readers alone."""
    assert answer("grep -rn /dev/sda docs", tmp_path) == ("allow", "read_only")


# Broke before: `tail /dev/zero` (no grant) keeps every byte waiting for a newline: 1.7 GB in 3 s;
# `tail /proc/self/pagemap`, a kernel pseudo-file with no stated size, 1.3 GB in 3 s.
test_a_look_around_that_reads_a_device_or_a_pipe_asks = case_test(
    a_look_around_that_reads_a_device_or_a_pipe_asks, "command", [
    "grep -f /dev/zero a.txt",
    "grep -f/dev/zero a.txt",
    "grep --file=/dev/urandom a.txt",
])
