"""The confined launcher: each command its own temp folder and domain, commands in parallel from
several threads stay apart, and nothing in the workbench process loses a right."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sandbox_helpers import needs_landlock, refused, run_confined

from konstruct_tui.commands import run_process
from konstruct_tui.sandbox import Confinement, LandlockError, SandboxSettings, plan_for

pytestmark = needs_landlock

SHOW_TMP = "import os; open(os.path.join(os.environ['TMPDIR'], 'mine'), 'w').write('x'); print(os.environ['TMPDIR'])"


def test_each_command_gets_its_own_temp_folder(workspace_root: Path) -> None:
    first = run_confined(workspace_root, [sys.executable, "-I", "-c", SHOW_TMP]).stdout.strip()
    second = run_confined(workspace_root, [sys.executable, "-I", "-c", SHOW_TMP]).stdout.strip()
    assert first and second and first != second


def test_a_command_cannot_write_into_another_commands_temp_folder(workspace_root: Path) -> None:
    plan = plan_for(workspace_root, SandboxSettings())
    with Confinement(plan) as holder, Confinement(plan) as other:
        assert holder.temp_dir and other.temp_dir and holder.temp_dir != other.temp_dir
        code = "import sys; open(sys.argv[1] + '/intruder', 'w')"
        outcome = run_process([sys.executable, "-I", "-c", code, holder.temp_dir], workspace_root,
                              timeout_s=60, confinement=other)
        assert outcome.status == "failed" and refused(outcome.stderr)
        assert os.listdir(holder.temp_dir) == []


def test_parallel_commands_from_several_threads_are_each_confined(workspace_root: Path,
                                                                  outside_paths: Callable[[str], Path]) -> None:
    escapes = [outside_paths(tempfile.gettempdir()) for _ in range(6)]
    code = "import sys; open(sys.argv[1], 'w').write('in'); open(sys.argv[2], 'w')"

    def one(k: int) -> tuple[str, str, int | None, str]:
        outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", code, f"out{k}.txt", str(escapes[k])])
        return outcome.status, outcome.stderr, outcome.exit_code, f"{outcome.stdout} {outcome.reason or ''}"

    with ThreadPoolExecutor(max_workers=3) as pool:
        outcomes = list(pool.map(one, range(6)))
    # Escapes first: a failure says whether anything got out before it says how a command failed.
    assert not any(path.exists() for path in escapes), outcomes
    assert all((workspace_root / f"out{k}.txt").exists() and (workspace_root / f"out{k}.txt").read_text() == "in" for k in range(6)), outcomes
    assert all(refused(stderr) for _, stderr, _, _ in outcomes), outcomes


def test_other_threads_of_the_workbench_keep_their_rights(workspace_root: Path,
                                                          outside_paths: Callable[[str], Path]) -> None:
    for _ in range(3):
        run_confined(workspace_root, ["true"])
    target = outside_paths(tempfile.gettempdir())
    worker = threading.Thread(target=lambda: target.write_text("from a worker thread"))
    worker.start()
    worker.join()
    assert target.read_text() == "from a worker thread"


def test_an_unused_sandbox_leaves_nothing_behind(workspace_root: Path) -> None:
    plan = plan_for(workspace_root, SandboxSettings())
    with Confinement(plan) as confinement:
        temp = confinement.temp_dir
        assert temp and os.path.isdir(temp)
    for _ in range(300):
        if not os.path.exists(temp):
            break
        threading.Event().wait(0.01)
    assert not os.path.exists(temp)


def test_a_sandbox_starts_one_child_only(workspace_root: Path) -> None:
    plan = plan_for(workspace_root, SandboxSettings())
    with Confinement(plan) as confinement:
        assert run_process(["true"], workspace_root, timeout_s=30, confinement=confinement).status == "ok"
        with pytest.raises(LandlockError):
            confinement.spawn(lambda: None)


def test_a_missing_program_is_not_found_inside_the_sandbox_too(workspace_root: Path) -> None:
    outcome = run_confined(workspace_root, ["no-such-program-konstruct"])
    assert outcome.status == "not_found"


@pytest.mark.skipif(os.geteuid() != 0, reason="capabilities matter for root")
def test_root_inside_the_sandbox_has_no_admin_capabilities(workspace_root: Path) -> None:
    from konstruct_tui.sandbox.privileges import DROPPED

    def own_capabilities() -> str:
        with open("/proc/self/status") as status:
            return next(line for line in status if line.startswith("CapBnd"))

    before = own_capabilities()
    code = "print(*[l.split()[1] for l in open('/proc/self/status') if l.startswith(('CapEff', 'CapBnd'))])"
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", code])
    assert own_capabilities() == before  # the workbench itself keeps what it had
    effective, bounding = (int(v, 16) for v in outcome.stdout.split())
    for number in DROPPED.values():
        assert not effective & (1 << number) and not bounding & (1 << number)
    assert effective & 1 << 1  # CAP_DAC_OVERRIDE kept: root still reads and writes its files as before
