"""Programs that inspect disks (or whose forms that write one the deny list judges by their own rules:
`hdparm --security-erase`, `cryptsetup luksFormat`, `fdisk` without `-l`). Any other program naming
a disk device may write to it, and is refused."""

from __future__ import annotations

from .program import Program

PROGRAMS = tuple(Program((name,), inspects_disks=True) for name in (
    "lsblk", "blkid", "smartctl", "udevadm", "findmnt", "df", "lsof", "fuser", "mount", "findfs", "hdparm", "fdisk",
    "parted", "sfdisk", "gdisk", "sgdisk", "partprobe", "cryptsetup", "e2fsck", "fsck", "tune2fs", "dumpe2fs",
    "resize2fs", "nvme", "mdadm",
))
