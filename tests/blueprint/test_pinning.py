"""Which files a verify command stands on (pinned), read from the command line and the project."""

from __future__ import annotations

from konstruct_tui.blueprint.pinning import pinned_files
from konstruct_tui.blueprint.plan import Phase, Task

FILES = {
    "calc.py": b"def add(a, b):\n    return a + b\n",
    "check_calc.py": b"import calc\nimport check_helpers\n",
    "check_helpers.py": b"def expect(x):\n    assert x\n",
    "notes.md": b"# notes\n",
    "tests/test_calc.py": b"import calc\n",
    "tests/data/cases.json": b"[]\n",
    "tests/conftest.py": b"",
    "pyproject.toml": b"[tool.pytest.ini_options]\n",
    "src/app.ts": b"export const x = 1\n",
    "src/app.test.ts": b"import {x} from './app'\n",
    "package.json": b'{"scripts": {"test": "jest --ci", "lint": "eslint src"}}',
    "Makefile": b"check:\n\t./run_checks.sh\n",
    "run_checks.sh": b"#!/bin/sh\npython check_calc.py\n",
    "go.mod": b"module x\n",
    "pkg/calc_test.go": b"package pkg\n",
}


def _pins(*commands: str, relevant: tuple[str, ...] = ("calc.py",), files: tuple[str, ...] = ()) -> set[str]:
    phase = Phase("p1", "Fix", "fix", (Task("t1", "do it", files),), relevant=relevant, verify=commands)
    return set(pinned_files(phase, FILES, FILES.get))


def test_a_named_script_and_what_it_imports_are_pinned_but_not_the_code_under_test() -> None:
    assert _pins("python check_calc.py") == {"check_calc.py", "check_helpers.py"}
    assert _pins("python ./check_calc.py") == {"check_calc.py", "check_helpers.py"}


def test_pytest_pins_tests_their_data_and_configuration() -> None:
    pins = _pins("python -m pytest -q")
    assert {"tests/test_calc.py", "tests/data/cases.json", "tests/conftest.py", "pyproject.toml"} <= pins
    assert "calc.py" not in pins and "src/app.ts" not in pins
    assert {"tests/test_calc.py", "tests/conftest.py"} <= _pins("pytest tests/test_calc.py::test_add")


def test_runners_reached_through_make_scripts_and_npm_are_followed() -> None:
    assert {"Makefile", "run_checks.sh", "check_calc.py", "check_helpers.py"} <= _pins("make check")
    assert {"package.json", "src/app.test.ts"} <= _pins("npm test")
    assert {"pkg/calc_test.go", "go.mod"} <= _pins("go test ./...")
    assert "check_calc.py" in _pins("sh -c 'python check_calc.py && echo ok'")


def test_a_task_target_is_not_pinned_and_relevant_code_named_by_a_checker_is_not_either() -> None:
    assert "tests/test_calc.py" not in _pins("python -m pytest -q", files=("tests/test_calc.py",))
    assert _pins("python -m mypy calc.py") == set()
    assert "tests/test_calc.py" in _pins("pytest tests/test_calc.py", relevant=("tests/",))  # tests stay pinned


def test_the_script_a_command_runs_is_pinned_even_when_relevant_names_it() -> None:
    assert "check_calc.py" in _pins("python check_calc.py", relevant=("**/*.py",))
    assert "check_calc.py" in _pins("python3 -m check_calc", relevant=())
    assert "run_checks.sh" in _pins("bash run_checks.sh", relevant=("*.sh",))
    assert "check_helpers.py" in _pins("python check_calc.py", relevant=())  # a check helper, by its name


def test_without_relevant_files_the_code_under_test_is_not_pinned() -> None:
    assert "calc.py" not in _pins("python check_calc.py", relevant=())
    assert _pins("python -m mypy calc.py", relevant=()) == set()


def test_wrapped_and_respelt_commands_pin_the_same_script() -> None:
    for line in ("timeout 60 python check_calc.py", "env PYTHONHASHSEED=0 python3 -B check_calc.py",
                 "uv run python src/../check_calc.py", "nice -n 5 python ./check_calc.py"):
        assert "check_calc.py" in _pins(line, relevant=("**",)), line


def test_an_edit_to_a_shared_project_file_counts_only_when_it_touches_the_test_configuration() -> None:
    from konstruct_tui.blueprint.pinning import verification_part

    before = b"[project]\nname = 'calc'\ndependencies = []\n\n[tool.pytest.ini_options]\naddopts = '-q'\n"
    new_dependency = before.replace(b"dependencies = []", b"dependencies = ['attrs']")
    rigged = before.replace(b"addopts = '-q'", b"addopts = '-q -k nothing'")
    assert verification_part("pyproject.toml", before) == verification_part("pyproject.toml", new_dependency)
    assert verification_part("pyproject.toml", before) != verification_part("pyproject.toml", rigged)
    scripts = b'{"name": "x", "version": "1.0.0", "scripts": {"test": "jest"}}'
    assert verification_part("package.json", scripts) == verification_part("package.json", scripts.replace(b"1.0.0", b"1.1.0"))
    assert verification_part("package.json", scripts) != verification_part("package.json", scripts.replace(b'"jest"', b'"true"'))
    assert verification_part("tests/test_calc.py", b"a") != verification_part("tests/test_calc.py", b"b")
