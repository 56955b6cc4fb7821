"""Compare-and-swap on files, as close to atomic as Linux allows without the other writer's help.

A plain "check the revision, then rename" leaves a window in which another process's write lands
after the check and is silently replaced. Here the new bytes are swapped in with
`renameat2(RENAME_EXCHANGE)` and the *displaced* file is checked afterwards: if it is not the revision
the edit was built on, the swap is undone, so another writer's bytes are never the ones thrown away.
Filesystems without `renameat2` fall back to check-then-rename, the narrowest window they allow.

Durability: the new bytes are fsynced before they are renamed into place (no empty file after a
crash); the directory is not fsynced per file, which would double the cost of every batch.

What remains: for the microseconds between the swap and the swap back, a reader could see the
refused content. Nothing is ever lost, and the re-check just before the swap makes that rare.
"""

from __future__ import annotations

import ctypes
import errno
import os
import secrets
import stat

from .revision import revision_of

_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_libc = ctypes.CDLL(None, use_errno=True)
_renameat2 = getattr(_libc, "renameat2", None)
_UNSUPPORTED = (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP)


class SwapConflict(Exception):
    """The file on disk is not the revision the change was built on; nothing was changed."""


class FileTooLarge(Exception):
    """The file is larger than the reader's limit: decided from its size before reading it (or
    once it grew past the limit while being read), so a 1 GB file costs a stat, not 1 GB."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"the file is {size} bytes or more; the limit is {limit}")
        self.size, self.limit = size, limit


def read_regular(dir_fd: int, name: str, limit: int | None = None) -> tuple[bytes, os.stat_result]:
    """The bytes of a regular file, opened without following a final symlink (ELOOP if it is one).
    With `limit`, FileTooLarge instead of reading more than `limit` bytes."""
    fd = os.open(name, _READ_FLAGS, dir_fd=dir_fd)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "not a regular file", name)
        if limit is not None and info.st_size > limit:
            raise FileTooLarge(info.st_size, limit)
        chunks = []
        total = 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            total += len(chunk)
            if limit is not None and total > limit:  # it grew while we read
                raise FileTooLarge(total, limit)
        return b"".join(chunks), info
    finally:
        os.close(fd)


def current_revision(dir_fd: int, name: str) -> str | None:
    """The revision at `name` now, or None when nothing readable is there."""
    try:
        return revision_of(read_regular(dir_fd, name)[0])
    except OSError:
        return None


def write_replacing(dir_fd: int, name: str, data: bytes, expected: str, mode: int) -> bytes:
    """Replace `name` with `data` if it is still at revision `expected`; return the displaced bytes."""
    displaced, kept = _replace(dir_fd, name, data, expected, mode, keep=False)
    return displaced


def replace_keeping(dir_fd: int, name: str, data: bytes, expected: str, mode: int) -> str | None:
    """`write_replacing`, but the displaced file is kept under a temp name (returned; None where the
    filesystem cannot keep it) so `put_back` can undo the replacement without writing a byte: an
    atomic batch's rollback must work on a disk that just filled up."""
    return _replace(dir_fd, name, data, expected, mode, keep=True)[1]


