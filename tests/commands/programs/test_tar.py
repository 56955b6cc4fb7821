"""tar and the other archivers: unpacking over the machine is refused, reading from it is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_checks import (
    case_test,
    allowlist_entries_are_argv_rules,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
    quoting_tricks_and_unpacking_over_the_machine_are_refused,
)

from konstruct_tui.commands import decide


def test_archives_read_from_system_folders_are_not_refused() -> None:
    assert decide("tar -czf out.tgz -C /etc .").decision == "ask"
    assert decide("unzip x.zip -d build").decision == "ask"


DENIED = [
    'tar -cf /dev/null x --checkpoint=1 --checkpoint-action=exec="rm -rf /"',
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


ASKED = [
    "tar -xzf archive.tar.gz",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "tar -cf x.tar --to-command='rm -rf /' .",
    "tar -xf x.tar -I 'rm -rf /'",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


QUOTING_AND_UNPACKING_DENIED = [
    "tar -xf evil.tar -C /",
    "tar -xf evil.tar --directory=/etc",
    "tar xf evil.tar -C /usr",
    "tar -C / -xvf x.tar",
]


test_quoting_tricks_and_unpacking_over_the_machine_are_refused = case_test(
    quoting_tricks_and_unpacking_over_the_machine_are_refused, "command", QUOTING_AND_UNPACKING_DENIED)


ALLOWLIST = [
    (["tar"], [], "tar -xf a.tar --to-command=cat", "refuse"),
    (["tar"], [], "tar -xf a.tar", "allow"),
]


test_allowlist_entries_are_argv_rules = case_test(
    allowlist_entries_are_argv_rules, ("allow", "presets", "command", "expected"), ALLOWLIST)


# gtar is GNU tar and bsdtar another tar: one entry, so they unpack and run as tar does.
@pytest.mark.parametrize("command", ["gtar -xf a.tar -C /etc", "bsdtar -xf a.tar --directory=/usr", "gtar -xf a.tar -C/"])
def test_every_name_of_tar_unpacking_over_the_machine_is_refused(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


@pytest.mark.parametrize("command", ["gtar -cf a.tar -C /etc .", "bsdtar -tf a.tar"])
def test_creating_or_listing_with_another_name_of_tar_is_not_denied(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path)[1] != "deny"
