"""The workspace handle: the one object through which Konstruct touches project files."""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from .containment import Location, PathMissing, PathRefused, RootedDirectory
from .revision import revision_of
from .swap import read_regular

_RETRIES = 8


class NotAFile(Exception):
    """The path exists but is a directory or a special file."""


@dataclass(frozen=True)
class FileSnapshot:
    """The exact bytes of one file as read, with the revision that names them."""

    relative: str
    data: bytes
    mode: int
    revision: str


class Workspace:
    """A project root. Paths in and out are workspace-relative; the absolute root is never shown."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        path = Path(root)
        if not path.is_dir():
            raise FileNotFoundError(f"workspace root {os.fspath(root)!r} is not a directory")
        self.root = path.resolve()
        self._spellings = sorted({str(self.root), os.path.abspath(os.fspath(root))}, key=len, reverse=True)
        self._dir = RootedDirectory(self.root)

    def close(self) -> None:
        self._dir.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def locate(self, path: str, *, follow_last: bool = True, make_parents: bool = False) -> Location:
        return self._dir.walk(path, follow_last=follow_last, make_parents=make_parents)

    def remove_empty_dirs(self, created_dirs: list[str]) -> None:
        """Remove, innermost first, the folders a batch made, while they are empty."""
        self._dir.remove_empty(created_dirs)

    def read(self, path: str, *, limit: int | None = None) -> FileSnapshot:
        """Read a regular file. Raises PathRefused, PathMissing or NotAFile; with `limit`,
        FileTooLarge (its size from a stat) instead of reading more than `limit` bytes."""
        for _ in range(_RETRIES):
            with self.locate(path) as where:
                if not where.exists:
                    raise PathMissing(f"{where.relative or path!r} does not exist")
                if not where.name:
                    raise NotAFile(f"{path!r} is a directory, not a file")
                try:
                    data, info = read_regular(where.parent_fd, where.name, limit)
                except OSError as error:
                    if error.errno == errno.ELOOP:
                        continue  # became a symlink after the walk: walk again, never follow it here
                    if error.errno == errno.ENOENT:
                        raise PathMissing(f"{where.relative!r} does not exist") from None
                    if error.errno == errno.EISDIR:
                        kind = "a directory" if _is_dir(where) else "not a regular file"
                        raise NotAFile(f"{where.relative!r} is {kind}") from None
                    raise NotAFile(f"{where.relative!r} cannot be read: {error.strerror}") from None
                return FileSnapshot(where.relative, data, info.st_mode, revision_of(data))
        raise PathRefused(f"{path!r} keeps changing into a symbolic link while it is opened")

    def files(self) -> list[str]:
        """Every file a tool may look at, workspace-relative and sorted (.gitignore honored in a git tree)."""
        from .listing import list_files

        return list_files(self.root)

    def scrub(self, text: str) -> str:
        """Text with the workspace's absolute location taken out (for paths and reasons, never content)."""
        for spelling in self._spellings:
            text = text.replace(spelling, "<workspace>")
        return text


def _is_dir(where: Location) -> bool:
    try:
        return stat.S_ISDIR(os.stat(where.name, dir_fd=where.parent_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False
