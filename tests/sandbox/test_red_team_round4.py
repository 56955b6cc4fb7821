"""Red team, round 4: routes out of the sandbox that go around the filesystem and the sockets.

Acting as a command that wants out, each test tries a group of routes in one confined script and
asserts every one stays shut, with a check, where one can be made, that the route is open without
the sandbox (so a route that never worked cannot pass). Closed in this round (CHANGELOG):
- the kernel keyring: the user keyring `@u` is shared by every process of the uid and Landlock
  does not govern it; a confined command read the person's keys (seccomp.py now refuses keyctl,
  add_key and request_key, whatever the network setting);
- user namespaces: `unshare(CLONE_NEWUSER)` gave the command every capability back (CAP_SYS_ADMIN,
  and CAP_NET_ADMIN over a network namespace of its own: nf_tables) (seccomp.py);
- netlink to processes outside: with the network blocked, a netlink socket of the person's took
  messages from a confined command (namespaces.py: a network namespace of its own);
- System V shared memory and message queues: a confined command attached a segment of the
  person's and read it (namespaces.py: an IPC namespace of its own);
- file handles: as root, `open_by_handle_at` through the workspace's read-write mount opened
  `.git/config` for writing and a program on PATH for `fchmod` to set-uid (privileges.py: root
  loses CAP_DAC_READ_SEARCH).
Already shut, kept shut here: the person's terminal (TIOCSTI), file descriptors of the workbench,
bpf, perf, userfaultfd, mount, chroot, /proc and /sys writes, daemons that try to outlive the call,
hard links, exchanges and O_TMPFILE links to files outside the workspace or into `.git`.
"""

from __future__ import annotations

import ctypes
import errno
import os
import pty
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from konstruct_tui.sandbox import namespaces
from sandbox_helpers import needs_landlock, run_confined

pytestmark = needs_landlock
needs_namespaces = pytest.mark.skipif(not namespaces.available(), reason="needs private namespaces (root)")

_LIBC = ctypes.CDLL(None, use_errno=True)
_LIBC.syscall.restype = ctypes.c_long
_ADD_KEY, _KEYCTL = {"x86_64": (248, 250), "aarch64": (217, 219)}.get(os.uname().machine, (0, 0))
_KEY_SPEC_USER_KEYRING = -4
_KEYCTL_SEARCH, _KEYCTL_READ, _KEYCTL_INVALIDATE = 10, 11, 21

# Prints one "<route> <open|shut> <detail>" line per attempt.
PRELUDE = """
import ctypes, errno, os, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
ARCH = {"x86_64": dict(add_key=248, request_key=249, keyctl=250, unshare=272, clone=56, clone3=435, bpf=321,
                       perf=298, userfaultfd=323, pivot_root=155, mount=165, process_vm_readv=310, io_uring=425),
        "aarch64": dict(add_key=217, request_key=218, keyctl=219, unshare=97, clone=220, clone3=435, bpf=280,
                        perf=241, userfaultfd=282, pivot_root=41, mount=40, process_vm_readv=270, io_uring=425)
        }[os.uname().machine]
def call(name, *args):
    ctypes.set_errno(0)
    value = libc.syscall(ctypes.c_long(ARCH[name]), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    return value, ctypes.get_errno()
def report(route, opened, detail=""):
    print(route, "open" if opened else "shut", detail, flush=True)
def attempt(route, action):
    try:
        report(route, True, action())
    except OSError as error:
        report(route, False, errno.errorcode.get(error.errno, error.errno))
def sys_attempt(route, name, *args):
    value, number = call(name, *args)
    report(route, value >= 0, errno.errorcode.get(number, number))
"""


def _results(stdout: str) -> dict[str, str]:
    out = {}
    for line in stdout.splitlines():
        route, _, rest = line.partition(" ")
        out[route] = rest
    return out


def _opened(results: dict[str, str]) -> list[str]:
    return [f"{route} {rest}" for route, rest in results.items() if rest.startswith("open")]


def _confined(root: Path, script: str, *args: str, allow_network: bool = False) -> dict[str, str]:
    (root / "attempt.py").write_text(PRELUDE + script)
    outcome = run_confined(root, [sys.executable, "-I", "attempt.py", *args], allow_network=allow_network)
    assert outcome.status == "ok", outcome
    return _results(outcome.stdout)


# --- the kernel keyring and user namespaces: closed in this round -------------------------------

