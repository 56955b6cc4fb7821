"""The gate judges the source on disk, never bytecode cached beside it: a `.pyc` whose recorded
source time and size still match (an edit in the same second that keeps the size, a time set back,
a file planted in `__pycache__`) must not decide a verification."""

from __future__ import annotations

import asyncio
import os
import py_compile
import shlex
import subprocess
import sys
from importlib.util import cache_from_source
from pathlib import Path

import pytest

from konstruct_tui.blueprint.verification import run_verification
from konstruct_tui.workspace import Workspace

CHECK = "import calc\n\nassert calc.add(2, 3) == 5, 'add is wrong'\n"


def _stale_cache(root: Path, before: str, after: str) -> None:
    """calc.py holds `after`, its `__pycache__` the bytecode of `before`, with the time and size
    Python checks made to match: what a same-second, same-size edit leaves behind."""
    source = root / "calc.py"
    source.write_text(before)
    stamp = source.stat().st_mtime_ns
    py_compile.compile(str(source), cfile=cache_from_source(str(source)), doraise=True)
    assert len(after) == len(before)
    source.write_text(after)
    os.utime(source, ns=(stamp, stamp))


def _verify(root: Path, command: str) -> str:
    with Workspace(root) as workspace:
        [result] = asyncio.run(run_verification([command], workspace, ["calc.py"], timeout_s=60,
                                                last_call=lambda: 0, last_write=0))
    return result.outcome


def _plain(root: Path) -> int:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"}
    return subprocess.run([sys.executable, "check.py"], cwd=root, env=env, capture_output=True, check=False).returncode


def test_a_fix_in_the_same_second_is_verified_from_its_source(tmp_path: Path) -> None:
    (tmp_path / "check.py").write_text(CHECK)
    _stale_cache(tmp_path, "def add(a, b):\n    return a - b\n", "def add(a, b):\n    return a + b\n")
    assert _plain(tmp_path) != 0  # Python itself runs the stale bytecode: the hole is real
    assert _verify(tmp_path, shlex.join([sys.executable, "check.py"])) == "ok"


def test_planted_bytecode_cannot_make_a_broken_source_pass(tmp_path: Path) -> None:
    """The executor compiles a working `add` into `__pycache__` and leaves the source broken."""
    (tmp_path / "check.py").write_text(CHECK)
    _stale_cache(tmp_path, "def add(a, b):\n    return a + b\n", "def add(a, b):\n    return a - b\n")
    assert _plain(tmp_path) == 0  # Python itself would be fooled
    assert _verify(tmp_path, shlex.join([sys.executable, "check.py"])) == "failed"


def test_pytest_assertion_rewriting_reads_no_stale_cache_either(tmp_path: Path) -> None:
    """pytest keeps rewritten test modules in `__pycache__` too, checked by time and size."""
    test = tmp_path / "test_calc.py"
    before = "def test_add():\n    assert 2 + 3 == 6\n"
    after = "def test_add():\n    assert 2 + 3 == 5\n"
    test.write_text(before)
    stamp = test.stat().st_mtime_ns
    command = shlex.join([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_calc.py"])
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPYCACHEPREFIX", "PYTHONDONTWRITEBYTECODE")}
    subprocess.run(shlex.split(command), cwd=tmp_path, env=env, capture_output=True, check=False)  # caches `before`
    assert list((tmp_path / "__pycache__").glob("test_calc*pytest*.pyc"))
    test.write_text(after)
    os.utime(test, ns=(stamp, stamp))
    assert subprocess.run(shlex.split(command), cwd=tmp_path, env=env, capture_output=True, check=False).returncode != 0
    assert _verify(tmp_path, command) == "ok"


def test_a_bytecode_cache_named_by_the_environment_is_not_the_one_verification_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Konstruct itself started with PYTHONPYCACHEPREFIX pointing at a cache someone filled: the
    verification gets its own all the same."""
    project = tmp_path / "proj"
    project.mkdir()
    (project / "check.py").write_text(CHECK)
    shared = project / ".shared-cache"  # inside the project: readable under the sandbox too
    (project / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    stamp = (project / "calc.py").stat().st_mtime_ns
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(shared)}
    ask = "import sys; from importlib.util import cache_from_source as c; print(c(sys.argv[1]))"
    where = subprocess.run([sys.executable, "-c", ask, str(project / "calc.py")],
                           env=env, capture_output=True, text=True, check=True).stdout.strip()
    planted = Path(where)
    assert planted.is_relative_to(shared)
    planted.parent.mkdir(parents=True)
    py_compile.compile(str(project / "calc.py"), cfile=str(planted), doraise=True)
    (project / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    os.utime(project / "calc.py", ns=(stamp, stamp))
    assert subprocess.run([sys.executable, "check.py"], cwd=project, env=env, capture_output=True, check=False).returncode == 0
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(shared))
    assert _verify(project, shlex.join([sys.executable, "check.py"])) == "failed"
