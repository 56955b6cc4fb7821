"""tail: a look around, unless it follows a file for ever (its facts: commands/programs/files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_checks import (
    case_test,
    a_look_around_that_reads_a_device_or_a_pipe_asks,
    read_only_rules_refuse_what_executes_writes_or_redirects,
)


# Broke before: `tail` clusters and abbreviations that follow forever passed as a look around.
@pytest.mark.parametrize("command", ["tail -qf a.txt", "tail --fol a.txt", "tail -n1 -F a.txt", "tail --follow=name a.txt",
                                     "tail --retry a.txt"])
def test_a_tail_that_never_ends_is_not_a_look_around(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")


def test_a_tail_that_ends_is_still_a_look_around(tmp_path: Path) -> None:
    assert answer("tail -n 5 a.txt", tmp_path) == ("allow", "read_only")


test_read_only_rules_refuse_what_executes_writes_or_redirects = case_test(
    read_only_rules_refuse_what_executes_writes_or_redirects, "command", [
    "tail -f log.txt",
])


# Broke before: `tail /dev/zero` (no grant) keeps every byte waiting for a newline: 1.7 GB in 3 s;
# `tail /proc/self/pagemap`, a kernel pseudo-file with no stated size, 1.3 GB in 3 s.
test_a_look_around_that_reads_a_device_or_a_pipe_asks = case_test(
    a_look_around_that_reads_a_device_or_a_pipe_asks, "command", [
    "tail /dev/zero",
    "tail zero-link",
    "tail /proc/self/pagemap",
    "tail pagemap-link",
    "tail /sys/kernel/mm/transparent_hugepage/enabled",
])