KEYRING_AND_USERNS = """
name, secret = sys.argv[1].encode(), sys.argv[2].encode()
key, number = call("keyctl", 10, -4, b"user", name, 0)          # KEYCTL_SEARCH @u
buffer = ctypes.create_string_buffer(256)
if key > 0:
    size, number = call("keyctl", 11, key, buffer, 256)          # KEYCTL_READ
    report("read_user_keyring", secret in buffer.raw, size)
else:
    report("read_user_keyring", False, errno.errorcode.get(number, number))
try:
    report("your_key_listed", name in open("/proc/keys", "rb").read())
except OSError as error:
    report("your_key_listed", False, errno.errorcode.get(error.errno))
sys_attempt("plant_key", "add_key", b"user", sys.argv[3].encode(), b"planted", 7, -4)
sys_attempt("request_key", "request_key", b"user", b"konstruct-red-team", b"callout", -4)
sys_attempt("link_user_keyring", "keyctl", 8, -4, -3)              # KEYCTL_LINK @u into @s
sys_attempt("unshare_user", "unshare", 0x10000000)
sys_attempt("unshare_user_net_mount", "unshare", 0x10000000 | 0x40000000 | 0x20000)
pid, number = call("clone", 0x10000000 | 17, 0, 0, 0, 0)           # CLONE_NEWUSER | SIGCHLD
if pid == 0:
    os._exit(0)
if pid > 0:
    os.waitpid(pid, 0)
report("clone_user", pid > 0, errno.errorcode.get(number, number))
sys_attempt("clone3", "clone3", ctypes.create_string_buffer(88), 88)
caps = [line.split()[1] for line in open("/proc/self/status") if line.startswith("CapEff")][0]
report("full_capabilities", int(caps, 16) & (1 << 21), caps)     # CAP_SYS_ADMIN
# What must keep working: threads and processes (glibc falls back from clone3 to clone).
import subprocess, threading
thread = threading.Thread(target=lambda: None); thread.start(); thread.join()
report("children_still_start", subprocess.run([sys.executable, "-c", "print(6 * 7)"], capture_output=True,
       text=True).stdout.strip() != "42")
"""


