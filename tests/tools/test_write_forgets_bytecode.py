"""An edit through write_code is what the next command runs, even when Python's bytecode cache
would still match it (same second, same size): the agent's fix-then-test loop sees its fix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import Workspace

CHECK = "import calc\n\nassert calc.add(2, 3) == 5, 'add is wrong'\n"


def _run_check(root: Path) -> int:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPYCACHEPREFIX", "PYTHONDONTWRITEBYTECODE")}
    return subprocess.run([sys.executable, "check.py"], cwd=root, env=env, capture_output=True, check=False).returncode


def _revision(context: ToolContext, path: str) -> str:
    return call("read_code", {"paths": [path]}, context).to_json()["results"][0]["revision"]


def test_a_same_size_fix_written_in_the_same_second_is_what_runs_next(tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text('"""Arithmetic for the checkout page."""\n\n\ndef add(a, b):\n    return a - b\n')
    (tmp_path / "check.py").write_text(CHECK)
    assert _run_check(tmp_path) != 0  # caches the broken add
    stamp = (tmp_path / "calc.py").stat().st_mtime_ns
    with Workspace(tmp_path) as workspace:
        context = ToolContext(workspace)
        result = call("write_code", {"edits": [{"path": "calc.py", "revision": _revision(context, "calc.py"),
                                                "replacements": [{"old": "a - b", "new": "a + b"}]}]}, context)
    assert result.to_json()["results"][0]["status"] == "written"
    os.utime(tmp_path / "calc.py", ns=(stamp, stamp))  # as if within the same second
    assert _run_check(tmp_path) == 0


def test_forgetting_bytecode_never_follows_a_linked_cache_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "calc.cpython-311.pyc").write_bytes(b"not ours")
    root = tmp_path / "proj"
    root.mkdir()
    (root / "calc.py").write_text("X = 1\n")
    (root / "__pycache__").symlink_to(outside)
    with Workspace(root) as workspace:
        context = ToolContext(workspace)
        result = call("write_code", {"edits": [{"path": "calc.py", "revision": _revision(context, "calc.py"),
                                                "content": "X = 2\n"}]}, context)
    assert result.to_json()["results"][0]["status"] == "written"
    assert (outside / "calc.cpython-311.pyc").read_bytes() == b"not ours"


def test_only_the_changed_modules_bytecode_goes(tmp_path: Path) -> None:
    cache = tmp_path / "pkg" / "__pycache__"
    cache.mkdir(parents=True)
    (tmp_path / "pkg" / "a.py").write_text("A = 1\n")
    (tmp_path / "pkg" / "ab.py").write_text("B = 1\n")
    for name in ("a.cpython-311.pyc", "a.cpython-311-pytest-8.3.5.pyc", "ab.cpython-311.pyc", "notes.txt"):
        (cache / name).write_bytes(b"x")
    with Workspace(tmp_path) as workspace:
        context = ToolContext(workspace)
        call("write_code", {"edits": [{"path": "pkg/a.py", "revision": _revision(context, "pkg/a.py"),
                                       "content": "A = 2\n"}]}, context)
    assert sorted(p.name for p in cache.iterdir()) == ["ab.cpython-311.pyc", "notes.txt"]


def test_an_undo_in_the_same_second_is_what_runs_next(tmp_path: Path) -> None:
    """`konstruct undo` puts back bytes of the same size: the restored source runs, not the cache
    of the edit it undid."""
    from konstruct_tui.workspace import WriteJournal, undo_last

    (tmp_path / "calc.py").write_text('"""Arithmetic for the checkout page."""\n\n\ndef add(a, b):\n    return a + b\n')
    (tmp_path / "check.py").write_text(CHECK)
    stamp = (tmp_path / "calc.py").stat().st_mtime_ns
    with Workspace(tmp_path) as workspace:
        journal = WriteJournal(workspace.root)
        context = ToolContext(workspace, journal=journal)
        call("write_code", {"edits": [{"path": "calc.py", "revision": _revision(context, "calc.py"),
                                       "replacements": [{"old": "a + b", "new": "a - b"}]}]}, context)
        assert _run_check(tmp_path) != 0  # caches the broken edit
        undo_last(workspace, journal)
    os.utime(tmp_path / "calc.py", ns=(stamp, stamp))
    assert _run_check(tmp_path) == 0


def test_a_module_deleted_and_written_again_in_the_same_second_runs_its_new_source(tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text('"""Arithmetic for the checkout page."""\n\n\ndef add(a, b):\n    return a - b\n')
    (tmp_path / "check.py").write_text(CHECK)
    assert _run_check(tmp_path) != 0
    stamp = (tmp_path / "calc.py").stat().st_mtime_ns
    with Workspace(tmp_path) as workspace:
        context = ToolContext(workspace)
        call("delete_code", {"paths": [{"path": "calc.py", "revision": _revision(context, "calc.py")}]}, context)
        call("write_code", {"edits": [{"path": "calc.py", "create": True, "content":
                                       '"""Arithmetic for the checkout page."""\n\n\ndef add(a, b):\n    return a + b\n'}]}, context)
    os.utime(tmp_path / "calc.py", ns=(stamp, stamp))
    assert _run_check(tmp_path) == 0
