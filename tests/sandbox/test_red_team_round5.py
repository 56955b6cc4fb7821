"""Red team, round 5: a set-uid program made in the workspace.

Landlock says where a confined command may write, not which mode it gives what it writes. Run as
root (a workbench started with sudo, a container, CI), a confined command made a file in the
workspace set-uid root: `chmod u+s`, or created so (`open`/`mknod` with the bit in their mode).
The file outlives the command, and anyone on the machine who can reach the workspace runs it as
root; run as you, it runs as you for anyone who can reach it. The seccomp filter now refuses a
set-uid or set-gid mode on every call that sets one (closed in this round, CHANGELOG); ordinary
modes still work, so builds and tests do not notice."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from sandbox_helpers import needs_landlock, run_confined

pytestmark = needs_landlock

ATTEMPTS = r"""
import ctypes, errno, os, stat, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def report(route, action):
    try:
        action()
        made = os.stat(route).st_mode if os.path.exists(route) else 0
        print(route, "set-id" if made & 0o6000 else "plain", oct(made & 0o7777), flush=True)
    except OSError as error:
        print(route, "refused", errno.errorcode.get(error.errno, error.errno), flush=True)
open("base", "w").close()
report("chmod_setuid", lambda: (open("chmod_setuid", "w").close(), os.chmod("chmod_setuid", 0o4755)))
report("chmod_setgid", lambda: (open("chmod_setgid", "w").close(), os.chmod("chmod_setgid", 0o2755)))
report("fchmod_setuid", lambda: (lambda fd: (os.fchmod(fd, 0o4755), os.close(fd)))(os.open("fchmod_setuid", os.O_CREAT | os.O_WRONLY, 0o644)))
report("fchmodat_setuid", lambda: (open("fchmodat_setuid", "w").close(), os.chmod("fchmodat_setuid", 0o4755, dir_fd=os.open(".", os.O_RDONLY))))
report("open_creat_setuid", lambda: os.close(os.open("open_creat_setuid", os.O_CREAT | os.O_WRONLY, 0o4755)))
report("mknod_setuid", lambda: os.mknod("mknod_setuid", stat.S_IFREG | 0o4755))
def via_openat2():
    how = (ctypes.c_uint64 * 3)(os.O_CREAT | os.O_WRONLY, 0o4755, 0)
    fd = libc.syscall(437, -100, b"openat2_setuid", ctypes.byref(how), 24)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "openat2")
    os.close(fd)
report("openat2_setuid", via_openat2)
def via_io_uring():
    params = ctypes.create_string_buffer(120)
    if libc.syscall(425, 4, params) < 0:
        raise OSError(ctypes.get_errno(), "io_uring_setup")
report("io_uring", via_io_uring)
def file_capability():  # cap_setuid as a file capability: the same escalation without a mode bit
    import struct
    open("file_capability", "w").close()
    os.setxattr("file_capability", "security.capability", struct.pack("<IIIII", 0x02000001, 1 << 7, 0, 0, 0))
