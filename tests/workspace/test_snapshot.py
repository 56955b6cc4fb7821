"""Content snapshots: what differs on disk, however it was changed, in one spelling per path."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from konstruct_tui.workspace.snapshot import changes_between, normalise, take_snapshot


def _tree(root: Path) -> None:
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("A = 1\n")
    (root / "notes.md").write_text("# notes\n")
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0\1")


def test_changes_are_seen_whatever_made_them_and_a_touch_is_no_change(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = take_snapshot(tmp_path)
    assert set(before.files) == {"src/a.py", "notes.md"}  # caches never count
    subprocess.run(["sed", "-i", "s/1/2/", str(tmp_path / "src" / "a.py")], check=True)
    (tmp_path / "notes.md").unlink()
    (tmp_path / "new.txt").write_text("new\n")
    os.utime(tmp_path / "src")  # a folder's times are nobody's change
    after = take_snapshot(tmp_path, before)
    assert changes_between(before, after).kinds == {"new.txt": "added", "notes.md": "deleted", "src/a.py": "modified"}
    (tmp_path / "new.txt").touch()
    assert not changes_between(after, take_snapshot(tmp_path, after))


def test_a_same_size_rewrite_inside_the_racy_window_is_still_seen(tmp_path: Path) -> None:
    target = tmp_path / "a.txt"
    target.write_text("one\n")
    before = take_snapshot(tmp_path)
    stat = target.stat()
    with open(target, "r+") as handle:  # in place: same inode, same size
        handle.write("two\n")
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the same mtime
    assert changes_between(before, take_snapshot(tmp_path, before)).kinds == {"a.txt": "modified"}


def test_a_git_tree_leaves_ignored_files_out(tmp_path: Path) -> None:
    _tree(tmp_path)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("build.log\n")
    (tmp_path / "build.log").write_text("noise\n")
    assert set(take_snapshot(tmp_path).files) == {".gitignore", "src/a.py", "notes.md"}


def test_every_spelling_of_a_path_is_one_path() -> None:
    assert normalise("src/../notes.md") == "notes.md"
    assert normalise("./src//a.py") == "src/a.py"
    assert normalise("src/./a.py") == "src/a.py"
    assert normalise("../outside") is None and normalise("src/../../x") is None
    assert normalise("/etc/passwd") is None and normalise(".") is None and normalise("a\0b") is None
