"""Private mount, PID, IPC and (network blocked) network namespaces for a confined command, where
this process may make them.

What Landlock alone cannot say, and a namespace can:
- "write the whole workspace except `.git`": Landlock rules only ever add rights beneath a folder,
  so a right on the workspace is a right inside `.git` too. In a private mount namespace `.git` is
  bind-mounted read-only over itself: the kernel answers EROFS to any write there, whatever Landlock
  allows, and the command (which loses CAP_SYS_ADMIN and is Landlock-confined) cannot remount it.
- "reach no unix socket you did not make" (issue 31): Landlock up to ABI 7 does not govern
  `connect()` to a socket by path, nor does the path walk to it need any Landlock right. So the
  command gets a root of its own (`View`): an empty read-only tmpfs holding only what it may read
  (bound read-only) and write (bound read-write), then `pivot_root` into it and the old root
  detached. A socket in `/tmp`, `/run/user`, the home folder, `/var` ... is not in this filesystem
  at all, wherever the person's tmux, ssh-agent or D-Bus put it and whatever a variable says. A
  listening socket that lives inside a folder the command may read (`/opt/x/app.sock`), found in
  `/proc/net/unix`, is covered by `/dev/null`; only sockets in the workspace and the command's own
  TMPDIR stay reachable.
- "no chmod, chown or utime outside": Landlock has no right for them; everything outside the
  workspace, TMPDIR and the caches is bound read-only, so they fail with EROFS.
- "nothing outlives the call": the command's first process is PID 1 of a new PID namespace. When it
  exits or is killed, the kernel kills every process left in the namespace, including the ones
  that called `setsid` or double-forked to get away from the process group.
- "talk to nothing outside" with the network blocked (red team round 4): the seccomp filter leaves
  unix and netlink sockets, and netlink reaches more than the kernel: a netlink socket of any
  process in the same network namespace takes unicast messages from anyone (a confined command
  sent to a NETLINK_USERSOCK listener of the person's), and NETLINK_ROUTE / SOCK_DIAG list the
  machine's addresses and every connection. So a network-blocked command also gets a network
  namespace of its own (a loopback that is down, nothing else): netlink, abstract unix sockets
  (whatever the Landlock ABI) and /proc/net show only the command's own. Unix sockets by path
  still work across it: the workspace's and TMPDIR's are reachable as before.
- "touch no memory of yours" (red team round 4): System V shared memory, message queues and
  semaphores, and POSIX message queues, are found by key in the IPC namespace, and Landlock does
  not govern them: a confined command attached a segment of the person's (`shmget` + `shmat`, read
  and write; root's CAP_IPC_OWNER reaches every user's, a database's included). Every command gets
  an IPC namespace of its own: its own segments and queues work, nobody else's exist.

All per-thread (unshare(2) on the launcher thread, which gets a private fs_struct with it; the
child it starts is the namespace's first process) and need CAP_SYS_ADMIN; an unprivileged user
cannot make them from a threaded process (a user namespace needs a single-threaded caller), so
`available()` says whether they apply and the plan falls back (see plan.py and
commands/process_tree.py).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import platform
import stat
import struct
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

CLONE_NEWNS = 0x00020000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NEWIPC = 0x08000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC, _MS_REMOUNT = 1, 2, 4, 8, 32
_MS_BIND, _MS_REC, _MS_PRIVATE = 4096, 16384, 1 << 18
_MNT_DETACH = 2
_AT_FDCWD, _AT_RECURSIVE = -100, 0x8000
_MOUNT_ATTR_RDONLY, _MOUNT_ATTR_NOSUID, _MOUNT_ATTR_NODEV = 1, 2, 4
_SYS_MOUNT_SETATTR = 442  # the same on every architecture numbered after 2019
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
DISABLE = "KONSTRUCT_SANDBOX_NO_NAMESPACES"  # forces the fallback (tests, and a person who wants it)
# /dev/fd and the standard streams are links into /proc: programs expect them.
_DEV_LINKS = {"/dev/fd": "/proc/self/fd", "/dev/stdin": "/proc/self/fd/0", "/dev/stdout": "/proc/self/fd/1",
              "/dev/stderr": "/proc/self/fd/2"}

_LIBC = ctypes.CDLL(None, use_errno=True)
_LIBC.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
_LIBC.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
_LIBC.syscall.restype = ctypes.c_long


@dataclass(frozen=True)
class View:
    """The filesystem a confined command sees. Paths are real (resolved) host paths; each appears
    at the same place in the command's root. `readable` is bound read-only, `writable` read-write
    (device files read-only: writing a device still works there, chmod does not), `read_only`
    (folders inside a writable one: `.git`, virtualenvs, git's include files) read-only over
    themselves, `covered` (sockets of others inside the view) by /dev/null."""

    readable: tuple[str, ...]
    writable: tuple[str, ...]
    read_only: tuple[str, ...] = ()
    covered: tuple[str, ...] = ()


def _fail(what: str) -> OSError:
    number = ctypes.get_errno()
    return OSError(number, f"{what}: {os.strerror(number)}")


def _mount(source: str | None, target: str, flags: int, fstype: str | None = None, data: str | None = None) -> None:
    if _LIBC.mount(source.encode() if source else None, target.encode(), fstype.encode() if fstype else None,
                   ctypes.c_ulong(flags), data.encode() if data else None) != 0:
        raise _fail(f"mount({target})")


def _read_only(target: str, device: bool = False) -> None:
    """Make the mount at `target` and every mount beneath it read-only (a recursive bind of /proc
    or /sys carries submounts a plain remount would leave writable)."""
    attr = _MOUNT_ATTR_RDONLY | _MOUNT_ATTR_NOSUID | (0 if device else _MOUNT_ATTR_NODEV)
    buffer = ctypes.create_string_buffer(struct.pack("=QQQQ", attr, 0, 0, 0), 32)
    if _LIBC.syscall(ctypes.c_long(_SYS_MOUNT_SETATTR), ctypes.c_int(_AT_FDCWD), target.encode(),
                     ctypes.c_uint(_AT_RECURSIVE), buffer, ctypes.c_size_t(32)) == 0:
        return
    flags = _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | (0 if device else _MS_NODEV)
    _mount(None, target, flags)  # kernels before 5.12: the top mount only


def _place(stage: str, path: str, depth: int = 0) -> str:
    """Make `path` exist in the new root at `stage` (folders, and the links on the way as links)
    and return the real path whose content belongs there."""
    if depth > 40:
        raise OSError(40, f"too many links on the way to {path}")
    current = ""
    parts = [p for p in path.split("/") if p]
    for k, part in enumerate(parts):
        current += "/" + part
        staged = stage + current
        found = os.lstat(current)
        if stat.S_ISLNK(found.st_mode):
            if not os.path.lexists(staged):
                os.symlink(os.readlink(current), staged)
            rest = "/".join(parts[k + 1:])
            return _place(stage, os.path.join(os.path.realpath(current), rest).rstrip("/") or "/", depth + 1)
        if os.path.lexists(staged):
            continue
        if stat.S_ISDIR(found.st_mode):
            os.mkdir(staged, 0o755)
        else:
            os.close(os.open(staged, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o644))
    return current or "/"


def _bind(stage: str, path: str, writable: bool) -> None:
    real = _place(stage, path)
    target = stage + real
    _mount(real, target, _MS_BIND | _MS_REC)
    if not writable or not os.path.isdir(real):
        found = os.stat(real)
        _read_only(target, device=stat.S_ISCHR(found.st_mode) or stat.S_ISBLK(found.st_mode))


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _outermost(paths: Sequence[str]) -> list[str]:
    """`paths` without the ones inside another of them (binding the outer one brings them along)."""
    out: list[str] = []
    for path in sorted(set(paths), key=lambda p: (p.count("/"), p)):
        if not any(_within(path, kept) for kept in out):
            out.append(path)
    return out


def _build(stage: str, view: View) -> None:
    _mount("tmpfs", stage, _MS_NOSUID | _MS_NODEV, "tmpfs", "size=1m,mode=0755")
    writable = _outermost([p for p in view.writable if os.path.isdir(p)])
    files = [p for p in view.writable if not os.path.isdir(p)]  # /dev/null and friends
    readable = [p for p in _outermost(view.readable) if not any(_within(p, w) for w in writable)]
    inside = [p for p in view.readable if any(_within(p, w) for w in writable)]  # a PATH folder in the workspace
    for path in readable:
        if path == "/proc":
            _proc(stage)
        else:
            _bind(stage, path, writable=False)
    for path in writable:  # over a read-only parent (a workspace under /opt) where there is one
        _bind(stage, path, writable=True)
    for path in files:
        _bind(stage, path, writable=False)
    for path in _outermost([*view.read_only, *inside]):
        if os.path.lexists(path):
            _bind(stage, path, writable=False)
    for link, target in _DEV_LINKS.items():
        if os.path.isdir(stage + "/dev") and not os.path.lexists(stage + link):
            os.symlink(target, stage + link)
    for path in view.covered:
        with contextlib.suppress(OSError):  # gone since it was listed: nothing to cover
            if os.path.lexists(stage + path):
                _mount("/dev/null", stage + path, _MS_BIND)
    _mount(None, stage, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)  # the new root alone


def _proc(stage: str) -> None:
    """A procfs of its own, not the machine's bound in: with `hidepid=ptraceable` a process is listed
    only to those that may ptrace it, and Landlock lets a confined command ptrace nothing outside
    its own domain. So `/proc` shows the command's own processes, never the person's others (their
    command lines carry tokens and passwords: `mysql -p…`, `curl -H 'Authorization: …'`), and
    `/proc/PID/root`, `cwd` and `fd` of those processes are not there to walk through. Read-only."""
    target = stage + _place(stage, "/proc")
    # Numbered as the machine numbers them, not as the command's PID namespace does: a procfs of
    # that namespace (Linux 6.17's `pidns=`) needs the namespace's first process, which does not
    # exist yet here. /proc/self is right either way; `/proc/$$` in the command never was.
    _mount("proc", target, _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, "proc", "hidepid=ptraceable")
    # The kernel keyring is not namespaced: /proc/keys names every key of the person's the command
    # could view (the seccomp filter refuses reading them, not listing their names here).
    for name in ("keys", "key-users"):
        if os.path.exists(f"{target}/{name}"):
            _mount("/dev/null", f"{target}/{name}", _MS_BIND)
    _read_only(target)


def enter(view: View | None, read_only: Sequence[str] = (), private_network: bool = False) -> None:
    """On the calling thread: new mount and PID namespaces, nothing propagating back to ours, and a
    network namespace of its own with `private_network` (where this kernel has them). With a
    `view`, the thread's root becomes that view (see the module's docstring); without one, each
    of `read_only` is bind-mounted read-only over itself in the whole filesystem. Raises OSError."""
    # A mount namespace only when there is something to protect: tearing one down costs the exit
    # of the command about a millisecond per command.
    mounts = view is not None or bool(read_only)
    extra = (CLONE_NEWNET if private_network and supported(CLONE_NEWNET) else 0) | (
        CLONE_NEWIPC if supported(CLONE_NEWIPC) else 0)
    if _LIBC.unshare(ctypes.c_int(CLONE_NEWPID | extra | (CLONE_NEWNS if mounts else 0))) != 0:
        raise _fail("unshare")
    if not mounts:
        return
    # Private first: on a shared root, a bind mount made here would appear in everyone's namespace.
    _mount(None, "/", _MS_REC | _MS_PRIVATE)
    if view is None:
        for path in read_only:
            _mount(path, path, _MS_BIND | _MS_REC)
            _read_only(path)
        return
    pivot = _SYS_PIVOT_ROOT.get(platform.machine())
    if pivot is None:
        raise OSError(38, f"no pivot_root known on {platform.machine()}")
    stage = stage_folder()
    _build(stage, view)
    os.chdir(stage)  # this thread's own: unshare(CLONE_NEWNS) gave it a private fs_struct
    if _LIBC.syscall(ctypes.c_long(pivot), b".", b".") != 0:
        raise _fail("pivot_root")
    if _LIBC.umount2(b".", _MNT_DETACH) != 0:  # the old root, stacked on the new one: gone for good
        raise _fail("umount2(old root)")
    os.chdir("/")


_stage: list[str] = []
_stage_lock = threading.Lock()


def stage_folder() -> str:
    """An empty folder of ours to mount each command's new root on (in its own namespace only)."""
    with _stage_lock:
        if not _stage or not os.path.isdir(_stage[0]):
            _stage[:] = [tempfile.mkdtemp(prefix="konstruct-sandbox-root-")]
            atexit.register(_remove_stage, _stage[0], os.getpid())
        return _stage[0]


