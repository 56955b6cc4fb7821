"""In the command policy: disk tools: mkfs in every name, fdisk, wipefs, hdparm, cryptsetup ....

Their facts: konstruct_tui/commands/programs/disks.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_checks import (
    case_test,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    inspecting_a_disk_or_writing_to_dev_null_is_not_denied,
)


DENIED = [
    # filesystems, raw disks
    "mkfs /dev/sda1",
    "mkfs.ext4 /dev/sda1",
    "mkfs -t ext4 /dev/sdb",
    "/sbin/mkfs.vfat /dev/sdc1",
    "mke2fs /dev/sda1",
    "wipefs -a /dev/sda",
    "fdisk /dev/sda",
    "parted /dev/sda rm 1",
    "hdparm --security-erase NULL /dev/sda",
    "nvme format /dev/nvme0n1",
    "cryptsetup luksFormat /dev/sda",
    "mkswap /dev/sda2",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


ASKED = [
    "nvme list",
    "hdparm -I /dev/sda",
    "fdisk -l",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


test_inspecting_a_disk_or_writing_to_dev_null_is_not_denied = case_test(
    inspecting_a_disk_or_writing_to_dev_null_is_not_denied, "command", [
    "lsblk /dev/sda",
    "smartctl -a /dev/sda",
])


@pytest.mark.parametrize("command", ["mkfs.btrfs /dev/sdb", "mkfs.anything x", "newfs_msdos /dev/disk2", "nvme FORMAT /dev/nvme0",
                                     "cryptsetup LuksFormat /dev/sdb", "mdadm --zero-superblock /dev/sdb", "cfdisk /dev/sda"])
def test_every_name_and_case_of_a_disk_wiper_is_refused(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


@pytest.mark.parametrize("command", ["fdisk -l /dev/sda", "parted /dev/sda print", "cfdisk -l", "nvme list"])
def test_a_partition_or_disk_tool_that_only_lists_is_not_denied(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path)[1] != "deny"
