"""Programs that inspect, format, partition or erase disks.

An inspecting program may name a disk device; any other program naming one may write to it, and is
refused. The forms that format, repartition or erase are facts of each entry's `harm`, judged by the
hard deny list (`fdisk` only with `-l`, `hdparm --security-erase`, `cryptsetup luksFormat`).
"""

from __future__ import annotations

from .program import Harm, Program

_LISTS = ("-l", "--list", "-p", "print")  # a partition tool that only prints the table


def _inspects(name: str, **harm: object) -> Program:
    return Program((name,), inspects_disks=True, harm=Harm(**harm))  # type: ignore[arg-type]


def _formats(*names: str, variants: tuple[str, ...] = ()) -> tuple[Program, ...]:
    return tuple(Program((name,), variants=variants, harm=Harm(formats_disks=True)) for name in names)


PROGRAMS = (
    *(_inspects(name) for name in (
        "lsblk", "blkid", "smartctl", "udevadm", "findmnt", "df", "lsof", "fuser", "mount", "findfs", "partprobe",
        "e2fsck", "fsck", "tune2fs", "dumpe2fs", "resize2fs")),
    *(_inspects(name, partitions_disks=True, lists_only_with=_LISTS) for name in ("fdisk", "gdisk", "parted")),
    Program(("cfdisk",), harm=Harm(partitions_disks=True, lists_only_with=_LISTS)),
    _inspects("sfdisk", formats_disks=True), _inspects("sgdisk", formats_disks=True),
    _inspects("hdparm", erases_with=("--security-erase", "--write-sector", "--trim-sector", "--fwdownload",
                                     "--make-bad-sector")),
    _inspects("nvme", erases_with=("format", "sanitize", "delete-ns")),
    _inspects("cryptsetup", erases_with=("luksformat", "erase", "lukserase")),
    _inspects("mdadm", erases_with=("--zero-superblock",)),
    *(Program((name,), harm=Harm(erases_disks=True)) for name in ("sg_format", "lvremove", "vgremove", "pvremove")),
    *_formats("mkfs", variants=("mkfs.",)), *_formats("newfs", variants=("newfs_",)),
    *_formats("mke2fs", "mkswap", "mkntfs", "mkdosfs", "mkexfatfs", "wipefs", "blkdiscard", "zpool"),
)
