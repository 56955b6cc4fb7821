"""What each Landlock ABI can enforce, said honestly: an older kernel still confines writes but
cannot block the network, and the result says that rather than claim it."""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from sandbox_helpers import needs_landlock, run_process, verdicts, writer

from konstruct_tui.sandbox import Confinement, SandboxSettings, landlock, plan_for


def test_rights_grow_with_the_abi_and_never_include_reads() -> None:
    reads = landlock.FS_READ_FILE | landlock.FS_READ_DIR | landlock.FS_EXECUTE
    for abi in range(1, 8):
        assert landlock.write_rights(abi) & reads == 0
    assert landlock.write_rights(1) & landlock.FS_REFER == 0
    assert landlock.write_rights(2) & landlock.FS_REFER
    assert landlock.write_rights(3) & landlock.FS_TRUNCATE
    assert landlock.write_rights(5) & landlock.FS_IOCTL_DEV


def test_a_plan_for_abi_3_leaves_the_network_open_and_says_so(tmp_path: Path) -> None:
    plan = plan_for(tmp_path, SandboxSettings(), abi=3)
    assert plan.report()["network"] == "unrestricted" and "ABI 4" in plan.report()["note"]
    assert plan_for(tmp_path, SandboxSettings(), abi=4).report().items() >= {"mode": "workspace-write", "abi": 4, "network": "blocked", "home": "hidden", "git": "read-only"}.items()


@needs_landlock
def test_an_abi_1_sandbox_still_confines_writes_but_not_connect(workspace_root: Path,
                                                               outside_paths: Callable[[str], Path]) -> None:
    escape = outside_paths(tempfile.gettempdir())
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    code = ("import socket, sys; s = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=10); "
            "print('connected')")
    try:
        plan = plan_for(workspace_root, SandboxSettings(), abi=1)
        with Confinement(plan) as confinement:
            wrote = run_process(writer(escape, "inside.txt"), workspace_root, timeout_s=60, confinement=confinement)
        with Confinement(plan) as confinement:
            connected = run_process([sys.executable, "-I", "-c", code, str(server.getsockname()[1])],
                                    workspace_root, timeout_s=60, confinement=confinement)
    finally:
        server.close()
    assert verdicts(wrote) == {str(escape): "denied", "inside.txt": "wrote"}
    assert connected.stdout.strip() == "connected"  # as the plan said: ABI 1 has no network rules


@needs_landlock
def test_moving_files_works_inside_the_workspace_but_not_out_of_it(workspace_root: Path) -> None:
    (workspace_root / "src" / "a.py").write_text("a")
    (workspace_root / "b.py").write_text("b")
    outside = Path(tempfile.mkdtemp(prefix="konstruct-sandbox-test-mv-"))
    try:
        plan = plan_for(workspace_root, SandboxSettings())
        with Confinement(plan) as confinement:
            inside = run_process(["mv", "src/a.py", "moved.py"], workspace_root, timeout_s=60, confinement=confinement)
        with Confinement(plan) as confinement:
            out = run_process(["mv", "b.py", str(outside / "b.py")], workspace_root, timeout_s=60, confinement=confinement)
        assert inside.status == "ok" and (workspace_root / "moved.py").read_text() == "a"
        assert out.status == "failed" and (workspace_root / "b.py").exists() and not (outside / "b.py").exists()
    finally:
        for leftover in outside.iterdir():
            leftover.unlink()
        outside.rmdir()


def test_a_workspace_holding_the_home_folder_is_called_out(tmp_path: Path) -> None:
    report = plan_for("/", SandboxSettings(), abi=7).report()
    assert "home folder" in report["note"]
    assert "note" not in plan_for(tmp_path, SandboxSettings(), abi=7).report()


@pytest.mark.skipif(landlock.kernel_abi() < 6, reason="signal scoping needs Landlock ABI 6")
def test_a_confined_command_cannot_signal_processes_outside_its_sandbox(workspace_root: Path) -> None:
    bystander = subprocess.Popen(["sleep", "30"])
    try:
        code = "import os, signal, sys\ntry:\n    os.kill(int(sys.argv[1]), signal.SIGKILL)\n    print('killed')\nexcept PermissionError:\n    print('refused')\nexcept ProcessLookupError:\n    print('refused')"
        plan = plan_for(workspace_root, SandboxSettings())
        with Confinement(plan) as confinement:
            outcome = run_process([sys.executable, "-I", "-c", code, str(bystander.pid)], workspace_root,
                                  timeout_s=60, confinement=confinement)
        assert outcome.stdout.strip() == "refused"
        assert bystander.poll() is None  # still alive
    finally:
        bystander.kill()
        bystander.wait()


@pytest.mark.parametrize("block_network", [True, False], ids=["network-blocked", "network-allowed"])
def test_the_seccomp_filter_program_is_well_formed(block_network: bool) -> None:
    from konstruct_tui.sandbox.seccomp import _ARCHES, _program

    for arch in _ARCHES.values():
        program = _program(arch, block_network)
        assert program[-1][0] == program[-2][0] == 0x06  # both ends are returns
        for index, (code, jump_true, jump_false, _) in enumerate(program):
            if code in (0x15, 0x35, 0x45):  # every jump lands inside the program
                assert index + 1 + max(jump_true, jump_false) < len(program)
