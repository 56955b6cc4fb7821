"""In the command policy: zip, unzip, 7z and the other archivers (tar has test_tar.py).

Their facts: konstruct_tui/commands/programs/archives.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_checks import (
    case_test,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
    quoting_tricks_and_unpacking_over_the_machine_are_refused,
)


DENIED = [
    'zip x.zip x -T -TT "rm -rf /"',
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


DENIED_13 = [
    "zip -T --unzip-command='rm -rf /' x.zip x",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


QUOTING_AND_UNPACKING_DENIED = [
    "unzip evil.zip -d /",
    "unzip -o evil.zip -d ~",
]


test_quoting_tricks_and_unpacking_over_the_machine_are_refused = case_test(
    quoting_tricks_and_unpacking_over_the_machine_are_refused, "command", QUOTING_AND_UNPACKING_DENIED)


@pytest.mark.parametrize("command", ["unzip a.zip -d/etc", "unzip a.zip -d /usr/lib", "7z x a.7z -o/etc",
                                     "cpio -i -D /etc", "cpio -i --directory=/boot"])
def test_unpacking_over_the_machine_in_each_archiver_s_spelling_is_refused(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


@pytest.mark.parametrize("command", ["unzip a.zip -d out", "7z x a.7z -oout", "cpio -i -D out"])
def test_unpacking_into_the_project_is_not_denied(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path)[1] != "deny"
