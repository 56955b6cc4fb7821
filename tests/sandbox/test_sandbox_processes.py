"""A confined command sees only its own processes in /proc.

The machine's /proc lists every process of the person's with its command line, world-readable:
`mysql -p…`, `curl -H 'Authorization: Bearer …'`, a token passed to a deploy script. A confined
command gets a procfs of its own (`hidepid=ptraceable`: a process is there only for those that may
ptrace it, and Landlock lets a confined command ptrace nothing outside its own domain). Each test
first shows what an unconfined command sees, so a /proc that was never readable cannot pass.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from konstruct_tui.sandbox import namespaces
from sandbox_helpers import needs_landlock, run_confined

pytestmark = [needs_landlock, pytest.mark.skipif(not namespaces.available(), reason="needs private namespaces (root)")]

LOOK = """
import os, sys
secret = sys.argv[1]
found = []
for entry in os.listdir("/proc"):
    if entry.isdigit():
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if secret.encode() in handle.read():
                    found.append(entry)
        except OSError:
            pass
print("listed", sorted(e for e in os.listdir("/proc") if e.isdigit()))
print("found", found)
for path in sys.argv[2:]:
    try:
        with open(path, "rb") as handle:
            print("read", path, secret.encode() in handle.read())
    except OSError as error:
        print("refused", path, error.errno)
print("self", os.path.realpath("/proc/self") != "/proc/self", open("/proc/self/status").readline().strip())
"""


@pytest.fixture
def holder() -> subprocess.Popen[bytes]:
    """A process of the person's whose command line carries a secret, as `mysql -pSECRET` would."""
    secret = f"token-{uuid.uuid4().hex}"
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", secret])
    child.secret = secret  # type: ignore[attr-defined]
    time.sleep(0.1)
    yield child
    child.kill()
    child.wait()


def test_another_process_and_its_command_line_are_not_in_the_commands_proc(workspace_root: Path, holder) -> None:  # type: ignore[no-untyped-def]
    pid = holder.pid
    paths = [f"/proc/{pid}/cmdline", f"/proc/{pid}/environ", f"/proc/{pid}/root/etc/hostname", f"/proc/{os.getpid()}/cmdline"]
    unconfined = subprocess.run([sys.executable, "-I", "-c", LOOK, holder.secret, *paths[:1]], capture_output=True, text=True, timeout=30)
    assert f"'{pid}'" in unconfined.stdout.split("found ", 1)[1].splitlines()[0]  # the leak is real
    assert f"read /proc/{pid}/cmdline True" in unconfined.stdout

    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", LOOK, holder.secret, *paths])
    assert outcome.exit_code == 0, outcome.stderr
    listed = outcome.stdout.split("listed ", 1)[1].splitlines()[0]
    assert outcome.stdout.split("found ", 1)[1].splitlines()[0] == listed  # only itself carries the secret
    assert len(eval(listed)) == 1  # noqa: S307 - its own printed list: itself, nothing else
    for path in paths:
        assert f"refused {path}" in outcome.stdout
    assert str(pid) not in listed and str(os.getpid()) not in listed and "'1'" not in listed
    assert "self True Name:\tpython" in outcome.stdout  # its own /proc/self still works


def test_the_command_still_sees_its_own_children(workspace_root: Path) -> None:
    script = ("import subprocess, sys, os\n"
              "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(5)'])\n"
              "pids = [e for e in os.listdir('/proc') if e.isdigit()]\n"
              "lines = [open(f'/proc/{p}/cmdline', 'rb').read() for p in pids]\n"
              "print(len(pids), any(b'time.sleep(5)' in line for line in lines))\n"
              "child.kill()\n")
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", script])
    assert outcome.exit_code == 0, outcome.stderr
    assert outcome.stdout.split() == ["2", "True"]  # itself and its child, nothing else


ROUTES = """
import ctypes, os
out = []
ppid = [l.split()[1] for l in open("/proc/self/status") if l.startswith("PPid:")][0]
for path in (f"/proc/{ppid}/cmdline", "/proc/1/cmdline", "/proc/self/../1/environ", f"/proc/{os.getppid()}/cmdline"):
    try:
        open(path, "rb").read(); out.append("read " + path)
    except OSError as error:
        out.append(f"refused {path} {error.errno}")
try:
    open("/proc/sys/kernel/core_pattern", "w").write("|/bin/sh -c 'touch /tmp/pwned'")
    out.append("wrote core_pattern")
except OSError as error:
    out.append(f"refused core_pattern {error.errno}")
libc = ctypes.CDLL(None, use_errno=True)
os.makedirs("fresh-proc", exist_ok=True)
mounted = libc.mount(b"proc", b"fresh-proc", b"proc", 0, None)  # a procfs of the machine's own, mounted anew
out.append("mounted" if mounted == 0 else f"refused mount {ctypes.get_errno()}")
print("\\n".join(out))
"""


def test_routes_around_the_private_proc_are_closed(workspace_root: Path) -> None:
    """Red team: the parent's pid read from /proc/self/status, the machine's init, `..` out of
    /proc/self, a write to /proc/sys (core_pattern runs as root on the next crash), and mounting a
    fresh procfs of the machine's pids in the workspace."""
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", ROUTES])
    assert outcome.exit_code == 0, outcome.stderr
    lines = outcome.stdout.splitlines()
    assert lines and all(line.startswith("refused") for line in lines), outcome.stdout
    assert not (workspace_root / "fresh-proc" / "1").exists()
