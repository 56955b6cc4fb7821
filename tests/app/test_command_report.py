"""A command's result as a person reads it: how it ended, and what the sandbox blocked — said only
when the command's own output names it (the network, `.git`, a path outside the workspace)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from konstruct_tui.app import command_report
from konstruct_tui.app.command_report import sandbox_blocked
from konstruct_tui.sandbox import kernel_abi
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import Workspace

CONFINED = {"mode": "workspace-write", "abi": 7, "network": "blocked", "home": "hidden", "git": "read-only"}
NETWORK_ALLOWED = {**CONFINED, "network": "allowed"}
BARE = {"mode": "unsandboxed", "abi": 0, "network": "unrestricted"}


@pytest.mark.parametrize(("output", "said"), [
    ("curl: (6) Could not resolve host: example.com\n", "the sandbox blocked the network"),
    ("curl: (7) Failed to connect to 1.1.1.1 port 80 after 0 ms: Couldn't connect to server\n", "the sandbox blocked the network"),
    ("npm ERR! getaddrinfo EAI_AGAIN registry.npmjs.org\n", "the sandbox blocked the network"),
    ("Error: connect EACCES 10.0.0.1:443\n", "the sandbox blocked the network"),
    ('  File "/usr/lib/python3.11/socket.py", line 836, in create_connection\n    sock.connect(sa)\n'
     "PermissionError: [Errno 13] Permission denied\n", "the sandbox blocked the network"),
    ("fatal: Unable to create '<workspace>/.git/index.lock': Read-only file system\n", "the sandbox keeps .git read-only (<workspace>/.git/index.lock)"),
    ("touch: cannot touch '.git/hooks/pre-commit': Permission denied\n", "the sandbox keeps .git read-only (.git/hooks/pre-commit)"),
    ("OSError: [Errno 30] Read-only file system: '/opt/kx'\n", "the sandbox blocked /opt/kx (outside the workspace)"),
    ("OSError: [Errno 30] Read-only file system: '../sibling/x'\n", "the sandbox blocked ../sibling/x (outside the workspace)"),
    ("mkdir: /usr/local/kx: Operation not permitted\n", "the sandbox blocked /usr/local/kx (outside the workspace)"),
])
def test_what_the_sandbox_blocked_is_read_from_the_output(output: str, said: str) -> None:
    assert sandbox_blocked(CONFINED, output) == said


@pytest.mark.parametrize(("sandbox", "output"), [
    (BARE, "OSError: [Errno 30] Read-only file system: '/opt/kx'\n"),  # nothing confined it: not the sandbox
    (BARE, "curl: (6) Could not resolve host: example.com\n"),
    (NETWORK_ALLOWED, "curl: (6) Could not resolve host: example.com\n"),  # the network was open: a real outage
    (CONFINED, "touch: cannot touch '/var/tmp/kx': No such file or directory\n"),  # ambiguous: not claimed
    (CONFINED, "PermissionError: [Errno 13] Permission denied: '<workspace>/locked.txt'\n"),  # inside: the file's own mode
    (CONFINED, "cp: cannot create regular file '.github/workflows/x': Permission denied\n"),  # .github is not .git
    (CONFINED, "AssertionError: 1 != 2\n"),
    (None, "Could not resolve host"),
])
def test_nothing_is_blamed_on_the_sandbox_that_the_output_does_not_name(sandbox: Any, output: str) -> None:
    assert sandbox_blocked(sandbox, output) == ""


def test_a_report_reads_the_result_fields_and_ignores_damaged_ones() -> None:
    report = command_report({"command": "pytest -q", "status": "failed", "exit_code": 1, "duration_s": 0.5, "stdout": "F\n",
                             "stderr": 3, "sandbox": CONFINED, "reason": "exited with status 1"})
    assert (report.command, report.ending(), report.stdout, report.stderr) == ("pytest -q", "exit 1", "F\n", "")
    assert report.confinement == "workspace-write · Landlock 7 · network blocked"
    killed = command_report({"command": "sleep 9", "status": "killed", "exit_code": None, "signal": 9, "sandbox": CONFINED})
    assert killed.ending() == "signal SIGKILL"
    refused = command_report({"command": "rm -rf /", "status": "refused", "reason": "no"})
    assert not refused.ran and refused.ending() == "refused" and refused.confinement == ""


needs_network_rules = pytest.mark.skipif(kernel_abi() < 4, reason="Landlock network rules need ABI 4")


def _run(root: Path, argv: list[str]) -> dict[str, Any]:
    with Workspace(root) as workspace:
        return call("run_command", {"command": shlex.join(argv)}, ToolContext(workspace)).to_json()


@needs_network_rules
def test_real_sandbox_refusals_are_named_from_the_real_output(tmp_path: Path) -> None:
    """The words above are what confined commands really print on this kernel."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    (root / "a.py").write_text("x = 1\n", encoding="utf-8")
    probe = ("import socket, sys\n"
             "if sys.argv[1] == 'net': socket.create_connection(('127.0.0.1', 9), timeout=2)\n"
             "else: open(sys.argv[2], 'w').write('x')\n")
    git = command_report(_run(root, [sys.executable, "-I", "-c", probe, "file", ".git/konstruct-probe"]))
    outside = command_report(_run(root, [sys.executable, "-I", "-c", probe, "file", "/usr/konstruct-probe"]))
    network = command_report(_run(root, [sys.executable, "-I", "-c", probe, "net"]))
    assert git.status == "failed" and git.blocked.startswith("the sandbox keeps .git read-only"), git
    assert outside.status == "failed" and outside.blocked == "the sandbox blocked /usr/konstruct-probe (outside the workspace)", outside
    assert network.status == "failed" and network.blocked == "the sandbox blocked the network", network
