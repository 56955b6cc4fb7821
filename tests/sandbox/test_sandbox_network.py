"""Outbound TCP connect from a confined command is refused by the kernel unless the project allows
the network (Landlock ABI >= 4)."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_helpers import needs_network_rules, run_confined

from konstruct_tui.sandbox.seccomp import seccomp_filter

pytestmark = needs_network_rules

CONNECT = """
import socket, sys
try:
    s = socket.socket()  # under the seccomp filter, refused already here
    s.settimeout(10)
    s.connect(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b"hello")
    print("connected")
except PermissionError:
    print("refused")
"""


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(10)
    yield server
    server.close()


def _connect(root: Path, server: socket.socket, **kw: object) -> str:
    port = server.getsockname()[1]
    outcome = run_confined(root, [sys.executable, "-I", "-c", CONNECT, str(port)], **kw)  # type: ignore[arg-type]
    assert outcome.status == "ok", outcome
    return outcome.stdout.strip()


@pytest.mark.parametrize("mode", ["workspace-write", "read-only"])
def test_connect_to_a_local_listener_is_refused(workspace_root: Path, listener: socket.socket, mode: str) -> None:
    assert _connect(workspace_root, listener, mode=mode) == "refused"
    listener.settimeout(0.2)
    with pytest.raises(TimeoutError):
        listener.accept()  # nothing ever arrived


def test_connect_is_allowed_when_the_project_allows_the_network(workspace_root: Path, listener: socket.socket) -> None:
    assert _connect(workspace_root, listener, allow_network=True) == "connected"
    peer, _ = listener.accept()
    with peer:
        assert peer.recv(5) == b"hello"


def test_full_mode_does_not_block_the_network(workspace_root: Path, listener: socket.socket) -> None:
    assert _connect(workspace_root, listener, mode="full") == "connected"


UDP_SEND = """
import socket, sys
try:
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"leak", ("127.0.0.1", int(sys.argv[1])))
    print("sent")
except PermissionError:
    print("refused")
"""

BIND = """
import socket
try:
    socket.socket().bind(("127.0.0.1", 0))
    print("bound")
except PermissionError:
    print("refused")
"""


@pytest.mark.skipif(seccomp_filter() is None, reason="no seccomp filter for this architecture")
def test_udp_is_refused_too_and_allowed_with_the_network(workspace_root: Path) -> None:
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    receiver.settimeout(0.3)
    port = str(receiver.getsockname()[1])
    try:
        blocked = run_confined(workspace_root, [sys.executable, "-I", "-c", UDP_SEND, port])
        assert blocked.stdout.strip() == "refused"
        with pytest.raises(TimeoutError):
            receiver.recv(16)
        allowed = run_confined(workspace_root, [sys.executable, "-I", "-c", UDP_SEND, port], allow_network=True)
        assert allowed.stdout.strip() == "sent" and receiver.recv(16) == b"leak"
    finally:
        receiver.close()


def test_listening_on_a_tcp_port_is_refused(workspace_root: Path) -> None:
    assert run_confined(workspace_root, [sys.executable, "-I", "-c", BIND]).stdout.strip() == "refused"
    assert run_confined(workspace_root, [sys.executable, "-I", "-c", BIND], allow_network=True).stdout.strip() == "bound"