report("file_capability", file_capability)
# ordinary modes: a build's chmod +x, a created file, opening an existing one with a stray mode
report("chmod_plain", lambda: (open("chmod_plain", "w").close(), os.chmod("chmod_plain", 0o755)))
report("open_plain", lambda: os.close(os.open("open_plain", os.O_CREAT | os.O_WRONLY, 0o755)))
report("base", lambda: os.close(libc.syscall(257, -100, b"base", os.O_RDONLY, 0o4755)))
"""


@pytest.mark.parametrize("allow_network", [False, True])
def test_no_set_uid_or_set_gid_file_is_made_in_the_workspace(workspace_root: Path, allow_network: bool) -> None:
    (workspace_root / "attempt.py").write_text(ATTEMPTS)
    outcome = run_confined(workspace_root, [sys.executable, "-I", "attempt.py"], allow_network=allow_network)
    assert outcome.status == "ok", outcome
    seen = {line.split(" ")[0]: line.split(" ", 1)[1] for line in outcome.stdout.splitlines()}
    for route in ("chmod_setuid", "chmod_setgid", "fchmod_setuid", "fchmodat_setuid", "open_creat_setuid", "mknod_setuid"):
        assert seen[route] == "refused EPERM", (route, seen)
    assert seen["openat2_setuid"] == "refused ENOSYS" and seen["io_uring"].startswith("refused")
    assert seen["file_capability"] == "refused EPERM"  # CAP_SETFCAP is dropped (privileges.py)
    assert seen["chmod_plain"] == "plain 0o755" and seen["open_plain"].startswith("plain") and seen["base"].startswith("plain")
    for path in workspace_root.iterdir():  # whatever got made, nothing in the workspace carries the bit
        assert not path.stat().st_mode & (stat.S_ISUID | stat.S_ISGID), path


def test_the_routes_are_open_without_the_sandbox(tmp_path: Path) -> None:
    """So the test above cannot pass on a kernel that never honoured the bits."""
    target = tmp_path / "plain_setuid"
    fd = os.open(target, os.O_CREAT | os.O_WRONLY, 0o4755)
    os.close(fd)
    os.chmod(target, 0o4755)
    assert target.stat().st_mode & stat.S_ISUID
    if os.geteuid() == 0:  # a file capability needs CAP_SETFCAP, which root has outside the sandbox
        import struct

        os.setxattr(target, "security.capability", struct.pack("<IIIII", 0x02000001, 1 << 7, 0, 0, 0))
        assert os.getxattr(target, "security.capability")


def test_sandbox_check_says_set_id_modes_are_refused(workspace_root: Path, konstruct: Any) -> None:
    code, report, _ = konstruct("sandbox", "check", "--root", str(workspace_root))
    assert code == 0 and any("set-uid and set-gid" in line for line in report["always_refused"])


# Round 5, attacked again: the tools and spellings an agent would reach for next. Each leaves a file
# with the bit where nothing stops it (checked outside the sandbox below, as root).
TOOLS = r"""
set +e
printf 'x' > src.txt
install -m 4755 src.txt installed
cp --preserve=mode "$SETUID_PROGRAM" copied
mkdir -p pack && printf 'x' > pack/member && chmod 755 pack/member
python3 -c "import tarfile; t = tarfile.open('setuid.tar', 'w'); i = t.gettarinfo('pack/member'); i.mode = 0o4755; t.addfile(i, open('pack/member', 'rb')); t.close()"
mkdir -p unpacked && tar -xpf setuid.tar -C unpacked
python3 - <<'PY'
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
open("by_fd_path", "w").close()
fd = os.open("by_fd_path", os.O_RDONLY)
try:
    os.chmod(f"/proc/self/fd/{fd}", 0o4755)  # the path of a descriptor
except OSError:
    pass
try:  # an unnamed file made set-uid, then given a name
    tmp = os.open(".", os.O_TMPFILE | os.O_WRONLY, 0o4755)
    os.link(f"/proc/self/fd/{tmp}", "tmpfile_linked")
except OSError:
    pass
open("fchmodat2_made", "w").close()
libc.syscall(452, -100, b"fchmodat2_made", 0o4755, 0)  # fchmodat2 straight, whatever libc knows
PY
exit 0
"""


def test_the_tools_an_agent_would_try_next_make_no_set_id_file(workspace_root: Path) -> None:
    setuid_program = next((p for p in ("/usr/bin/passwd", "/bin/su", "/usr/bin/newgrp") if Path(p).exists() and Path(p).stat().st_mode & stat.S_ISUID), None)
    if setuid_program is None:
        pytest.skip("no set-uid program on this machine to copy")
    (workspace_root / "attempt.sh").write_text(TOOLS)
    outcome = run_confined(workspace_root, ["/bin/sh", "-c", f"SETUID_PROGRAM={setuid_program} sh attempt.sh"])
    assert outcome.status == "ok", outcome
    made = [p for p in workspace_root.rglob("*") if p.is_file()]
    assert {p.name for p in made} >= {"installed", "copied", "member", "by_fd_path", "fchmodat2_made"}, (made, outcome)
    assert [p for p in made if p.stat().st_mode & (stat.S_ISUID | stat.S_ISGID)] == []


def test_the_same_tools_make_set_id_files_without_the_sandbox(tmp_path: Path) -> None:
    """So the test above proves the sandbox stops them (as root, as in CI; a user keeps the bit on
    their own files too)."""
    import subprocess

    setuid_program = next((p for p in ("/usr/bin/passwd", "/bin/su", "/usr/bin/newgrp") if Path(p).exists() and Path(p).stat().st_mode & stat.S_ISUID), None)
    if setuid_program is None or os.geteuid() != 0:
        pytest.skip("needs root and a set-uid program to copy")
    (tmp_path / "attempt.sh").write_text(TOOLS)
    subprocess.run(["/bin/sh", "-c", f"SETUID_PROGRAM={setuid_program} sh attempt.sh"], cwd=tmp_path, check=True, timeout=60)
    flagged = {p.name for p in tmp_path.rglob("*") if p.is_file() and p.stat().st_mode & stat.S_ISUID}
    assert {"installed", "copied", "member", "by_fd_path"} <= flagged, flagged
