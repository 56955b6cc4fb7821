"""Issue 31: a command's TMPDIR is removed after it ends whatever it left there: a 3,000-deep
chain of folders (past Python's recursion limit and PATH_MAX) crashed the recursive removal and
survived; the removal is now iterative, bounded, and never follows a link."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from konstruct_tui.sandbox.temp_folders import remove_tree
from sandbox_helpers import needs_landlock, run_confined

DEEP = """
import os
start = os.environ["TMPDIR"]
print(start, flush=True)
os.chdir(start)
for _ in range(3000):
    os.mkdir("d"); os.chdir("d")
open("leaf.txt", "w").write("x")
os.chdir(start)
os.mkdir("locked"); os.mkdir("locked/inner"); open("locked/inner/f", "w").write("x")
os.chmod("locked/inner", 0); os.chmod("locked", 0o500)
os.symlink(os.environ["KEEP"], "link-to-workspace")
"""


def _gone(path: str, within_s: float = 60) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if not os.path.lexists(path):
            return True
        time.sleep(0.05)
    return False


@needs_landlock
def test_a_3000_deep_folder_in_tmpdir_is_removed_after_the_call(workspace_root: Path, monkeypatch) -> None:
    keep = workspace_root / "keep"
    keep.mkdir()
    (keep / "precious.txt").write_text("kept")
    monkeypatch.setenv("KEEP", str(keep))
    outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", DEEP], timeout_s=120)
    assert outcome.status == "ok", outcome
    temp = outcome.stdout.split()[0]
    assert _gone(temp), f"{temp} survived the call"
    assert (keep / "precious.txt").read_text() == "kept"  # the link was removed, never followed


def test_remove_tree_is_iterative_and_follows_no_link(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "f").write_text("kept")
    folder = tmp_path / "tree"
    here = folder
    for _ in range(5000):  # deeper than the recursion limit and, as a path, than PATH_MAX
        here = here / "d"
    os.makedirs(folder, exist_ok=True)
    current = os.open(folder, os.O_RDONLY)
    for _ in range(5000):
        os.mkdir("d", dir_fd=current)
        following = os.open("d", os.O_RDONLY, dir_fd=current)
        os.close(current)
        current = following
    os.symlink(outside, "out", dir_fd=current)
    os.close(current)
    (folder / "flat-name-taken").mkdir()
    (folder / ".konstruct-flat-1").mkdir()  # a name the flattening would pick: taken, it picks another
    assert remove_tree(str(folder)) is True
    assert not folder.exists() and (outside / "f").read_text() == "kept"


def test_remove_tree_stops_at_its_budget(tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    for k in range(50):
        (folder / f"f{k}").write_text("x")
    assert remove_tree(str(folder), budget=10) is False and folder.exists()
    assert remove_tree(str(folder)) is True and not folder.exists()
