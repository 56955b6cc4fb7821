"""Under the sandbox a command writes where its mode allows and nowhere else, at the kernel."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from sandbox_helpers import needs_landlock, refused, run_confined, verdicts, writer

pytestmark = needs_landlock


def test_workspace_write_writes_inside_the_workspace(workspace_root: Path) -> None:
    outcome = run_confined(workspace_root, writer(workspace_root / "src" / "new.py", "relative.txt"))
    assert outcome.status == "ok", outcome
    assert (workspace_root / "src" / "new.py").read_text() == "written"
    assert (workspace_root / "relative.txt").read_text() == "written"


def test_workspace_write_refuses_home_tmp_and_etc(workspace_root: Path, outside_paths: Callable[[str], Path]) -> None:
    home, tmp, etc = outside_paths("~"), outside_paths(tempfile.gettempdir()), outside_paths("/etc")
    outcome = run_confined(workspace_root, writer(home, tmp, etc))
    assert verdicts(outcome) == {str(home): "denied", str(tmp): "denied", str(etc): "denied"}
    assert not home.exists() and not tmp.exists() and not etc.exists()


def test_the_private_temp_folder_is_writable_and_gone_afterwards(workspace_root: Path) -> None:
    code = ("import os, tempfile; p = os.path.join(tempfile.gettempdir(), 'scratch'); open(p, 'w').write('x'); "
            "print(os.environ['TMPDIR']); print(open(p).read())")
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", code])
    assert outcome.status == "ok", outcome
    temp, content = outcome.stdout.split()
    assert content == "x" and "konstruct-sandbox-" in temp
    assert not Path(temp).is_relative_to(workspace_root)
    # removed behind us, on a background thread
    for _ in range(200):
        if not os.path.exists(temp):
            break
        __import__("time").sleep(0.01)
    assert not os.path.exists(temp)


def test_a_symlink_in_the_workspace_cannot_be_written_through(workspace_root: Path,
                                                              outside_paths: Callable[[str], Path]) -> None:
    target = outside_paths(tempfile.gettempdir())
    (workspace_root / "link.txt").symlink_to(target)
    outside_dir = Path(tempfile.mkdtemp(prefix="konstruct-sandbox-test-dir-"))
    (workspace_root / "linkdir").symlink_to(outside_dir, target_is_directory=True)
    try:
        outcome = run_confined(workspace_root, writer("link.txt", "linkdir/inside.txt"))
        assert verdicts(outcome) == {"link.txt": "denied", "linkdir/inside.txt": "denied"}
        assert not target.exists() and os.listdir(outside_dir) == []
    finally:
        for leftover in outside_dir.iterdir():
            leftover.unlink()
        outside_dir.rmdir()


def test_a_child_of_the_child_is_confined_too(workspace_root: Path, outside_paths: Callable[[str], Path]) -> None:
    escape = outside_paths(tempfile.gettempdir())
    inner = writer(escape, workspace_root / "grandchild.txt")
    code = "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:]).returncode)"
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", code, *inner])
    assert verdicts(outcome) == {str(escape): "denied", str(workspace_root / "grandchild.txt"): "wrote"}
    assert not escape.exists()


def test_sh_redirection_outside_is_refused(workspace_root: Path, outside_paths: Callable[[str], Path]) -> None:
    escape = outside_paths("~")
    outcome = run_confined(workspace_root, ["sh", "-c", 'echo hi > "$1"', "sh", str(escape)])
    assert outcome.status == "failed" and refused(outcome.stderr)
    assert not escape.exists()


def test_deleting_outside_the_workspace_is_refused(workspace_root: Path) -> None:
    victim_dir = Path(tempfile.mkdtemp(prefix="konstruct-sandbox-victim-"))
    (victim_dir / "keep.txt").write_text("precious")
    try:
        # Not in the command's own root at all: `rm -rf` finds nothing to remove.
        run_confined(workspace_root, ["rm", "-rf", str(victim_dir)])
        assert (victim_dir / "keep.txt").read_text() == "precious"
    finally:
        (victim_dir / "keep.txt").unlink()
        victim_dir.rmdir()


def test_read_only_writes_nowhere_but_its_temp_folder(workspace_root: Path,
                                                      outside_paths: Callable[[str], Path]) -> None:
    (workspace_root / "existing.txt").write_text("before")
    elsewhere = outside_paths(tempfile.gettempdir())
    code = "import os; open(os.path.join(os.environ['TMPDIR'], 'ok'), 'w').write('x'); print('temp ok')"
    outcome = run_confined(workspace_root, writer("existing.txt", "new.txt", elsewhere), mode="read-only")
    assert set(verdicts(outcome).values()) == {"denied"}
    assert (workspace_root / "existing.txt").read_text() == "before"
    assert sorted(os.listdir(workspace_root)) == ["existing.txt", "src"]
    assert not elsewhere.exists()
    temp_outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", code], mode="read-only")
    assert temp_outcome.stdout.strip() == "temp ok"


def test_reads_and_dev_null_still_work(workspace_root: Path) -> None:
    code = "open('/dev/null', 'w').write('x'); print(len(open('/etc/passwd').read()) > 0, end='')"
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", code], mode="read-only")
    assert outcome.status == "ok" and outcome.stdout == "True"


def test_the_app_itself_stays_unconfined(workspace_root: Path, outside_paths: Callable[[str], Path]) -> None:
    run_confined(workspace_root, ["true"])
    mine = outside_paths(tempfile.gettempdir())
    mine.write_text("the workbench can still write where it could")  # this thread and process: untouched
    assert mine.read_text().startswith("the workbench")
    home_file = outside_paths("~")
    home_file.write_text("x")
    assert home_file.exists()


def test_full_mode_is_unconfined(workspace_root: Path, outside_paths: Callable[[str], Path]) -> None:
    elsewhere = outside_paths(tempfile.gettempdir())
    outcome = run_confined(workspace_root, writer(elsewhere), mode="full")
    assert verdicts(outcome) == {str(elsewhere): "wrote"}
