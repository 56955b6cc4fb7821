"""Rooted access: every path is walked component by component from the root's descriptor.

Why not `os.path.realpath` plus a prefix check: that checks a *string*, and a symlink swapped in
between the check and the open would still be followed by the kernel. Here the kernel never follows
a symlink for us: each component is opened with `O_NOFOLLOW` relative to the descriptor of the
directory before it, and a symlink is read and spliced into the walk by this code, which refuses it
when its target leaves the root. Whatever is swapped in mid-walk is either a real directory inside
the root (fine) or a symlink this code inspects (refused when it points outside).
"""

from __future__ import annotations

import errno
import os
import stat
from collections import deque
from dataclasses import dataclass, field

from .odd_names import on_disk, shown

MAX_SYMLINK_HOPS = 40
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class PathRefused(Exception):
    """The path is outside what the workspace lets anyone touch."""


class PathMissing(Exception):
    """The path does not name an existing file (or a directory on the way is missing)."""


def split_relative(path: object) -> list[str]:
    """The components of a workspace-relative path, or `PathRefused` for shapes never allowed."""
    if not isinstance(path, str) or path.strip() == "":
        raise PathRefused("the path is empty")
    if "\x00" in path:
        raise PathRefused("the path contains a NUL byte")
    if path.startswith("/"):
        raise PathRefused("absolute paths are refused; give a path relative to the workspace")
    return [part for part in path.split("/") if part not in ("", ".")]


@dataclass
class Location:
    """Where a walk ended: an open parent directory, the final name in it, and the resolved path.

    `name` is empty when the path names the root itself. The owner must call `close()`.
    """

    parent_fd: int
    name: str
    relative: str
    exists: bool
    created_dirs: list[str] = field(default_factory=list)

    def close(self) -> None:
        if self.parent_fd >= 0:
            os.close(self.parent_fd)
            self.parent_fd = -1

    def __enter__(self) -> Location:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RootedDirectory:
    """A directory descriptor that every path is resolved against."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.fd = os.open(os.fspath(root), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        self.real = os.path.realpath(os.fspath(root))

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def walk(self, path: str, *, follow_last: bool = True, make_parents: bool = False) -> Location:
        """Resolve `path` to a `Location` without ever letting the kernel follow a symlink.

        `follow_last=False` stops at a final symlink instead of resolving it. `make_parents` creates
        missing directories on the way (they are listed in `created_dirs`, outermost first).
        """
        pending = deque(split_relative(path))
        must_be_dir = path.endswith("/")
        stack: list[str] = []
        fds: list[int] = [os.dup(self.fd)]
        created: list[str] = []
        hops = 0
        try:
            while pending:
                name = pending.popleft()
                if name == "..":
                    if not stack:
                        raise PathRefused(f"{path!r} leaves the workspace")
                    stack.pop()
                    os.close(fds.pop())
                    continue
                last = not pending
                kind = _kind_of(fds[-1], name)
                if kind == "missing" and on_disk(name) != name:  # a shown `\xNN` spelling: the raw name
                    raw_kind = _kind_of(fds[-1], on_disk(name))
                    if raw_kind != "missing":
                        name, kind = on_disk(name), raw_kind
                if kind == "link" and (follow_last or not last):
                    hops += 1
                    if hops > MAX_SYMLINK_HOPS:
                        raise PathRefused(f"{path!r} goes through too many symbolic links")
                    target = _read_link(fds[-1], name)
                    if target is None:  # swapped back to a non-link between the checks: look again
                        pending.appendleft(name)
                        continue
                    if target.startswith("/"):
                        inside = self._inside_part(target)
                        if inside is None:
                            here = "/".join([*stack, shown(name)])
                            raise PathRefused(f"{here!r} is a symbolic link that points outside the workspace")
                        while len(fds) > 1:
                            os.close(fds.pop())
                        stack.clear()
                        target = inside
                    if "\x00" in target:
                        raise PathRefused("a symbolic link target contains a NUL byte")
                    pending.extendleft(reversed([p for p in target.split("/") if p not in ("", ".")]))
                    continue
                if last:
                    if must_be_dir and kind in ("file", "special"):
                        raise PathMissing(f"{'/'.join([*stack, shown(name)])!r} is not a directory")
                    return Location(fds.pop(), name, "/".join([*stack, shown(name)]), kind != "missing", created)
                if kind == "missing" and make_parents:
                    os.mkdir(name, 0o777, dir_fd=fds[-1])
                    created.append("/".join([*stack, shown(name)]))
                elif kind == "missing":
                    raise PathMissing(f"{'/'.join([*stack, shown(name)])!r} does not exist")
                elif kind != "dir":
                    raise PathMissing(f"{'/'.join([*stack, shown(name)])!r} is not a directory")
                try:
                    fds.append(os.open(name, _DIR_FLAGS, dir_fd=fds[-1]))
                except OSError as error:
                    if error.errno in (errno.ENOTDIR, errno.ELOOP, errno.ENOENT):
                        pending.appendleft(name)  # it changed under us: classify it again
                        hops += 1
                        if hops > MAX_SYMLINK_HOPS:
                            raise PathRefused(f"{path!r} keeps changing while it is opened") from None
                        continue
                    raise _os_refusal(name, error) from None
                stack.append(shown(name))
            # No components left: the path names the root (or a directory reached through '..').
            return Location(fds.pop(), "", "/".join(stack), True, created)
        except BaseException:
            self.remove_empty(created)  # a walk that fails leaves no folders behind
            raise
        finally:
            for fd in fds:
                os.close(fd)

    def remove_empty(self, created: list[str]) -> None:
        """Remove, innermost first, folders that were made (by a walk, or by a batch), while they are empty."""
        for folder in reversed(created):
            try:
                with self.walk(folder, follow_last=False) as where:
                    os.rmdir(where.name, dir_fd=where.parent_fd)
            except (OSError, PathRefused, PathMissing):
                return

    def _inside_part(self, absolute_target: str) -> str | None:
        """The root-relative part of an absolute symlink target, or None when it points outside."""
        target = os.path.normpath(absolute_target)
        if target == self.real:
            return "."
        if target.startswith(self.real.rstrip("/") + "/"):
            return target[len(self.real.rstrip("/")) + 1 :]
        return None


def _kind_of(dir_fd: int, name: str) -> str:
    try:
        mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "missing"
    except OSError as error:  # a name too long, an I/O error: this path names nothing readable
        raise _os_refusal(name, error) from None
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISREG(mode):
        return "file"
    return "special"


def _os_refusal(name: str, error: OSError) -> Exception:
    """The operating system's own "no" for one component, as a path error a person can act on."""
    if error.errno in (errno.EACCES, errno.EPERM):
        return PathRefused(f"{name[:80]!r} cannot be opened: {error.strerror}")
    return PathMissing(f"{name[:80]!r} cannot be used as a path component: {error.strerror}")


def _read_link(dir_fd: int, name: str) -> str | None:
    try:
        return os.readlink(name, dir_fd=dir_fd)
    except OSError as error:
        if error.errno in (errno.EINVAL, errno.ENOENT):
            return None
        raise
