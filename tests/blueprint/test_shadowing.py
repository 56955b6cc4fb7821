"""shadowing.py against spellings of "import something else under a pinned module's name". Each
attack is first shown to be live (the real interpreter imports the attacker's file in the real
layout), then shown to be absent where the gate verifies (the added path is one `shadows` names)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from konstruct_tui.blueprint.scratch import ScratchCopy
from konstruct_tui.blueprint.shadowing import import_name, module_parts, shadows
from konstruct_tui.workspace import take_snapshot

REAL = "def expect(actual, wanted):\n    assert actual == wanted, (actual, wanted)\n"
FAKE = "def expect(actual, wanted):\n    pass\n"


def lay(root: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


def found(root: Path, start: dict[str, str], added: dict[str, str], pinned: list[str], commands: tuple[str, ...] = ("python check.py",),
          keep: tuple[str, ...] = ()) -> list[str]:
    lay(root, start)
    before = take_snapshot(root).files
    lay(root, added)
    now = take_snapshot(root).files
    return shadows(root, pinned, before, now, commands, lambda p: (root / p).read_bytes() if (root / p).is_file() else None, keep)


def runs_fake(root: Path, argv: list[str], env: dict[str, str] | None = None) -> bool:
    """Does the check pass (the fake expect ran) in this layout?"""
    done = subprocess.run([sys.executable, *argv], cwd=root, capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **(env or {})})
    return done.returncode == 0


CHECK = "from check_helpers import expect\nexpect(1, 2)\n"


def test_names_python_would_import_a_file_by() -> None:
    assert module_parts("a/b/c.py") == ("a", "b", "c") and module_parts("a/b/__init__.py") == ("a", "b")
    assert module_parts("a/b-c.py") is None and module_parts("notes.md") is None
    assert import_name("m.cpython-311-x86_64-linux-gnu.so") == "m" and import_name("m.abi3.so") == "m"
    assert import_name("m.cpython-313-x86_64-linux-gnu.so") == "m"  # another interpreter's tag: still m
    assert import_name("m.pypy39-pp73-x86_64-linux-gnu.so") == "m" and import_name("m.pyc") == "m"
    assert import_name("m") == "m" and import_name("m.txt") is None


def test_a_package_two_folders_deep_beside_a_pinned_module(tmp_path: Path) -> None:
    start = {"ci/check.py": "from lib.check_helpers import expect\nexpect(1, 2)\n", "ci/lib/check_helpers.py": REAL}
    added = {"ci/lib/check_helpers/__init__.py": FAKE}
    assert found(tmp_path, start, added, ["ci/check.py", "ci/lib/check_helpers.py"], ("python ci/check.py",)) == \
        ["ci/lib/check_helpers/__init__.py"]
    assert runs_fake(tmp_path, ["ci/check.py"])  # live: a package wins over a module in the same folder


def test_a_module_standing_in_for_a_namespace_prefix(tmp_path: Path) -> None:
    """`lib.py` beside a namespace `lib/` wins, and setting `__path__` makes it serve lib.check_helpers."""
    (tmp_path / "evil").mkdir()
    (tmp_path / "evil" / "check_helpers.py").write_text(FAKE)
    start = {"check.py": "from lib.check_helpers import expect\nexpect(1, 2)\n", "lib/check_helpers.py": REAL}
    added = {"lib.py": f"__path__ = [{str(tmp_path / 'evil')!r}]\n"}
    assert found(tmp_path, start, added, ["check.py", "lib/check_helpers.py"]) == ["lib.py"]
    assert runs_fake(tmp_path, ["check.py"])


def test_a_namespace_directory_is_no_shadow_and_is_left_alone(tmp_path: Path) -> None:
    start = {"check.py": CHECK, "check_helpers.py": REAL}
    added = {"check_helpers/expect.py": FAKE}  # a directory without __init__: a namespace portion
    assert found(tmp_path, start, added, ["check.py", "check_helpers.py"]) == []
    assert not runs_fake(tmp_path, ["check.py"])  # the pinned module still wins: not a hole


def test_links_named_like_the_module(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    lay(outside, {"pkg/__init__.py": FAKE, "fake.py": FAKE})
    root = tmp_path / "proj"
    root.mkdir()
    start = {"check.py": CHECK, "check_helpers.py": REAL, "sub/check.py": CHECK, "sub/check_helpers.py": REAL}
    lay(root, start)
    before = take_snapshot(root).files
    os.symlink(outside / "pkg", root / "check_helpers")
    os.symlink(outside / "fake.py", root / "sub" / "check_helpers.cpython-311-x86_64-linux-gnu.so")
    pinned = ["check.py", "check_helpers.py", "sub/check.py", "sub/check_helpers.py"]
    hits = shadows(root, pinned, before, take_snapshot(root).files, ("python check.py",), lambda p: None)
    assert hits == ["check_helpers", "sub/check_helpers.cpython-311-x86_64-linux-gnu.so"]
    assert runs_fake(root, ["check.py"])
    with ScratchCopy(root, dict.fromkeys(hits)) as copy:  # the copy loses the links, the workspace keeps them
        assert not os.path.lexists(copy / "check_helpers") and not runs_fake(copy, ["check.py"])
        assert (copy / "check_helpers.py").read_text() == REAL
    assert (root / "check_helpers").is_symlink() and (outside / "pkg" / "__init__.py").read_text() == FAKE


def test_an_extension_inside_a_pinned_package_beats_its_init_py(tmp_path: Path) -> None:
    start = {"check.py": CHECK, "check_helpers/__init__.py": REAL}
    added = {"check_helpers/__init__.abi3.so": "not really an ELF", "check_helpers/__init__.pyc": "x"}
    assert found(tmp_path, start, added, ["check.py", "check_helpers/__init__.py"]) == \
        ["check_helpers/__init__.abi3.so", "check_helpers/__init__.pyc"]


def test_a_new_init_py_that_moves_pytests_path_to_an_added_root_module(tmp_path: Path) -> None:
    """With tests/__init__.py pytest imports tests.test_add and puts the root on sys.path: `import
    helpers` then finds an added root helpers.py instead of the pinned tests/helpers.py."""
    start = {"tests/test_add.py": "from helpers import expect\n\n\ndef test_add():\n    expect(1, 2)\n", "tests/helpers.py": REAL}
    added = {"tests/__init__.py": "", "helpers.py": FAKE}
    hits = found(tmp_path, start, added, ["tests/test_add.py", "tests/helpers.py"], ("python -m pytest",))
    assert hits == ["helpers.py", "tests/__init__.py"]
    assert runs_fake(tmp_path, ["-m", "pytest", "-q", "-p", "no:cacheprovider"])


def test_a_module_shadowing_a_pinned_test_module_another_test_imports(tmp_path: Path) -> None:
    start = {"tests/test_add.py": "from test_base import expect\n\n\ndef test_add():\n    expect(1, 2)\n", "tests/test_base.py": REAL}
    added = {"tests/test_base/__init__.py": FAKE}
    assert found(tmp_path, start, added, ["tests/test_add.py", "tests/test_base.py"], ("python -m pytest tests",)) == \
        ["tests/test_base/__init__.py"]


@pytest.mark.parametrize("setting", ["pyproject.toml", "pytest.ini"])
def test_a_module_on_pytests_pythonpath_setting(tmp_path: Path, setting: str) -> None:
    config = {"pyproject.toml": "[tool.pytest.ini_options]\npythonpath = ['src']\n", "pytest.ini": "[pytest]\npythonpath = src\n"}[setting]
    start = {setting: config, "tests/test_add.py": "from check_helpers import expect\n", "check_helpers.py": REAL, "src/app.py": ""}
    added = {"src/check_helpers.py": FAKE}
    assert found(tmp_path, start, added, ["tests/test_add.py", "check_helpers.py", setting], ("python -m pytest",)) == ["src/check_helpers.py"]


def test_startup_hooks_on_the_commands_pythonpath(tmp_path: Path) -> None:
    start = {"check.py": "import check_helpers\ncheck_helpers.expect(1, 2)\n", "check_helpers.py": REAL, "lib/x.py": ""}
    added = {"lib/sitecustomize.py": "import check_helpers\ncheck_helpers.expect = lambda a, b: None\n", "usercustomize.py": ""}
    hits = found(tmp_path, start, added, ["check.py", "check_helpers.py"], ("env PYTHONPATH=lib:. python check.py",))
    assert hits == ["lib/sitecustomize.py", "usercustomize.py"]
    assert runs_fake(tmp_path, ["check.py"], {"PYTHONPATH": "lib:."})


def test_code_the_phase_may_write_is_left_alone(tmp_path: Path) -> None:
    """A new module elsewhere that merely shares a pinned module's short name, a new package in the
    code under test, and a shadow a task names as its target are the phase's to add."""
    start = {"check.py": "from lib.utils import expect\nimport calc\n", "lib/__init__.py": "", "lib/utils.py": REAL, "calc.py": ""}
    added = {"src/app/utils.py": "", "calc2/__init__.py": "", "utils.py": "", "lib/utils/__init__.py": FAKE}
    pinned = ["check.py", "lib/__init__.py", "lib/utils.py"]
    assert found(tmp_path, start, added, pinned) == ["lib/utils/__init__.py"]
    (tmp_path / "lib" / "utils" / "__init__.py").unlink()
    (tmp_path / "lib" / "utils").rmdir()
    assert found(tmp_path / "again", {**start, "check_helpers.py": REAL}, {"check_helpers/__init__.py": FAKE},
                 pinned + ["check_helpers.py"], keep=("check_helpers/__init__.py",)) == []


