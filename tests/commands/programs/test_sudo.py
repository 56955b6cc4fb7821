"""`sudo` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/shells.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    hard_deny_list_refuses_every_spelling,
    other_refusals_name_their_rule,
    shells_and_eval_cannot_smuggle_compound_commands,
)


DENIED = [
    # wrappers peeled
    "sudo rm -rf /",
    "sudo -u root rm -rf /",
    "doas rm -rf /",
    "sudo mkfs.xfs /dev/nvme0n1",
    "sudo dd if=/dev/zero of=/dev/nvme0n1",
    "su -c 'rm -rf /' root",
    "sudo --user=root rm -rf /",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


SHELL_WRAPPED = [
    "su -c 'ls; ls'",
]


test_shells_and_eval_cannot_smuggle_compound_commands = case_test(
    shells_and_eval_cannot_smuggle_compound_commands, "command", SHELL_WRAPPED)


OTHER_REFUSALS = [
    ("sudo ls", "privilege"),
    ("sudo -i", "privilege"),
    ("sudo su", "privilege"),
    ("doas sh", "privilege"),
    ("su root", "privilege"),
    ("pkexec ls", "privilege"),
    ("runuser -u bob -- ls", "privilege"),
]


test_other_refusals_name_their_rule = case_test(other_refusals_name_their_rule, ("command", "rule"), OTHER_REFUSALS)
