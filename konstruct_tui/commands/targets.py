"""What a path argument of a destructive command points at, judged on its text.

Commands run without a shell, so `~`, `$HOME` and `/*` are never expanded when *we* run them; they
are judged by what they would mean to a shell anyway, because that is what the writer meant (and
`sh -c` strings do get expanded). Glob and brace characters are dropped before normalizing, so
`/*`, `/{,}`, `//` and `/.` all come out as the root.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from enum import Enum
from pathlib import Path


class Place(Enum):
    ROOT = "the filesystem root"
    HOME = "a home directory"
    SYSTEM = "a system directory"
    DEVICE = "a disk device"
    PROJECT = "the whole project"
    PARENT = "a path above the project"
    ELSEWHERE = "a path elsewhere on the machine"
    TEMP = "a temporary directory"
    INSIDE = "a path inside the project"

    @property
    def fatal(self) -> bool:
        return self in (Place.ROOT, Place.HOME, Place.SYSTEM, Place.DEVICE)


# First components that hold the machine itself. Deleting or rewriting anything under them is fatal.
_SYSTEM = frozenset({
    "bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "root", "run", "sbin", "sys",
    "usr", "var", "snap", "lost+found", "System", "Library", "Applications", "private", "nix", "cores",
})
# First components that hold other people's or other projects' data: fatal near the top only.
_SHALLOW = {"home": 2, "Users": 2, "opt": 1, "srv": 1, "mnt": 2, "media": 2, "Volumes": 2, "tmp": 1, "data": 1}
_TEMP = ("/tmp/", "/var/tmp/", "/private/tmp/", "/private/var/folders/", "/dev/shm/")
_DEVICE = re.compile(
    r"^/dev/(sd|hd|vd|xvd|nvme|mmcblk|md|dm-|loop|sr|nbd|zram|disk|rdisk|mapper/|mem$|kmem$|port$)"
)
_HOME_WORDS = re.compile(r"^(~[A-Za-z0-9._-]*|\$HOME|\$\{HOME\}|\$\{HOME:?[-=][^}]*\}|\$USER_HOME)(?=/|$)")
_GLOB = re.compile(r"[*?\[\]{},]")


@lru_cache(maxsize=4096)
def place_of(word: str, root: Path | None = None) -> Place:
    """Where `word`, a path argument, points."""
    text = word.strip()
    if text == "{}":
        return Place.INSIDE  # find's placeholder: judged where find substitutes it
    if _DEVICE.match(text):
        return Place.DEVICE
    if re.match(r"^[A-Za-z]:[\\/]*\*?$", text):
        return Place.ROOT  # a Windows drive root, C:\
    if re.match(r"^%(USERPROFILE|HOMEPATH)%[\\/]*\*?$", text):
        return Place.HOME
    if re.match(r"^(\$PWD|\$\{PWD\})/*$", text):
        return Place.PROJECT
    if text.startswith("~+") and (len(text) == 2 or text[2] == "/"):
        text = "." + text[2:]  # `~+` is the current folder: the project
    elif text.startswith("~-") and (len(text) == 2 or text[2] == "/"):
        return Place.ELSEWHERE  # `~-` is the previous folder: unknown
    home = _HOME_WORDS.match(text)
    if home:
        rest = _normal("/" + _GLOB.sub("", text[home.end():]))
        return Place.HOME if rest == "/" else Place.ELSEWHERE
    if text.startswith("/"):
        return _absolute(_normal(_GLOB.sub("", text)), root)
    rest = _normal(_GLOB.sub("", text) or ".")
    if rest in (".", ""):
        return Place.PROJECT
    if rest == ".." or rest.startswith("../"):
        return Place.PARENT
    return Place.INSIDE


def _normal(path: str) -> str:
    collapsed = re.sub(r"/+", "/", path)
    return posixpath.normpath(collapsed) if collapsed else "."


def _absolute(path: str, root: Path | None) -> Place:
    if path == "/":
        return Place.ROOT
    if root is not None:
        base = str(root)
        if path == base:
            return Place.PROJECT
        if path.startswith(base.rstrip("/") + "/"):
            return Place.INSIDE
    if any((path + "/").startswith(t) and path + "/" != t for t in _TEMP):
        return Place.TEMP
    parts = path.strip("/").split("/")
    first = parts[0]
    if first in _SHALLOW:
        if first in ("home", "Users") and len(parts) <= 2:
            return Place.HOME
        return Place.SYSTEM if len(parts) <= _SHALLOW[first] else Place.ELSEWHERE
    if first in _SYSTEM:
        return Place.SYSTEM
    return Place.SYSTEM if len(parts) == 1 else Place.ELSEWHERE


def is_device(word: str) -> bool:
    return bool(_DEVICE.match(word.strip()))
