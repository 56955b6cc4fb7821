"""In the command policy: programs that overwrite, delete, stop the machine or wipe a Windows drive: mv, cp, tee,
shred, systemctl, rd ... (rm, chmod, kill, dd, docker have files of their own).

Their facts: konstruct_tui/commands/programs/system.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_checks import (
    case_test,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    more_deny_class_spellings_are_refused,
    more_spellings_of_the_hard_deny_list_hold,
    other_refusals_name_their_rule,
)


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


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


OTHER_REFUSALS = [
    ("mv ~/.ssh ~/.ssh.bak", "secrets"),
    ("mv src /dev/null", "destructive"),
    ("mv ~/Documents /tmp/x", "outside_workspace"),
]


test_other_refusals_name_their_rule = case_test(other_refusals_name_their_rule, ("command", "rule"), OTHER_REFUSALS)


ASKED = [
    "touch src/__init__.py",
    "cp src/a.py src/b.py",
    "mv old.py new.py",
    "cp .env.example .env",
    "rd build",
    "tee /dev/null",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


# Held, not yet tested.
test_more_spellings_of_the_hard_deny_list_hold = case_test(more_spellings_of_the_hard_deny_list_hold, "command", [
    "tee /dev/block/8:0",
    "cp /dev/zero /dev/sg0",
])


MORE_DENY_CLASS = [
    "shred /dev/sda",
    "truncate -s0 /etc/passwd",
]


test_more_deny_class_spellings_are_refused = case_test(
    more_deny_class_spellings_are_refused, "command", MORE_DENY_CLASS)


@pytest.mark.parametrize(("command", "rule"), [("FORMAT C:", "deny"), ("DiskPart", "deny"), ("Remove-Item -Recurse C:\\", "deny"),
                                               ("chattr -R +i ..", "outside_workspace"),
                                               ("setfacl -R -m u:x:rwx ../x", "outside_workspace")])
def test_windows_spellings_in_any_case_and_recursive_attribute_changes_outside_are_refused(command: str, rule: str,
                                                                                           tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", rule)
