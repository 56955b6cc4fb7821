"""tar and the other archivers: unpacking over the machine is refused, reading from it is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import check

from konstruct_tui.commands import PolicyConfig, decide


def test_archives_read_from_system_folders_are_not_refused() -> None:
    assert decide("tar -czf out.tgz -C /etc .").decision == "ask"
    assert decide("unzip x.zip -d build").decision == "ask"


DENIED = [
    'tar -cf /dev/null x --checkpoint=1 --checkpoint-action=exec="rm -rf /"',
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ASKED = [
    "tar -xzf archive.tar.gz",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


DENIED_13 = [
    "tar -cf x.tar --to-command='rm -rf /' .",
    "tar -xf x.tar -I 'rm -rf /'",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


QUOTING_AND_UNPACKING_DENIED = [
    "tar -xf evil.tar -C /",
    "tar -xf evil.tar --directory=/etc",
    "tar xf evil.tar -C /usr",
    "tar -C / -xvf x.tar",
]


@pytest.mark.parametrize("command", QUOTING_AND_UNPACKING_DENIED)
def test_quoting_tricks_and_unpacking_over_the_machine_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


ALLOWLIST = [
    (["tar"], [], "tar -xf a.tar --to-command=cat", "refuse"),
    (["tar"], [], "tar -xf a.tar", "allow"),
]


@pytest.mark.parametrize(("allow", "presets", "command", "expected"), ALLOWLIST)
def test_allowlist_entries_are_argv_rules(allow: list[str], presets: list[str], command: str, expected: str) -> None:
    decision = decide(command, PolicyConfig.build(presets, allow))
    assert decision.decision == expected, decision.reason
    if expected == "allow":
        assert (decision.rule, decision.capability) == ("allowlist", None)


# gtar is GNU tar and bsdtar another tar: one entry, so they unpack and run as tar does.
@pytest.mark.parametrize("command", ["gtar -xf a.tar -C /etc", "bsdtar -xf a.tar --directory=/usr", "gtar -xf a.tar -C/"])
def test_every_name_of_tar_unpacking_over_the_machine_is_refused(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


@pytest.mark.parametrize("command", ["gtar -cf a.tar -C /etc .", "bsdtar -tf a.tar"])
def test_creating_or_listing_with_another_name_of_tar_is_not_denied(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path)[1] != "deny"