def _keyctl(*args: int | bytes) -> int:
    value = _LIBC.syscall(ctypes.c_long(_KEYCTL), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    return int(value)


@pytest.fixture
def key_of_yours():
    """A secret in the person's user keyring (shared by every process of this uid), as a
    credential helper or `keyctl padd user token @u` leaves one; removed afterwards."""
    if not _ADD_KEY:
        pytest.skip("no system call numbers known for the keyring on this architecture")
    name, secret = f"konstruct-red-team-{uuid.uuid4().hex}", f"hunter2-{uuid.uuid4().hex}"
    key = _LIBC.syscall(ctypes.c_long(_ADD_KEY), b"user", name.encode(), secret.encode(),
                        ctypes.c_long(len(secret)), ctypes.c_long(_KEY_SPEC_USER_KEYRING))
    if key < 0:
        pytest.skip(f"this kernel keeps no keyring here: {os.strerror(ctypes.get_errno())}")
    buffer = ctypes.create_string_buffer(256)
    assert _keyctl(_KEYCTL_READ, key, buffer, 256) == len(secret)  # readable by this uid: the route is real
    yield name, secret
    _keyctl(_KEYCTL_INVALIDATE, key)


@pytest.mark.parametrize("allow_network", [False, True], ids=["network-blocked", "network-allowed"])
def test_your_keyring_and_user_namespaces_are_out_of_reach(workspace_root: Path, key_of_yours,
                                                           allow_network: bool) -> None:
    name, secret = key_of_yours
    planted = f"konstruct-planted-{uuid.uuid4().hex}"
    results = _confined(workspace_root, KEYRING_AND_USERNS, name, secret, planted, allow_network=allow_network)
    assert set(results) >= {"read_user_keyring", "your_key_listed", "plant_key", "request_key", "link_user_keyring", "unshare_user",
                            "unshare_user_net_mount", "clone_user", "clone3", "full_capabilities",
                            "children_still_start"}, results
    opened = _opened(results)
    if not namespaces.available():  # the machine's own /proc: names of keys are listed there (docs/sandbox.md)
        opened = [line for line in opened if not line.startswith("your_key_listed")]
    assert opened == [], results
    assert results["clone3"] == "shut ENOSYS"  # what makes the C library fall back to clone
    found = _keyctl(_KEYCTL_SEARCH, _KEY_SPEC_USER_KEYRING, b"user", planted.encode(), 0)
    if found > 0:
        _keyctl(_KEYCTL_INVALIDATE, found)  # a failing run leaves nothing in the keyring
    assert found < 0  # nothing planted


# --- System V shared memory and message queues: closed in this round ----------------------------

SYSV = """
libc.shmat.restype = ctypes.c_void_p
segment, queue, secret = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].encode()
ctypes.set_errno(0)
address = libc.shmat(segment, None, 0)
if address in (None, ctypes.c_void_p(-1).value):
    report("attach_your_segment", False, errno.errorcode.get(ctypes.get_errno()))
else:
    report("attach_your_segment", True, ctypes.string_at(address, len(secret)) == secret)
message = ctypes.create_string_buffer(b"\\1\\0\\0\\0\\0\\0\\0\\0red!")
report("send_to_your_queue", libc.msgsnd(queue, message, 4, 0o4000) == 0, errno.errorcode.get(ctypes.get_errno()))
with open("/proc/sysvipc/shm") as listing:
    report("your_segment_listed", f" {segment} " in listing.read())
own = libc.shmget(0, 4096, 0o1600)                                  # IPC_PRIVATE | IPC_CREAT: its own still work
mine = libc.shmat(own, None, 0)
ctypes.memmove(mine, b"ok", 2)
report("own_segment_broken", ctypes.string_at(mine, 2) != b"ok")
libc.shmctl(own, 0, None)                                          # IPC_RMID
"""


@pytest.fixture
def memory_of_yours():
    """A shared memory segment holding a secret and a message queue, as a database or a desktop
    program keeps them; removed afterwards."""
    _LIBC.shmat.restype = ctypes.c_void_p
    secret = f"hunter2-{uuid.uuid4().hex}"
    segment = _LIBC.shmget(0, 4096, 0o1600)  # IPC_PRIVATE | IPC_CREAT, 0600: found by its id alone
    queue = _LIBC.msgget(0, 0o1600)
    if segment < 0 or queue < 0:
        pytest.skip("this kernel has no System V IPC")
    address = _LIBC.shmat(segment, None, 0)
    ctypes.memmove(address, secret.encode(), len(secret))
    yield segment, queue, secret
    _LIBC.shmdt(ctypes.c_void_p(address))
    _LIBC.shmctl(segment, 0, None)
    _LIBC.msgctl(queue, 0, None)


@needs_namespaces
def test_your_shared_memory_and_message_queues_are_out_of_reach(workspace_root: Path, memory_of_yours) -> None:
    segment, queue, secret = memory_of_yours
    script = [sys.executable, "-I", "-c", PRELUDE + SYSV, str(segment), str(queue), secret]
    unconfined = _results(subprocess.run(script, capture_output=True, text=True, timeout=30).stdout)
    assert unconfined["attach_your_segment"] == "open True", unconfined  # the route is real outside
    assert unconfined["send_to_your_queue"].startswith("open"), unconfined
    # With the network allowed: no network namespace either, the IPC namespace alone must hold.
    results = _confined(workspace_root, SYSV, str(segment), str(queue), secret, allow_network=True)
    assert len(results) == 4, results
    assert _opened(results) == [], results
    received = ctypes.create_string_buffer(16)
    assert _LIBC.msgrcv(queue, received, 8, 0, 0o4000) == 4  # IPC_NOWAIT: the unconfined one ...
    assert _LIBC.msgrcv(queue, received, 8, 0, 0o4000) == -1  # ... and nothing from the sandbox


# --- file handles: closed in this round ---------------------------------------------------------

HANDLES = """
def by_handle(path, flags):
    handle = ctypes.create_string_buffer((128).to_bytes(4, "little") + bytes(132))
    mount_id = ctypes.c_int()
    if libc.name_to_handle_at(-100, path.encode(), handle, ctypes.byref(mount_id), 0) != 0:
        raise OSError(ctypes.get_errno(), "name_to_handle_at")
    fd = libc.open_by_handle_at(os.open(".", os.O_RDONLY | os.O_DIRECTORY), handle, flags)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "open_by_handle_at")
    return fd
attempt("write_git_config", lambda: os.write(by_handle(".git/config", os.O_WRONLY | os.O_APPEND),
                                             b"[core]\\n\\thooksPath = /tmp/planted\\n"))
attempt("setuid_program_on_path", lambda: os.fchmod(by_handle(sys.argv[1], os.O_RDONLY), 0o4777))
attempt("plain_chmod", lambda: os.chmod(sys.argv[1], 0o4777))
"""


@needs_namespaces
def test_a_file_handle_opens_nothing_the_view_keeps_read_only(workspace_root: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    subprocess.run(["git", "init", "-q", str(workspace_root)], check=True, timeout=30)
    tools = tmp_path / "tools-on-path"  # a PATH folder: readable in the view, bound read-only
    tools.mkdir()
    program = tools / "deploy"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    config = (workspace_root / ".git" / "config").read_bytes()
    results = _confined(workspace_root, HANDLES, str(program))
    assert len(results) == 3, results
    assert _opened(results) == [], results
    assert (workspace_root / ".git" / "config").read_bytes() == config
    assert program.stat().st_mode & 0o7777 == 0o755


# --- privileged kernel interfaces, /proc and /sys: already shut ----------------------------------

KERNEL = """
workbench = int(sys.argv[1])
array_map = ctypes.create_string_buffer(bytes([2, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 1]) + bytes(115))
sys_attempt("bpf_map", "bpf", 0, array_map, 128)
sys_attempt("perf_event", "perf", ctypes.create_string_buffer(bytes([1, 0, 0, 0, 128]) + bytes(123)), 0, -1, -1, 0)
sys_attempt("userfaultfd", "userfaultfd", 0)
sys_attempt("mount_tmpfs", "mount", b"none", b"/tmp", b"tmpfs", 0, None)
sys_attempt("remount_usr_rw", "mount", None, b"/usr", None, 32 | 4096, None)
sys_attempt("pivot_root", "pivot_root", b".", b".")
sys_attempt("io_uring", "io_uring", 8, ctypes.create_string_buffer(120))
import struct
byte = ctypes.create_string_buffer(1)
local = ctypes.create_string_buffer(struct.pack("=QQ", ctypes.addressof(byte), 1))
remote = ctypes.create_string_buffer(struct.pack("=QQ", 4096, 1))  # EFAULT, had it been allowed to look
value, number = call("process_vm_readv", workbench, local, 1, remote, 1, 0)
report("read_workbench_memory", number not in (errno.ESRCH, errno.EPERM), errno.errorcode.get(number, number))
attempt("chroot", lambda: os.chroot("."))
attempt("ptrace_workbench_proc", lambda: open(f"/proc/{workbench}/mem", "rb").read(1))
for path in ("/proc/sys/kernel/hostname", "/proc/sysrq-trigger", "/proc/self/uid_map", "/sys/fs/cgroup/cgroup.procs",
             "/sys/kernel/uevent_helper", "/sys/kernel/mm/transparent_hugepage/enabled"):
    attempt("write:" + path, lambda: open(path, "w").write("1"))
for path in ("/proc/kmsg", "/dev/kmsg", "/dev/mem", "/dev/port", "/dev/sda", "/dev/vda"):
    attempt("read:" + path, lambda: os.read(os.open(path, os.O_RDONLY | os.O_NONBLOCK), 1))
attempt("real_time_priority", lambda: os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1)))
attempt("nice_below_zero", lambda: os.setpriority(os.PRIO_PROCESS, 0, -5))
import mmap, resource
limit = resource.getrlimit(resource.RLIMIT_MEMLOCK)[0]
if limit != resource.RLIM_INFINITY:
    region = mmap.mmap(-1, limit + 2 * mmap.PAGESIZE)
    address = ctypes.c_void_p.from_buffer(region)
    locked = libc.mlock(ctypes.c_void_p(ctypes.addressof(address)), ctypes.c_size_t(limit + 2 * mmap.PAGESIZE))
    report("lock_past_the_limit", locked == 0, errno.errorcode.get(ctypes.get_errno()))
    del address
"""


@needs_namespaces
def test_privileged_kernel_interfaces_and_proc_and_sys_writes_stay_shut(workspace_root: Path) -> None:
    results = _confined(workspace_root, KERNEL, str(os.getpid()))
    assert len(results) >= 24, results
    assert _opened(results) == [], results


# --- the person's terminal and the workbench's file descriptors: already shut -------------------

TERMINAL = """
import fcntl, termios
print("fds", sorted(int(fd) for fd in os.listdir("/proc/self/fd")), flush=True)
for fd in range(3, 64):
    try:
        os.fstat(fd); report(f"inherited:{fd}", True, os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        pass
for fd in (0, 1, 2, int(sys.argv[1])):
    attempt(f"tiocsti:{fd}", lambda: fcntl.ioctl(fd, termios.TIOCSTI, b"x"))
for path in ("/dev/tty", "/dev/ptmx", "/dev/pts/0", "/dev/console", "/dev/tty0", "/dev/vcs", sys.argv[2]):
    attempt("open:" + path, lambda: os.open(path, os.O_RDWR | os.O_NOCTTY))
"""


def test_no_terminal_and_no_descriptor_of_the_workbench_reaches_the_command(workspace_root: Path, tmp_path: Path, isolated: bool) -> None:
    master, terminal = pty.openpty()  # a terminal of the person's, as the workbench's own would be
    store = os.open(tmp_path / "store.sqlite", os.O_RDWR | os.O_CREAT)  # the workbench's store, log ...
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    for fd in (terminal, store, listener.fileno()):
        os.set_inheritable(fd, True)  # the worst case: not even close-on-exec
    try:
        results = _confined(workspace_root, TERMINAL, str(terminal), os.ttyname(terminal))
        os.set_blocking(master, False)
        with pytest.raises(BlockingIOError):
            os.read(master, 16)  # nothing was typed into the terminal
    finally:
        for fd in (master, terminal, store):
            os.close(fd)
        listener.close()
    assert results["fds"] == "[0, 1, 2, 3]", results  # 3: the listing's own
    assert {"tiocsti:0", "open:/dev/tty", "open:/dev/ptmx"} <= set(results), results
    assert _opened(results) == [], results


# --- netlink and other families with the network blocked: netlink closed in this round ---------

NETLINK = """
port, tcp_port, abstract = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
def send(protocol):
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, protocol)
    s.sendto(bytes([20, 0, 0, 0, 16]) + bytes(11) + b"red!", (port, 0))
attempt("netlink_usersock_to_yours", lambda: send(2))
def listed(path, needle):
    with open(path) as handle:
        return needle in handle.read()
report("your_tcp_listener_listed", listed("/proc/net/tcp", f":{tcp_port:04X} "))
report("your_abstract_socket_listed", listed("/proc/net/unix", "@" + abstract))
def connect(family, address, kind=socket.SOCK_STREAM):
    s = socket.socket(family, kind); s.settimeout(3); s.connect(address)
attempt("tcp6_loopback", lambda: connect(socket.AF_INET6, ("::1", tcp_port)))
attempt("udp_loopback", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", tcp_port)))
for name, family, kind in (("packet", 17, socket.SOCK_RAW), ("vsock", 40, socket.SOCK_STREAM),
                           ("bluetooth", 31, socket.SOCK_RAW), ("can", 29, socket.SOCK_RAW),
                           ("rds", 21, socket.SOCK_SEQPACKET)):
    attempt(name, lambda: socket.socket(family, kind))
"""


@needs_namespaces
def test_with_the_network_blocked_netlink_reaches_no_process_of_yours(workspace_root: Path) -> None:
    receiver = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 2)  # NETLINK_USERSOCK: a daemon of the person's
    receiver.bind((0, 0))
    receiver.settimeout(0.5)
    port = receiver.getsockname()[0]
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(1)
    abstract = f"konstruct-red-team-{uuid.uuid4().hex[:10]}"
    unix = socket.socket(socket.AF_UNIX)
    unix.bind("\0" + abstract)
    unix.listen(1)
    try:
        sender = [sys.executable, "-I", "-c", PRELUDE + NETLINK, str(port), str(tcp.getsockname()[1]), abstract]
        unconfined = _results(subprocess.run(sender, capture_output=True, text=True, timeout=30).stdout)
        assert receiver.recv(64).endswith(b"red!")  # the route is real outside the sandbox
        assert unconfined["your_tcp_listener_listed"].startswith("open"), unconfined
        assert unconfined["your_abstract_socket_listed"].startswith("open"), unconfined
        results = _confined(workspace_root, NETLINK, str(port), str(tcp.getsockname()[1]), abstract)
        with pytest.raises(TimeoutError):
            receiver.recv(64)
    finally:
        receiver.close()
        tcp.close()
        unix.close()
    assert len(results) == 10, results
    assert _opened(results) == [], results


# --- outliving the call: already shut -----------------------------------------------------------

OUTLIVE = """
import signal, time
def note(name):  # the machine's number for this process: this /proc counts as the machine does
    with open(f"pids/{name}", "w") as out:
        out.write(os.readlink("/proc/self"))
def linger(name, *tricks):
    if os.fork():
        return
    os.setsid()
    if os.fork():
        os._exit(0)
    note(name)
    for trick in tricks:
        trick()
    while True:
        time.sleep(0.05)
def nested():
    call("unshare", 0x10000000 | 0x20000000)  # a PID namespace of its own, inside a user namespace
    if os.fork() == 0:
        note("in_nested_namespace")
        while True:
            time.sleep(0.05)
os.mkdir("pids")
linger("double_fork")
ignore = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
linger("ignores_signals", lambda: [signal.signal(s, signal.SIG_IGN) for s in ignore])
linger("subreaper_no_deathsig", lambda: libc.prctl(36, 1, 0, 0, 0), lambda: libc.prctl(1, 0, 0, 0, 0))
linger("stopped", lambda: os.kill(os.getpid(), signal.SIGSTOP))
linger("nested", nested)
while sum(1 for name in os.listdir("pids") if open("pids/" + name).read()) < 6:
    time.sleep(0.02)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


@needs_namespaces
def test_daemons_do_not_outlive_the_call_whatever_they_try(workspace_root: Path) -> None:
    (workspace_root / "src" / "attempt.py").write_text(PRELUDE + OUTLIVE)
    outcome = run_confined(workspace_root, [sys.executable, "-I", "src/attempt.py"], timeout_s=30)
    assert outcome.status == "ok", outcome
    pids = {p.name: int(p.read_text()) for p in (workspace_root / "pids").iterdir()}
    assert set(pids) == {"double_fork", "ignores_signals", "subreaper_no_deathsig", "stopped", "nested",
                         "in_nested_namespace"}, pids
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in pids.values()):
        time.sleep(0.05)
    assert [name for name, pid in pids.items() if _alive(pid)] == []


# --- links and exchanges out of the workspace: already shut -------------------------------------

LINKS = """
outside, git_config = sys.argv[1], sys.argv[2]
AT_FDCWD, RENAME_EXCHANGE, O_TMPFILE = -100, 2, 0o20200000
libc.renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
os.chdir("src")  # inside the workspace: without namespaces no new top-level entry can be made
open("mine.txt", "w").write("mine")
attempt("hardlink_outside_in", lambda: os.link(outside, "linked.txt"))
attempt("hardlink_into_git", lambda: os.link("mine.txt", "../.git/hooks/pre-commit"))
attempt("hardlink_git_config_out", lambda: os.link(git_config, "config-copy"))
def exchange(a, b):
    if libc.renameat2(AT_FDCWD, a.encode(), AT_FDCWD, b.encode(), RENAME_EXCHANGE) != 0:
        raise OSError(ctypes.get_errno(), "renameat2")
attempt("exchange_with_git_config", lambda: exchange("mine.txt", git_config))
attempt("exchange_with_outside", lambda: exchange("mine.txt", outside))
def tmpfile_link(target):
    fd = os.open(".", O_TMPFILE | os.O_WRONLY, 0o755)
    os.write(fd, b"#!/bin/sh\\necho pwned\\n")
    os.link(f"/proc/self/fd/{fd}", target)
attempt("tmpfile_into_git_hooks", lambda: tmpfile_link("../.git/hooks/post-checkout"))
attempt("tmpfile_outside", lambda: tmpfile_link(outside + ".new"))
os.symlink(outside, "out.lnk")
attempt("write_through_symlink", lambda: open("out.lnk", "a").write("pwned"))
attempt("rename_git_away", lambda: os.rename("../.git", "git-old"))
"""


def test_links_and_exchanges_reach_nothing_outside_the_workspace_or_in_git(workspace_root: Path, tmp_path: Path, isolated: bool) -> None:
    subprocess.run(["git", "init", "-q", str(workspace_root)], check=True, timeout=30)
    outside = tmp_path / "bashrc"  # on the workspace's own filesystem: a hard link is possible
    outside.write_text("# yours\n")
    git_config = workspace_root / ".git" / "config"
    before = (outside.read_bytes(), git_config.read_bytes(), sorted(os.listdir(workspace_root / ".git" / "hooks")))
    os.link(outside, tmp_path / "probe-link")  # the same filesystem: outside the sandbox the link works
    results = _confined(workspace_root, LINKS, str(outside), str(git_config))
    assert len(results) == 9, results
    assert _opened(results) == [], results
    after = (outside.read_bytes(), git_config.read_bytes(), sorted(os.listdir(workspace_root / ".git" / "hooks")))
    assert after == before
    assert not (tmp_path / "bashrc.new").exists() and (workspace_root / ".git").is_dir()
    assert (workspace_root / "src" / "mine.txt").read_text() == "mine"  # the workspace itself stays writable
