"""Every way out to the network a confined command might try, checked from outside with real
listeners on 127.0.0.1: none gets a connection through (issue 13's "network fully blocked")."""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from sandbox_helpers import needs_network_rules, run_confined

from konstruct_tui.commands import ProcessOutcome
from konstruct_tui.sandbox import kernel_abi
from konstruct_tui.sandbox.seccomp import seccomp_filter

pytestmark = [needs_network_rules, pytest.mark.skipif(seccomp_filter() is None, reason="no seccomp filter here")]

# listen() with no bind(): the kernel binds an ephemeral port (Landlock's bind rule never sees it).
AUTOBIND_LISTEN = """
import socket, sys, time
try:
    s = socket.socket()
    s.listen(1)
except PermissionError:
    print("refused"); sys.exit(0)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
s.settimeout(5)
try:
    s.accept(); print("accepted")
except OSError:
    print("nobody came")
"""

FAST_OPEN = """
import socket, sys
try:
    s = socket.socket()
    s.sendto(b"fastopen", socket.MSG_FASTOPEN, ("127.0.0.1", int(sys.argv[1])))
    print("sent")
except PermissionError:
    print("refused")
"""

FAMILIES = """
import socket
tries = {
    "raw": (socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP),
    "packet": (socket.AF_PACKET, socket.SOCK_RAW, 0),
    "udp6": (socket.AF_INET6, socket.SOCK_DGRAM, 0),
    "tcp6": (socket.AF_INET6, socket.SOCK_STREAM, 0),
    "sctp": (socket.AF_INET, socket.SOCK_STREAM, 132),
    "vsock": (40, socket.SOCK_STREAM, 0),
}
for name, args in tries.items():
    try:
        socket.socket(*args)
        print(name, "made")
    except OSError as error:
        print(name, "refused" if isinstance(error, PermissionError) else f"error{error.errno}")
"""

IO_URING = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
params = ctypes.create_string_buffer(120)
fd = libc.syscall(425, 8, params)
print("refused" if fd < 0 and ctypes.get_errno() == 1 + 12 else f"made {fd} {ctypes.get_errno()}")
"""

ABSTRACT_UNIX = """
import socket, sys
s = socket.socket(socket.AF_UNIX)
try:
    s.connect("\\0" + sys.argv[1]); s.sendall(b"hi"); print("connected")
except PermissionError:  # Landlock's scope (ABI 6)
    print("refused")
except ConnectionRefusedError:  # not there at all: abstract names are per network namespace (namespaces.py)
    print("refused")
"""


@pytest.fixture
def listener() -> socket.socket:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(0.3)
    yield server
    server.close()


def _nothing_arrives(server: socket.socket) -> None:
    with pytest.raises(TimeoutError):
        server.accept()


def test_listen_without_bind_gets_no_port_anyone_can_reach(workspace_root: Path) -> None:
    port_file = workspace_root / "port.txt"
    box: dict[str, ProcessOutcome] = {}
    runner = threading.Thread(target=lambda: box.update(
        out=run_confined(workspace_root, [sys.executable, "-I", "-c", AUTOBIND_LISTEN, str(port_file)])))
    runner.start()
    reached = False
    while runner.is_alive():
        if port_file.exists() and port_file.read_text():
            try:
                socket.create_connection(("127.0.0.1", int(port_file.read_text())), timeout=1).close()
                reached = True
            except OSError:
                pass
            break
        time.sleep(0.02)
    runner.join()
    assert not reached
    assert box["out"].stdout.strip() == "refused", box["out"]


def test_tcp_fast_open_does_not_connect_out(workspace_root: Path, listener: socket.socket) -> None:
    listener.setsockopt(socket.IPPROTO_TCP, 23, 5)  # TCP_FASTOPEN on the server side
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", FAST_OPEN, str(listener.getsockname()[1])])
    assert outcome.stdout.strip() == "refused", outcome
    _nothing_arrives(listener)


def test_no_other_socket_family_can_be_made(workspace_root: Path) -> None:
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", FAMILIES])
    results = dict(line.split(" ", 1) for line in outcome.stdout.splitlines())
    assert results == dict.fromkeys(("raw", "packet", "udp6", "tcp6", "sctp", "vsock"), "refused"), outcome


def test_ipv6_loopback_connect_is_refused(workspace_root: Path) -> None:
    try:
        server = socket.socket(socket.AF_INET6)
        server.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    server.listen(1)
    server.settimeout(0.3)
    code = ("import socket, sys\ntry:\n    socket.create_connection(('::1', int(sys.argv[1])), timeout=2); print('connected')\n"
            "except PermissionError:\n    print('refused')")
    with server:
        outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", code, str(server.getsockname()[1])])
        assert outcome.stdout.strip() == "refused", outcome
        _nothing_arrives(server)


def test_io_uring_cannot_be_set_up(workspace_root: Path) -> None:
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", IO_URING])
    assert outcome.stdout.strip() == "refused", outcome


@pytest.mark.skipif(kernel_abi() < 6, reason="abstract unix socket scoping needs Landlock ABI 6")
def test_an_abstract_unix_socket_outside_the_sandbox_is_out_of_reach(workspace_root: Path) -> None:
    name = f"konstruct-test-{uuid.uuid4().hex}"
    server = socket.socket(socket.AF_UNIX)
    server.bind("\0" + name)
    server.listen(1)
    server.settimeout(0.3)
    with server:
        outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", ABSTRACT_UNIX, name])
        assert outcome.stdout.strip() == "refused", outcome
        _nothing_arrives(server)


def test_the_workbench_environment_cannot_be_read_through_proc(workspace_root: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONSTRUCT_TEST_SECRET", "sk-planted-secret")
    code = f"print(open('/proc/{os.getpid()}/environ', 'rb').read())"
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", code])
    assert "sk-planted-secret" not in outcome.stdout + outcome.stderr
    assert outcome.status == "failed"
