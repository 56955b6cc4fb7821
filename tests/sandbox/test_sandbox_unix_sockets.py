"""Issue 31: a confined command reaches no unix socket it did not make, wherever it lives.

The person's tmux server, ssh-agent and D-Bus listen on unix sockets; a command that connects to
one acts outside the sandbox (`tmux send-keys ... Enter` types into their unconfined shell). The
command runs in a root of its own holding only what it may read and write, so a socket in /tmp,
/run/user or the home folder does not exist for it, whatever a variable says; a listening socket
inside a folder it may read is covered; abstract sockets are scoped by Landlock (ABI 6).
Each test first proves the socket is reachable unconfined, so a dead listener cannot pass.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from konstruct_tui.sandbox import kernel_abi, namespaces
from sandbox_helpers import needs_landlock, run_confined

pytestmark = [needs_landlock, pytest.mark.skipif(not namespaces.available(), reason="needs private namespaces (root)")]

CLIENT = """
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(3)
address = sys.argv[1]
if address.startswith("@"):
    address = "\\0" + address[1:]
try:
    s.connect(address); s.sendall(b"send-keys 'touch /tmp/pwned' Enter"); print("connected")
except OSError as error:
    print("unreachable", error.errno)
"""


class Listener:
    def __init__(self, address: str) -> None:
        self.address = address
        self.server = socket.socket(socket.AF_UNIX)
        self.server.bind("\0" + address[1:] if address.startswith("@") else address)
        self.server.listen(4)
        self.server.settimeout(0.2)

    def reached(self) -> bool:
        try:
            connection, _ = self.server.accept()
        except TimeoutError:
            return False
        connection.close()
        return True

    def close(self) -> None:
        self.server.close()
        if not self.address.startswith("@"):
            Path(self.address).unlink(missing_ok=True)


def _reachable_unconfined(address: str) -> bool:
    done = subprocess.run([sys.executable, "-I", "-c", CLIENT, address], capture_output=True, text=True, timeout=30)
    return done.stdout.startswith("connected")


@pytest.fixture
def listen() -> Iterator:
    made: list[Listener] = []
    folders: list[Path] = []

    def make(address: str) -> Listener:
        parent = Path(address).parent
        if not address.startswith("@") and not parent.exists():
            parent.mkdir(parents=True)
            folders.append(parent)
        listener = Listener(address)
        made.append(listener)
        assert _reachable_unconfined(address) and listener.reached()  # the listener works
        return listener

    yield make
    for listener in made:
        listener.close()
    for folder in reversed(folders):
        shutil.rmtree(folder, ignore_errors=True)


def _tag() -> str:
    return uuid.uuid4().hex[:10]


def _assert_unreachable(workspace_root: Path, listener: Listener, address: str | None = None,
                        allow_network: bool = False) -> None:
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", CLIENT, address or listener.address],
                           allow_network=allow_network)
    assert outcome.stdout.startswith("unreachable"), outcome
    assert not listener.reached()


@pytest.mark.parametrize("folder", ["/tmp", f"/run/user/{os.getuid()}", "~", "/var/tmp", "/dev/shm"])
def test_a_socket_of_yours_in_a_common_place_is_out_of_reach(workspace_root: Path, listen, folder: str) -> None:
    listener = listen(str(Path(folder).expanduser() / f"konstruct-test-{_tag()}.sock"))
    _assert_unreachable(workspace_root, listener)


def test_an_agent_socket_named_by_ssh_auth_sock_in_tmp_is_out_of_reach(workspace_root: Path, listen,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    listener = listen(f"/tmp/agent-{_tag()}.sock")  # directly in /tmp: "the folder of $SSH_AUTH_SOCK" is /tmp
    monkeypatch.setenv("SSH_AUTH_SOCK", listener.address)
    _assert_unreachable(workspace_root, listener)


def test_a_dbus_address_whose_path_is_not_its_first_key_is_out_of_reach(workspace_root: Path, listen,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    listener = listen(f"/tmp/dbus-{_tag()}")
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:guid=0123456789abcdef,path={listener.address}")
    _assert_unreachable(workspace_root, listener)


def test_with_the_network_allowed_your_sockets_stay_out_of_reach(workspace_root: Path, listen) -> None:
    listener = listen(f"/tmp/konstruct-test-{_tag()}.sock")
    _assert_unreachable(workspace_root, listener, allow_network=True)


@pytest.mark.skipif(kernel_abi() < 6, reason="abstract socket scoping needs Landlock ABI 6")
@pytest.mark.parametrize("allow_network", [False, True], ids=["network-blocked", "network-allowed"])
def test_an_abstract_socket_is_out_of_reach_whatever_the_network_setting(workspace_root: Path, listen,
                                                                         allow_network: bool) -> None:
    listener = listen(f"@konstruct-test-{_tag()}")
    _assert_unreachable(workspace_root, listener, allow_network=allow_network)


def test_other_spellings_of_the_path_do_not_reach_it(workspace_root: Path, listen) -> None:
    listener = listen(f"/tmp/konstruct-test-{_tag()}.sock")
    name = Path(listener.address).name
    depth = "../" * len(workspace_root.parts)
    (workspace_root / "link.sock").symlink_to(listener.address)
    for spelling in (f"/proc/1/root{listener.address}", f"/proc/{os.getpid()}/root{listener.address}",
                     f"/proc/{os.getpid()}/cwd/../../../../../../tmp/{name}", f"{depth}tmp/{name}",
                     "link.sock", f"//tmp/./{name}"):
        _assert_unreachable(workspace_root, listener, spelling)


def test_a_listening_socket_inside_a_folder_the_command_may_read_is_covered(workspace_root: Path, listen,
                                                                          tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    tools = tmp_path / "tools-on-path"  # PATH folders are readable: like /opt/app or a toolchain folder
    tools.mkdir()
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    listener = listen(str(tools / "app.sock"))
    _assert_unreachable(workspace_root, listener)


def test_a_tmux_server_in_tmp_cannot_be_driven(workspace_root: Path) -> None:
    tmux = shutil.which("tmux")
    if tmux is None:
        pytest.skip("tmux is not installed")
    sock = f"/tmp/konstruct-test-{_tag()}.sock"
    witness = Path(f"/tmp/konstruct-tmux-pwned-{_tag()}")
    env = {k: v for k, v in os.environ.items() if k != "TMUX"}
    subprocess.run([tmux, "-S", sock, "new-session", "-d", "sh"], check=True, env=env, timeout=30)
    try:
        assert subprocess.run([tmux, "-S", sock, "list-sessions"], capture_output=True, env=env, timeout=30).returncode == 0
        outcome = run_confined(workspace_root, [tmux, "-S", sock, "send-keys", f"touch {witness}", "Enter"])
        assert outcome.status == "failed", outcome
        listed = run_confined(workspace_root, [tmux, "-S", sock, "list-sessions"])
        assert listed.status == "failed" and not listed.stdout, listed
        subprocess.run([tmux, "-S", sock, "send-keys", "true", "Enter"], env=env, timeout=30)  # flush, if typed
        assert not witness.exists()
    finally:
        subprocess.run([tmux, "-S", sock, "kill-server"], capture_output=True, env=env, timeout=30)
        Path(sock).unlink(missing_ok=True)
        witness.unlink(missing_ok=True)


def test_sockets_the_command_makes_itself_still_work(workspace_root: Path) -> None:
    code = """