def test_a_shadow_inside_a_linked_build_folder_is_removed_from_a_copy_of_it(tmp_path: Path) -> None:
    """Build folders are linked into the scratch copy; one holding a path that must be absent is
    copied instead, so the removal never reaches the workspace."""
    lay(tmp_path, {"check.py": CHECK, "lib/check_helpers.py": REAL, "build/check_helpers/__init__.py": FAKE, "build/other.py": ""})
    assert runs_fake(tmp_path, ["check.py"], {"PYTHONPATH": "build:lib"})
    before = take_snapshot(tmp_path).files  # build/ is left out of the listing
    hits = shadows(tmp_path, ["check.py", "lib/check_helpers.py"], before, before, ("env PYTHONPATH=build:lib python check.py",), lambda p: None)
    assert hits == ["build/check_helpers/__init__.py"]
    with ScratchCopy(tmp_path, dict.fromkeys(hits)) as copy:
        assert not (copy / "build").is_symlink() and (copy / "build" / "other.py").exists()
        assert not runs_fake(copy, ["check.py"], {"PYTHONPATH": "build:lib"})
    assert (tmp_path / "build" / "check_helpers" / "__init__.py").read_text() == FAKE


@pytest.mark.parametrize("argv", [["check.py"], ["-m", "check"]])
def test_startup_hooks_in_the_project_are_not_reached_without_a_pythonpath(tmp_path: Path, argv: list[str]) -> None:
    """The evidence for leaving the script's own folder out of the startup-hook question: the
    interpreter imports sitecustomize / usercustomize and reads .pth files before that folder (or the
    working directory of -m) is on sys.path, and .pth files only from site directories."""
    patch = "import check_helpers\ncheck_helpers.expect = lambda a, b: None\n"
    lay(tmp_path, {"check.py": CHECK, "check_helpers.py": REAL, "sitecustomize.py": patch, "usercustomize.py": patch,
                   "rig.pth": "import check_helpers; check_helpers.expect = lambda a, b: None\n"})
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, *argv], cwd=tmp_path, capture_output=True, text=True, timeout=60, env=environment, check=False)
    assert done.returncode != 0 and "AssertionError" in done.stderr


def test_a_package_standing_in_for_the_script_python_dash_m_runs(tmp_path: Path) -> None:
    start = {"check_calc.py": "raise SystemExit('the real check fails')\n"}
    added = {"check_calc/__init__.py": "", "check_calc/__main__.py": "print('all good')\n"}
    assert found(tmp_path, start, added, ["check_calc.py"], ("python -m check_calc",)) == ["check_calc/__init__.py"]
    assert runs_fake(tmp_path, ["-m", "check_calc"])  # live: `-m` imports the name, and the package wins


def test_a_module_in_the_folder_of_the_script_a_command_runs(tmp_path: Path) -> None:
    """`python ci/run.py` puts ci/ first on sys.path: an added ci/check_helpers.py wins over the
    pinned root one the command's PYTHONPATH reaches."""
    start = {"ci/run.py": CHECK, "check_helpers.py": REAL}
    added = {"ci/check_helpers.py": FAKE}
    hits = found(tmp_path, start, added, ["ci/run.py", "check_helpers.py"], ("env PYTHONPATH=. python ci/run.py",))
    assert hits == ["ci/check_helpers.py"]
    assert runs_fake(tmp_path, ["ci/run.py"], {"PYTHONPATH": "."})
