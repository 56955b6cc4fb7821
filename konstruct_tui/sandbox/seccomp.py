"""The rest of "network blocked": a seccomp filter that leaves a command no network socket at all.

Landlock (ABI >= 4) refuses TCP connect and bind, but not everything that reaches the network: a
TCP socket that calls `listen()` without `bind()` is bound to an ephemeral port by the kernel and
accepts inbound connections; `sendto(MSG_FASTOPEN)` connects as it sends; UDP (DNS tunnels, QUIC),
raw and packet sockets (root has CAP_NET_RAW), SCTP, MPTCP, vsock and the rest are not TCP. So,
with the network blocked, the launcher thread also installs this filter (per-thread, like Landlock;
inherited by the child and its descendants): `socket()` succeeds only for unix
and netlink sockets and fail with EACCES for every other family, so no IP socket exists to listen,
autobind or fast-open with; `io_uring_setup` fails too (its socket operations never pass through a
system call a filter could see). System calls of another architecture (i386 `int 0x80`, x32) fail
outright: the filter could not read their numbers. Only x86_64 and aarch64 are known; elsewhere no
filter is installed and `seccomp_filter()` says so by returning None.
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct

_ARCHES = {  # machine: (AUDIT_ARCH_*, __NR_socket, __NR_io_uring_setup, x32 bit or 0)
    "x86_64": (0xC000003E, 41, 425, 0x40000000),
    "aarch64": (0xC00000B7, 198, 425, 0),
}
_ALLOW = 0x7FFF0000
_EACCES = 0x00050000 | 13
_AF_UNIX, _AF_NETLINK = 1, 16
_LD_ABS, _JEQ, _JGE, _AND, _RET = 0x20, 0x15, 0x35, 0x54, 0x06
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2
_LIBC = ctypes.CDLL(None, use_errno=True)


def _program(arch: int, nr_socket: int, nr_io_uring: int, x32_bit: int) -> list[tuple[int, int, int, int]]:
    """The BPF program as (code, jump-if-true, jump-if-false, k), jumps resolved from labels."""
    # Labels are resolved in a second pass: ("jeq", value, true_label, false_label).
    source: list[tuple] = [
        ("ld", 4),                                   # arch
        ("jeq", arch, "native", "deny"),
        ("label", "native"),
        ("ld", 0),                                   # syscall number
        ("jge", x32_bit or 0xFFFFFFFF, "deny", "numbered"),
        ("label", "numbered"),
        ("jeq", nr_io_uring, "deny", "not_uring"),
        ("label", "not_uring"),
        ("jeq", nr_socket, "socket", "allow"),
        ("label", "socket"),
        ("ld", 16),                                  # args[0]: domain (low 32 bits, little-endian)
        ("jeq", _AF_UNIX, "allow", "not_unix"),
        ("label", "not_unix"),
        ("jeq", _AF_NETLINK, "allow", "deny"),       # every other family: no socket at all
        ("label", "allow"),
        ("ret", _ALLOW),
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
        elif kind == "and":
            out.append((_AND, 0, 0, item[1]))
        elif kind == "ret":
            out.append((_RET, 0, 0, item[1]))
        else:
            code = _JEQ if kind == "jeq" else _JGE
            out.append((code, positions[item[2]] - here - 1, positions[item[3]] - here - 1, item[1]))
    return out


def seccomp_filter() -> bytes | None:
    """The packed filter for this machine, or None where we do not know its system calls."""
    known = _ARCHES.get(platform.machine())
    if known is None:
        return None
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in _program(*known))


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