def put_back(dir_fd: int, kept: str, name: str, expected: str | None) -> None:
    """Return the file kept by `replace_keeping`/`remove_keeping` to `name`, if `name` is still at
    revision `expected` (None: absent). No data is written, so a full disk cannot stop it."""
    if expected is None:
        if not _rename2(dir_fd, kept, name, _RENAME_NOREPLACE, quiet_exists=True):
            try:
                os.link(kept, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
            except FileExistsError:
                raise SwapConflict(name) from None
            os.unlink(kept, dir_fd=dir_fd)
        return
    if _rename2(dir_fd, kept, name, _RENAME_EXCHANGE):
        if current_revision(dir_fd, kept) != expected:
            _rename2(dir_fd, kept, name, _RENAME_EXCHANGE)
            raise SwapConflict(name)
        os.unlink(kept, dir_fd=dir_fd)
        return
    if current_revision(dir_fd, name) != expected:
        raise SwapConflict(name)
    os.rename(kept, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)


def discard(dir_fd: int, kept: str) -> None:
    _unlink_quietly(dir_fd, kept)


def _replace(dir_fd: int, name: str, data: bytes, expected: str, mode: int, keep: bool) -> tuple[bytes, str | None]:
    temp = _write_temp(dir_fd, data, mode)
    try:
        # Check again now that the (slow, fsynced) temp file is ready: most conflicts end here,
        # before anything at `name` moves.
        if current_revision(dir_fd, name) != expected:
            raise SwapConflict(name)
        if _rename2(dir_fd, temp, name, _RENAME_EXCHANGE):
            try:
                displaced, _ = read_regular(dir_fd, temp)
            except OSError:
                displaced = None
            if displaced is None or revision_of(displaced) != expected:
                _undo_exchange(dir_fd, temp, name, data)
                raise SwapConflict(name)
            if keep:
                kept, temp = temp, ""
                return displaced, kept
            os.unlink(temp, dir_fd=dir_fd)
        else:
            try:
                displaced, _ = read_regular(dir_fd, name)
            except OSError:
                raise SwapConflict(name) from None
            if revision_of(displaced) != expected:
                raise SwapConflict(name)
            os.rename(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        temp = ""
        return displaced, None
    finally:
        if temp:
            _unlink_quietly(dir_fd, temp)


def write_new(dir_fd: int, name: str, data: bytes, mode: int | None = None) -> None:
    """Create `name` with `data`; `SwapConflict` if anything is already there."""
    temp = _write_temp(dir_fd, data, mode)
    try:
        if not _rename2(dir_fd, temp, name, _RENAME_NOREPLACE):
            try:
                os.link(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
            except FileExistsError:
                raise SwapConflict(name) from None
            os.unlink(temp, dir_fd=dir_fd)
        temp = ""
    except FileExistsError:
        raise SwapConflict(name) from None
    finally:
        if temp:
            _unlink_quietly(dir_fd, temp)


def remove_if(dir_fd: int, name: str, expected: str) -> bytes:
    """Delete `name` if it is still at revision `expected`; return its bytes."""
    aside, removed = _set_aside(dir_fd, name, expected)
    os.unlink(aside, dir_fd=dir_fd)
    return removed


def remove_keeping(dir_fd: int, name: str, expected: str) -> str:
    """`remove_if`, keeping the file under a temp name (returned) for `put_back`."""
    return _set_aside(dir_fd, name, expected)[0]


def _set_aside(dir_fd: int, name: str, expected: str) -> tuple[str, bytes]:
    aside = f".konstruct-{secrets.token_hex(6)}.deleting"
    try:
        os.rename(name, aside, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except FileNotFoundError:
        raise SwapConflict(name) from None
    try:
        removed, _ = read_regular(dir_fd, aside)
    except OSError:
        removed = None
    if removed is None or revision_of(removed) != expected:
        # Put it back unless something new took the name meanwhile (that newer file wins).
        if not _rename2(dir_fd, aside, name, _RENAME_NOREPLACE, quiet_exists=True):
            _unlink_quietly(dir_fd, aside)
        raise SwapConflict(name)
    return aside, removed


def _write_temp(dir_fd: int, data: bytes, mode: int | None) -> str:
    temp = f".konstruct-{secrets.token_hex(6)}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if mode is not None:
            os.fchmod(fd, stat.S_IMODE(mode))
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        _unlink_quietly(dir_fd, temp)
        raise
    os.close(fd)
    return temp


def _rename2(dir_fd: int, source: str, target: str, flags: int, quiet_exists: bool = False) -> bool:
    """renameat2; False when this kernel or filesystem cannot do it (or, if asked, the target exists)."""
    if _renameat2 is None:
        return False
    if _renameat2(dir_fd, os.fsencode(source), dir_fd, os.fsencode(target), flags) == 0:
        return True
    code = ctypes.get_errno()
    if code in _UNSUPPORTED or (quiet_exists and code == errno.EEXIST):
        return False
    raise OSError(code, os.strerror(code), target)


def _undo_exchange(dir_fd: int, temp: str, name: str, ours: bytes) -> None:
    """Swap back after a conflict. If someone wrote to the name in the instant our bytes sat there,
    their write is newer than the displaced one, so it is the one left in place."""
    _rename2(dir_fd, temp, name, _RENAME_EXCHANGE)
    try:
        still_ours = read_regular(dir_fd, temp)[0] == ours
    except OSError:
        still_ours = True
    if not still_ours:
        _rename2(dir_fd, temp, name, _RENAME_EXCHANGE)


def _unlink_quietly(dir_fd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dir_fd)
    except OSError:
        pass
