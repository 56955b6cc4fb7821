"""The seccomp filter of every confined command: no network socket when the network is blocked,
and, whatever the network setting, no kernel keyring, no user namespace and no set-uid file.

Network. Landlock (ABI >= 4) refuses TCP connect and bind, but not everything that reaches the
network: a TCP socket that calls `listen()` without `bind()` is bound to an ephemeral port by the
kernel and accepts inbound connections; `sendto(MSG_FASTOPEN)` connects as it sends; UDP (DNS
tunnels, QUIC), raw and packet sockets (root has CAP_NET_RAW), SCTP, MPTCP, vsock and the rest are
not TCP. So, with the network blocked, `socket()` succeeds only for unix and netlink sockets and
fails with EACCES for every other family, so no IP socket exists to listen, autobind or fast-open
with (`io_uring_setup` fails always: its socket operations pass no filter either).

Always (red team round 4):
- The kernel keyring (`keyctl`, `add_key`, `request_key`) fails with EPERM. Keyrings are not
  namespaced and Landlock does not govern them: the user keyring (`@u`) is shared by every process
  of the uid, so a confined command read the person's keys there (`keyctl print`), and could plant
  keys for their programs or make the kernel start `/sbin/request-key` unconfined.
- A user namespace (`unshare` or `clone` with CLONE_NEWUSER) fails with EPERM. In one, the command
  held every capability again (CAP_SYS_ADMIN, CAP_NET_ADMIN in a network namespace of its own: the
  nf_tables interface that most recent kernel privilege escalations go through) although the
  launcher dropped them. `clone3` fails with ENOSYS, as in Docker's and Flatpak's filters: its flags
  sit in memory a filter cannot read, and the C libraries fall back to `clone` on ENOSYS.

- A file mode with a set-uid or set-gid bit fails with EPERM: `chmod`, `fchmod`, `fchmodat`,
  `fchmodat2`, and `open`, `openat`, `creat`, `mknod`, `mknodat` when they create a file (red team
  round 5). Landlock governs where a command writes, not the mode it gives a file: a confined
  command run as root made a program in the workspace set-uid root, and anyone on the machine
  could then run it as root (as yourself, as you). `openat2` takes its mode in memory a filter
  cannot read: it fails with ENOSYS, and callers fall back to `openat`. `io_uring_setup` fails
  whatever the network setting: its operations (an `openat` among them) pass no filter.

Per-thread, like Landlock; inherited by the child and its descendants and never removable. System
calls of another architecture (i386 `int 0x80`, x32) fail outright: the filter could not read their
numbers. Only x86_64 and aarch64 are known; elsewhere no filter is installed and `seccomp_filter()`
says so by returning None.
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct
from dataclasses import dataclass


@dataclass(frozen=True)
class _Arch:
    audit: int  # AUDIT_ARCH_*
    x32_bit: int  # 0 where there is no x32 ABI
    socket: int
    io_uring_setup: int
    keyctl: int
    add_key: int
    request_key: int
    unshare: int
    clone: int  # the flags are its first argument on both architectures
    clone3: int
    # Calls that set a file's mode: where the mode is (its argument's index), and for the opens,
    # where the flags are (the mode counts only with O_CREAT or O_TMPFILE). aarch64 has the *at ones only.
    mode_at: tuple[tuple[int, int], ...]  # (syscall, mode argument)
    open_at: tuple[tuple[int, int, int], ...]  # (syscall, flags argument, mode argument)
    openat2: int


_ARCHES = {
    "x86_64": _Arch(0xC000003E, 0x40000000, socket=41, io_uring_setup=425, keyctl=250, add_key=248,
                    request_key=249, unshare=272, clone=56, clone3=435,
                    # chmod, fchmod, creat, mknod (mode: args[1]); fchmodat, fchmodat2, mknodat (args[2])
                    mode_at=((90, 1), (91, 1), (85, 1), (133, 1), (268, 2), (452, 2), (259, 2)),
                    open_at=((2, 1, 2), (257, 2, 3)), openat2=437),  # open, openat
    "aarch64": _Arch(0xC00000B7, 0, socket=198, io_uring_setup=425, keyctl=219, add_key=217,
                     request_key=218, unshare=97, clone=220, clone3=435,
                     mode_at=((52, 1), (53, 2), (452, 2), (33, 2)),  # fchmod, fchmodat, fchmodat2, mknodat
                     open_at=((56, 2, 3),), openat2=437),  # openat
}
_ALLOW = 0x7FFF0000
_ERRNO = 0x00050000
_EACCES, _EPERM, _ENOSYS = _ERRNO | 13, _ERRNO | 1, _ERRNO | 38
_CLONE_NEWUSER = 0x10000000
_SET_ID_BITS = 0o6000  # S_ISUID | S_ISGID
_CREATES = 0x40 | 0x400000  # O_CREAT | __O_TMPFILE (the same on x86_64 and aarch64)
_AF_UNIX, _AF_NETLINK = 1, 16
_LD_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2
_LIBC = ctypes.CDLL(None, use_errno=True)


def _program(arch: _Arch, block_network: bool = True) -> list[tuple[int, int, int, int]]:
    """The BPF program as (code, jump-if-true, jump-if-false, k), jumps resolved from labels."""
    # Labels are resolved in a second pass: ("jeq", value, true_label, false_label).
    source: list[tuple] = [
        ("ld", 4),                                   # arch
        ("jeq", arch.audit, "native", "deny"),
        ("label", "native"),
        ("ld", 0),                                   # syscall number
        ("jge", arch.x32_bit or 0xFFFFFFFF, "deny", "numbered"),
        ("label", "numbered"),
        ("jeq", arch.keyctl, "eperm", "not_keyctl"),
        ("label", "not_keyctl"),
        ("jeq", arch.add_key, "eperm", "not_add_key"),
        ("label", "not_add_key"),
        ("jeq", arch.request_key, "eperm", "not_request_key"),
        ("label", "not_request_key"),
        ("jeq", arch.clone3, "enosys", "not_clone3"),
        ("label", "not_clone3"),
        ("jeq", arch.unshare, "flags", "not_unshare"),
        ("label", "not_unshare"),
        ("jeq", arch.clone, "flags", "not_clone"),
        ("label", "not_clone"),
        ("jeq", arch.io_uring_setup, "deny", "not_uring"),
        ("label", "not_uring"),
        ("jeq", arch.openat2, "enosys", "not_openat2"),
        ("label", "not_openat2"),
    ]
    for number, mode in arch.mode_at:
        source += [("jeq", number, f"mode{mode}", f"not_{number}"), ("label", f"not_{number}")]
    for number, flags, mode in arch.open_at:
        source += [("jeq", number, f"open{number}", f"not_{number}"), ("label", f"not_{number}")]
    if block_network:
        source += [
            ("jeq", arch.socket, "socket", "allow"),
            ("label", "socket"),
            ("ld", 16),                              # args[0]: domain (low 32 bits, little-endian)
            ("jeq", _AF_UNIX, "allow", "not_unix"),
            ("label", "not_unix"),
            ("jeq", _AF_NETLINK, "allow", "deny"),   # every other family: no socket at all
        ]
    else:
        source += [("ret", _ALLOW)]
    for number, flags, mode in arch.open_at:  # a mode counts only when the open creates the file
        source += [("label", f"open{number}"), ("ld", 16 + 8 * flags), ("jset", _CREATES, f"mode{mode}", "allow")]
    for index in sorted({m for _, m in arch.mode_at} | {m for _, _, m in arch.open_at}):
        source += [("label", f"mode{index}"), ("ld", 16 + 8 * index), ("jset", _SET_ID_BITS, "eperm", "allow")]
    source += [
        ("label", "flags"),
        ("ld", 16),                                  # args[0]: the flags of unshare and clone
        ("jset", _CLONE_NEWUSER, "eperm", "allow"),
        ("label", "allow"),
        ("ret", _ALLOW),
        ("label", "eperm"),
        ("ret", _EPERM),
        ("label", "enosys"),
        ("ret", _ENOSYS),
        ("label", "deny"),
        ("ret", _EACCES),
    ]
    positions: dict[str, int] = {}
    count = 0
    for item in source:
        if item[0] == "label":
            positions[item[1]] = count
        else:
            count += 1
    out: list[tuple[int, int, int, int]] = []
    for item in source:
        kind = item[0]
        if kind == "label":
            continue
        here = len(out)
        if kind == "ld":
            out.append((_LD_ABS, 0, 0, item[1]))
        elif kind == "ret":
            out.append((_RET, 0, 0, item[1]))
        else:
            code = {"jeq": _JEQ, "jge": _JGE, "jset": _JSET}[kind]
            out.append((code, positions[item[2]] - here - 1, positions[item[3]] - here - 1, item[1]))
    return out


def seccomp_filter(block_network: bool = True) -> bytes | None:
    """The packed filter for this machine, or None where we do not know its system calls."""
    known = _ARCHES.get(platform.machine())
    if known is None:
        return None
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in _program(known, block_network))


def install(filter_bytes: bytes) -> None:
    """Install on the calling thread (no_new_privs must already be set). Raises OSError."""
    count = len(filter_bytes) // 8
    buffer = ctypes.create_string_buffer(filter_bytes, len(filter_bytes))
    prog = struct.pack("=HxxxxxxQ", count, ctypes.addressof(buffer))
    prog_buffer = ctypes.create_string_buffer(prog, len(prog))
    if _LIBC.prctl(ctypes.c_int(_PR_SET_SECCOMP), ctypes.c_ulong(_SECCOMP_MODE_FILTER),
                  ctypes.c_void_p(ctypes.addressof(prog_buffer)), ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"prctl(PR_SET_SECCOMP): {os.strerror(number)}")
