"""Root inside the sandbox: the capabilities a confined command must not carry.

Landlock applies to root too, but a root command keeps its capabilities, and some of them act on
things Landlock does not govern: loading kernel modules from memory, raw I/O ports, bpf and perf,
mount namespaces, network administration, raw sockets, device nodes. The launcher thread drops
these from its capability bounding set before it starts the command; for root, what a program
gets at exec is limited by that set, so the command and all its descendants run without them (and
no_new_privs keeps set-uid and file-capability programs from adding any back). Capabilities that
only make root root for files (owner and permission overrides) are kept: "reads anywhere it could
before" must hold for root too, and the workspace may hold files owned by someone else.

CAP_DAC_READ_SEARCH goes too (red team round 4), although it reads as a permission override: it is
also the right to `open_by_handle_at`, which opens a file by its inode through any mount the
command holds, whatever path led there. Through the workspace's read-write mount a confined root
opened `.git/config` (bound read-only in the view) for writing, and `fchmod`-ed a program in a
folder on PATH to set-uid root. CAP_DAC_OVERRIDE, kept, already overrides read and search
permissions, so nothing a confined root could read before is lost.

CAP_SYS_NICE and CAP_IPC_LOCK go too (red team round 4): with them a confined root ran at real-time
priority (SCHED_FIFO: your desktop and the workbench get what the kernel's throttling leaves, 5% of
each CPU, for as long as the command runs) and could lock memory past its limit.

An unprivileged user has none of these and no right to change the bounding set (EPERM): nothing to
drop, nothing lost.
"""

from __future__ import annotations

import ctypes
import errno

_PR_CAPBSET_DROP = 24
DROPPED = {
    "CAP_DAC_READ_SEARCH": 2,  # open_by_handle_at: see above
    "CAP_IPC_LOCK": 14, "CAP_SYS_NICE": 23,  # memory locked, real-time priority: see above
    "CAP_SETPCAP": 8, "CAP_LINUX_IMMUTABLE": 9, "CAP_NET_ADMIN": 12, "CAP_NET_RAW": 13,
    "CAP_SYS_MODULE": 16, "CAP_SYS_RAWIO": 17, "CAP_SYS_CHROOT": 18, "CAP_SYS_PTRACE": 19,
    "CAP_SYS_PACCT": 20, "CAP_SYS_ADMIN": 21, "CAP_SYS_BOOT": 22, "CAP_SYS_TIME": 25,
    "CAP_SYS_TTY_CONFIG": 26, "CAP_MKNOD": 27, "CAP_AUDIT_WRITE": 29, "CAP_AUDIT_CONTROL": 30,
    "CAP_SETFCAP": 31, "CAP_MAC_OVERRIDE": 32, "CAP_MAC_ADMIN": 33, "CAP_SYSLOG": 34,
    "CAP_WAKE_ALARM": 35, "CAP_BLOCK_SUSPEND": 36, "CAP_AUDIT_READ": 37, "CAP_PERFMON": 38,
    "CAP_BPF": 39, "CAP_CHECKPOINT_RESTORE": 40,
}
_LIBC = ctypes.CDLL(None, use_errno=True)


def drop_dangerous_capabilities() -> None:
    """Drop DROPPED from the calling thread's bounding set. Raises OSError on a real failure."""
    for number in DROPPED.values():
        if _LIBC.prctl(ctypes.c_int(_PR_CAPBSET_DROP), ctypes.c_ulong(number), ctypes.c_ulong(0),
                       ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
            code = ctypes.get_errno()
            if code == errno.EPERM:
                return  # not privileged: there is nothing to drop
            if code != errno.EINVAL:  # EINVAL: this kernel does not know that capability
                raise OSError(code, f"prctl(PR_CAPBSET_DROP, {number})")
