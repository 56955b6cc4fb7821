"""Private mount and PID namespaces for a confined command, where this process may make them.

Two things Landlock alone cannot say, and a namespace can:
- "write the whole workspace except `.git`": Landlock rules only ever add rights beneath a folder,
  so a right on the workspace is a right inside `.git` too. In a private mount namespace `.git` is
  bind-mounted read-only over itself: the kernel answers EROFS to any write there, whatever Landlock
  allows, and the command (which loses CAP_SYS_ADMIN and is Landlock-confined) cannot remount it.
- "nothing outlives the call": the command's first process is PID 1 of a new PID namespace. When it
  exits or is killed, the kernel kills every process left in the namespace, including the ones
  that called `setsid` or double-forked to get away from the process group.

Both are per-thread (unshare(2) on the launcher thread; the child it starts is the namespace's
first process) and need CAP_SYS_ADMIN; an unprivileged user cannot make them from a threaded
process (a user namespace needs a single-threaded caller), so `available()` says whether they
apply and the plan falls back (see plan.py and commands/process_tree.py).
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Sequence
from functools import lru_cache

CLONE_NEWNS = 0x00020000
CLONE_NEWPID = 0x20000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_REMOUNT = 1, 2, 4, 32
_MS_BIND, _MS_REC, _MS_PRIVATE = 4096, 16384, 1 << 18
DISABLE = "KONSTRUCT_SANDBOX_NO_NAMESPACES"  # forces the fallback (tests, and a person who wants it)

_LIBC = ctypes.CDLL(None, use_errno=True)
_LIBC.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
_MS_NOEXEC = 8


def _fail(what: str) -> OSError:
    number = ctypes.get_errno()
    return OSError(number, f"{what}: {os.strerror(number)}")


def _mount(source: str | None, target: str, flags: int, fstype: str | None = None, data: str | None = None) -> None:
    if _LIBC.mount(source.encode() if source else None, target.encode(), fstype.encode() if fstype else None,
                   ctypes.c_ulong(flags), data.encode() if data else None) != 0:
        raise _fail(f"mount({target})")


def enter(read_only: Sequence[str], hidden: Sequence[str] = ()) -> None:
    """On the calling thread: new mount and PID namespaces, nothing propagating back to ours; each
    of `read_only` (folders that exist) bind-mounted read-only over itself, and each of `hidden`
    (folders or socket files of the person's: tmux, ssh-agent, dbus, docker) covered by an empty
    read-only tmpfs or /dev/null, so a unix socket there cannot be reached by its path (Landlock up
    to ABI 7 does not govern connect() to a named unix socket). Raises OSError."""
    # A mount namespace only when there is something to protect: tearing one down costs the exit
    # of the command about a millisecond per command.
    mounts = bool(read_only or hidden)
    if _LIBC.unshare(ctypes.c_int(CLONE_NEWPID | (CLONE_NEWNS if mounts else 0))) != 0:
        raise _fail("unshare")
    if not mounts:
        return
    # Private first: on a shared root, a bind mount made here would appear in everyone's namespace.
    _mount(None, "/", _MS_REC | _MS_PRIVATE)
    for path in read_only:
        _mount(path, path, _MS_BIND | _MS_REC)
        _mount(None, path, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)
    for path in hidden:
        if os.path.isdir(path):
            _mount("tmpfs", path, _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, "tmpfs", "size=4k,mode=0")
        elif os.path.exists(path):
            _mount("/dev/null", path, _MS_BIND)


@lru_cache(maxsize=1)
def _probe() -> bool:
    box: list[bool] = []

    def body() -> None:
        box.append(_LIBC.unshare(ctypes.c_int(CLONE_NEWNS | CLONE_NEWPID)) == 0)

    thread = threading.Thread(target=body, name="konstruct-namespace-probe")
    thread.start()
    thread.join()
    return bool(box and box[0])


def available() -> bool:
    """Whether commands get private namespaces here (root or CAP_SYS_ADMIN, and not switched off)."""
    if os.environ.get(DISABLE, "").strip() not in ("", "0"):
        return False
    return _probe()
