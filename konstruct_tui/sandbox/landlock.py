"""Landlock through its three system calls, with ctypes (no binding, no C extension).

Why direct syscalls rather than a PyPI binding: the bindings on PyPI are young (pre-releases or
0.x) and all aim at "restrict this process"; we need a ruleset fd built in the parent and applied
to one short-lived thread (see `confine.py`), ABI-dependent rights up to ABI 7 (network rules from
4, scopes from 6), and nothing else. That is about a hundred lines of stable kernel ABI.

ABI history (landlock(7)): 1 filesystem basics; 2 REFER (rename/link across folders); 3 TRUNCATE;
4 TCP bind/connect rules; 5 IOCTL_DEV; 6 scopes (abstract unix sockets, signals); 7 audit flags.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import stat
import struct
from functools import lru_cache

# The syscall numbers are the same on every architecture that got them after the 2019
# unification (x86_64, aarch64, riscv, ...).
_SYS_CREATE_RULESET = 444
_SYS_ADD_RULE = 445
_SYS_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1 << 0
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

# Filesystem access rights.
FS_EXECUTE = 1 << 0
FS_WRITE_FILE = 1 << 1
FS_READ_FILE = 1 << 2
FS_READ_DIR = 1 << 3
FS_REMOVE_DIR = 1 << 4
FS_REMOVE_FILE = 1 << 5
FS_MAKE_CHAR = 1 << 6
FS_MAKE_DIR = 1 << 7
FS_MAKE_REG = 1 << 8
FS_MAKE_SOCK = 1 << 9
FS_MAKE_FIFO = 1 << 10
FS_MAKE_BLOCK = 1 << 11
FS_MAKE_SYM = 1 << 12
FS_REFER = 1 << 13  # ABI 2
FS_TRUNCATE = 1 << 14  # ABI 3
FS_IOCTL_DEV = 1 << 15  # ABI 5
NET_BIND_TCP = 1 << 0  # ABI 4
NET_CONNECT_TCP = 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
SCOPE_SIGNAL = 1 << 1  # ABI 6

_libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
_syscall = _libc.syscall
_syscall.restype = ctypes.c_long
_prctl = _libc.prctl
_prctl.restype = ctypes.c_int


class LandlockError(OSError):
    """A Landlock call failed (the ruleset could not be built or applied)."""


def _fail(what: str) -> LandlockError:
    number = ctypes.get_errno()
    return LandlockError(number, f"{what}: {os.strerror(number)}")


@lru_cache(maxsize=1)
def kernel_abi() -> int:
    """The Landlock ABI this kernel offers; 0 when it has none (too old, or not in the LSM list)."""
    version = _syscall(ctypes.c_long(_SYS_CREATE_RULESET), None, ctypes.c_size_t(0),
                       ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(int(version), 0)


def write_rights(abi: int) -> int:
    """Every right that changes the filesystem (and device ioctls), as far as `abi` knows them.
    Reads and execution are not handled at all, so they stay exactly what they were before."""
    rights = (FS_WRITE_FILE | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_CHAR | FS_MAKE_DIR | FS_MAKE_REG
              | FS_MAKE_SOCK | FS_MAKE_FIFO | FS_MAKE_BLOCK | FS_MAKE_SYM)
    if abi >= 2:
        rights |= FS_REFER
    if abi >= 3:
        rights |= FS_TRUNCATE
    if abi >= 5:  # ioctl on devices opened in the sandbox (TIOCSTI into someone's terminal, disk ioctls)
        rights |= FS_IOCTL_DEV
    return rights


# Reading and running files: handled too, so reads become an allow-list (system folders, the
# interpreter, the workspace, named toolchain folders) and the person's home stays out of reach.
READ_RIGHTS = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR


def handled_rights(abi: int) -> int:
    """Every filesystem right the sandbox governs on this ABI: writes and reads alike."""
    return write_rights(abi) | READ_RIGHTS


def file_rights(abi: int) -> int:
    """The write rights that apply to a single file (a rule on a non-folder may hold only these)."""
    return (FS_WRITE_FILE | FS_READ_FILE | FS_EXECUTE | (FS_TRUNCATE if abi >= 3 else 0)
            | (FS_IOCTL_DEV if abi >= 5 else 0))


_FS_NAMES = {
    FS_EXECUTE: "execute", FS_READ_FILE: "read_file", FS_READ_DIR: "read_dir",
    FS_WRITE_FILE: "write_file", FS_REMOVE_DIR: "remove_dir", FS_REMOVE_FILE: "remove_file",
    FS_MAKE_CHAR: "make_char", FS_MAKE_DIR: "make_dir", FS_MAKE_REG: "make_reg", FS_MAKE_SOCK: "make_sock",
    FS_MAKE_FIFO: "make_fifo", FS_MAKE_BLOCK: "make_block", FS_MAKE_SYM: "make_sym", FS_REFER: "refer",
    FS_TRUNCATE: "truncate", FS_IOCTL_DEV: "ioctl_dev",
}


def right_names(mask: int) -> list[str]:
    return [name for bit, name in _FS_NAMES.items() if mask & bit]


# Never granted anywhere, even inside the workspace: a confined root could otherwise mknod a disk's
# block device in the workspace and write through it.
NEVER_GRANTED = FS_MAKE_CHAR | FS_MAKE_BLOCK


class Ruleset:
    """A Landlock ruleset fd built in the parent. It restricts nothing until `restrict_thread` is
    called with it, and its fd is close-on-exec, so a command never inherits it."""

    def __init__(self, abi: int, handled_fs: int, handled_net: int = 0, scoped: int = 0) -> None:
        self.abi = abi
        self.handled_fs = handled_fs
        if abi >= 6:
            attr, size = struct.pack("=QQQ", handled_fs, handled_net, scoped), 24
        elif abi >= 4:
            attr, size = struct.pack("=QQ", handled_fs, handled_net), 16
        else:
            attr, size = struct.pack("=Q", handled_fs), 8
        buffer = ctypes.create_string_buffer(attr, size)
        fd = _syscall(ctypes.c_long(_SYS_CREATE_RULESET), buffer, ctypes.c_size_t(size), ctypes.c_uint32(0))
        if fd < 0:
            raise _fail("landlock_create_ruleset")
        self.fd = int(fd)

    def allow_beneath(self, path: str, rights: int) -> bool:
        """Allow `rights` on `path` and everything beneath it. False when the path does not exist
        (a cache folder the user never made): nothing to allow there."""
        try:
            target = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            return False
        try:
            if not stat.S_ISDIR(os.fstat(target).st_mode):
                rights &= file_rights(self.abi)
            rights &= self.handled_fs & ~NEVER_GRANTED
            attr = ctypes.create_string_buffer(struct.pack("=Qi", rights, target), 12)  # packed struct
            if _syscall(ctypes.c_long(_SYS_ADD_RULE), ctypes.c_int(self.fd), ctypes.c_int(_RULE_PATH_BENEATH),
                        attr, ctypes.c_uint32(0)) < 0:
                raise _fail(f"landlock_add_rule({path})")
        finally:
            os.close(target)
        return True

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def restrict_thread(ruleset: Ruleset) -> None:
    """Confine the calling thread (only it: no_new_privs and a Landlock domain are per-thread) and
    whatever it starts from now on. There is no way back for this thread."""
    if _prctl(ctypes.c_int(_PR_SET_NO_NEW_PRIVS), ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0),
              ctypes.c_ulong(0)) != 0:
        raise _fail("prctl(PR_SET_NO_NEW_PRIVS)")
    if _syscall(ctypes.c_long(_SYS_RESTRICT_SELF), ctypes.c_int(ruleset.fd), ctypes.c_uint32(0)) < 0:
        raise _fail("landlock_restrict_self")
