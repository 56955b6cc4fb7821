"""In the command policy: programs that overwrite, delete, stop the machine or wipe a Windows drive: mv, cp, tee,
shred, systemctl, rd ... (rm, chmod, kill, dd, docker have files of their own).

Their facts: konstruct_tui/commands/programs/system.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import check

from konstruct_tui.commands import PolicyConfig, decide


DENIED = [
    "shred /dev/sda",
    "shred -n 3 -z /dev/nvme0n1",
    "cp /dev/zero /dev/sda",
    # other ways to wreck the machine or hand it out
    "mv / /dev/null",
    "mv ~ /tmp/x",
    "truncate -s 0 /etc/passwd",
    "tee /etc/hosts",
    "cp evil /usr/bin/ls",
    "shutdown -h now",
    "reboot",
    "poweroff",
    "init 0",
    "systemctl reboot",
    "del /s /q C:\\",
    "rd /s /q C:\\",
    "format C:",
    "Remove-Item -Recurse -Force C:\\",
    "mv ~/* /dev/null",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


OTHER_REFUSALS = [
    ("mv ~/.ssh ~/.ssh.bak", "secrets"),
    ("mv src /dev/null", "destructive"),
    ("mv ~/Documents /tmp/x", "outside_workspace"),
]


@pytest.mark.parametrize(("command", "rule"), OTHER_REFUSALS)
def test_other_refusals_name_their_rule(command: str, rule: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", rule), decision.reason


ASKED = [
    "touch src/__init__.py",
    "cp src/a.py src/b.py",
    "mv old.py new.py",
    "cp .env.example .env",
    "rd build",
    "tee /dev/null",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


# Held, not yet tested.
@pytest.mark.parametrize("command", [
    "tee /dev/block/8:0",
    "cp /dev/zero /dev/sg0",
])
def test_more_spellings_of_the_hard_deny_list_hold(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


MORE_DENY_CLASS = [
    "shred /dev/sda",
    "truncate -s0 /etc/passwd",
]


@pytest.mark.parametrize("command", MORE_DENY_CLASS)
def test_more_deny_class_spellings_are_refused(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        assert decide(command, config).decision == "refuse", command


@pytest.mark.parametrize(("command", "rule"), [("FORMAT C:", "deny"), ("DiskPart", "deny"), ("Remove-Item -Recurse C:\\", "deny"),
                                               ("chattr -R +i ..", "outside_workspace"),
                                               ("setfacl -R -m u:x:rwx ../x", "outside_workspace")])
def test_windows_spellings_in_any_case_and_recursive_attribute_changes_outside_are_refused(command: str, rule: str,
                                                                                           tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", rule)