import os, socket, sys, threading
for folder in (os.environ["TMPDIR"], os.getcwd()):
    path = os.path.join(folder, "own.sock")
    server = socket.socket(socket.AF_UNIX); server.bind(path); server.listen(1)
    client = socket.socket(socket.AF_UNIX); client.connect(path)
    conn, _ = server.accept(); client.sendall(b"x"); assert conn.recv(1) == b"x"
    print("ok", folder == os.getcwd())
    os.unlink(path)
a, b = socket.socketpair(); a.sendall(b"y"); assert b.recv(1) == b"y"; print("pair")
"""
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", code])
    assert outcome.stdout.split("\n")[:3] == ["ok False", "ok True", "pair"], outcome


def test_a_socket_in_the_workspace_is_reachable(workspace_root: Path, listen) -> None:
    listener = listen(str(workspace_root / "dev.sock"))  # the rule: the workspace and TMPDIR only
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", CLIENT, "dev.sock"])
    assert outcome.stdout.startswith("connected") and listener.reached(), outcome


def test_etc_in_one_piece_in_the_view_still_hides_its_secrets_and_refuses_changes(workspace_root: Path) -> None:
    """Attack on the view: /etc is bound whole (not entry by entry), so /etc/shadow exists in the
    command's root; Landlock still refuses reading it, and the read-only bind refuses chmod."""
    code = ("import os\nfor name, act in (('read', lambda: open('/etc/shadow').read()),"
            " ('chmod', lambda: os.chmod('/etc/hostname', 0o777)), ('write', lambda: open('/etc/motd', 'a'))):\n"
            "    try:\n        act(); print(name, 'done')\n    except OSError as e:\n        print(name, 'refused', e.errno)\n")
    before = os.stat("/etc/hostname").st_mode
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", code])
    assert [line.split()[1] for line in outcome.stdout.splitlines()] == ["refused"] * 3, outcome
    assert os.stat("/etc/hostname").st_mode == before