def _remove_stage(folder: str, owner: int) -> None:
    if os.getpid() == owner:
        with contextlib.suppress(OSError):
            os.rmdir(folder)


def listening_sockets() -> tuple[str, ...]:
    """Every unix socket bound to an absolute path on this machine (`/proc/net/unix`, this network
    namespace): the ones inside a folder a command may read get covered."""
    try:
        with open("/proc/net/unix", encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()[1:]
    except OSError:
        return ()
    out = []
    for line in lines:
        fields = line.split(None, 7)
        if len(fields) == 8 and fields[7].startswith("/"):
            out.append(fields[7])
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=4)
def _probe(flags: int = CLONE_NEWNS | CLONE_NEWPID) -> bool:
    box: list[bool] = []

    def body() -> None:
        box.append(_LIBC.unshare(ctypes.c_int(flags)) == 0)

    thread = threading.Thread(target=body, name="konstruct-namespace-probe")
    thread.start()
    thread.join()
    return bool(box and box[0])


def available() -> bool:
    """Whether commands get private namespaces here (root or CAP_SYS_ADMIN, and not switched off)."""
    if os.environ.get(DISABLE, "").strip() not in ("", "0"):
        return False
    return _probe()


def supported(flag: int) -> bool:
    """Whether this kernel makes that namespace too (CLONE_NEWNET, CLONE_NEWIPC: CONFIG_NET_NS,
    CONFIG_IPC_NS). Where it does not, the command goes without it and keeps the rest."""
    return _probe(CLONE_NEWNS | CLONE_NEWPID | flag)


def private_namespaces() -> dict[str, bool]:
    """What a confined command gets of its own here, for `konstruct sandbox check`: pid and mount
    namespaces, a network namespace when its network is blocked (only its own loopback), an IPC
    namespace (System V and POSIX shared memory, semaphores, queues)."""
    base = available()
    return {"pid": base, "mount": base, "network_when_blocked": base and supported(CLONE_NEWNET), "ipc": base and supported(CLONE_NEWIPC)}
