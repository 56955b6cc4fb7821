"""Project script discovery per ecosystem, and how the policy treats a project's own scripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from konstruct_tui.commands import PolicyConfig, decide, discover_scripts, find_script
from konstruct_tui.workspace import Workspace


def _project(root: Path, files: dict[str, str]) -> Workspace:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return Workspace(root)


def _scripts(tmp_path: Path, files: dict[str, str]) -> dict[str, tuple[str, ...]]:
    with _project(tmp_path, files) as ws:
        return {s.qualified: s.argv for s in discover_scripts(ws)}


def test_package_json_scripts(tmp_path: Path) -> None:
    found = _scripts(tmp_path, {"package.json": json.dumps({"scripts": {"test": "jest", "build": "tsc -p ."}})})
    assert found == {"npm:test": ("npm", "test"), "npm:build": ("npm", "run", "build")}


def test_package_manager_follows_the_lock_file(tmp_path: Path) -> None:
    found = _scripts(tmp_path, {"package.json": json.dumps({"scripts": {"lint": "eslint ."}}), "pnpm-lock.yaml": ""})
    assert found == {"npm:lint": ("pnpm", "run", "lint")}


def test_makefile_targets(tmp_path: Path) -> None:
    makefile = ".PHONY: test lint\ntest:\n\tpytest -q\nlint build: deps\n\truff check .\n%.o: %.c\n\tcc $<\nVAR := 1\n"
    found = _scripts(tmp_path, {"Makefile": makefile})
    assert found == {"make:test": ("make", "test"), "make:lint": ("make", "lint"), "make:build": ("make", "build")}


def test_pyproject_scripts_and_pytest_when_tests_exist(tmp_path: Path) -> None:
    pyproject = '[project]\nname = "x"\n[project.scripts]\nserve = "x.app:main"\n'
    found = _scripts(tmp_path, {"pyproject.toml": pyproject, "tests/test_a.py": "def test_a(): pass\n"})
    assert found["python:serve"] == ("serve",)
    assert found["python:test"][1:] == ("-m", "pytest")


def test_no_pytest_script_without_tests(tmp_path: Path) -> None:
    found = _scripts(tmp_path, {"pyproject.toml": '[project]\nname = "x"\n', "x/app.py": ""})
    assert "python:test" not in found


def test_go_module(tmp_path: Path) -> None:
    found = _scripts(tmp_path, {"go.mod": "module example.com/x\n"})
    assert found["go:test"] == ("go", "test", "./...")


def test_maven_prefers_the_wrapper(tmp_path: Path) -> None:
    assert _scripts(tmp_path / "a", {"pom.xml": "<project/>"})["maven:test"] == ("mvn", "test")
    assert _scripts(tmp_path / "b", {"pom.xml": "<project/>", "mvnw": ""})["maven:test"] == ("./mvnw", "test")


def test_gradle_prefers_the_wrapper(tmp_path: Path) -> None:
    assert _scripts(tmp_path / "a", {"build.gradle": ""})["gradle:test"] == ("gradle", "test")
    assert _scripts(tmp_path / "b", {"build.gradle.kts": "", "gradlew": ""})["gradle:test"] == ("./gradlew", "test")


def test_broken_files_mean_no_scripts_not_a_crash(tmp_path: Path) -> None:
    assert _scripts(tmp_path, {"package.json": "{not json", "pyproject.toml": "[[[", "Makefile": "\x00\x01"}) == {}


def test_plain_name_picks_the_first_source_qualified_name_picks_one(tmp_path: Path) -> None:
    files = {"package.json": json.dumps({"scripts": {"test": "jest"}}), "Makefile": "test:\n\tnpm test\n"}
    with _project(tmp_path, files) as ws:
        scripts = discover_scripts(ws)
    assert find_script(scripts, "test").qualified == "npm:test"
    assert find_script(scripts, "make:test").argv == ("make", "test")
    assert find_script(scripts, "deploy") is None


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("npm test", "allow"), ("npm run test", "allow"), ("npm t", "allow"), ("npm test -- --watch", "allow"),
        ("make test", "allow"), ("make lint", "allow"), ("pytest -q tests/test_a.py", "allow"),
        ("python -m pytest", "allow"), ("go test ./pkg/...", "allow"),
        ("make -f /tmp/evil.mk test", "ask"), ("npm test --prefix /elsewhere", "ask"), ("pytest -p evil_plugin", "ask"),
        ("make wipe", "refuse"), ("npm run wipe", "refuse"), ("make test; rm -rf /", "refuse"),
    ],
)
def test_project_scripts_are_allowed_under_the_scripts_grant(tmp_path: Path, command: str, decision: str) -> None:
    files = {
        "package.json": json.dumps({"scripts": {"test": "jest", "wipe": "rm -rf / --no-preserve-root"}}),
        "Makefile": "test:\n\tpytest -q\nlint:\n\truff check .\nwipe:\n\tcd / && rm -rf ~\n",
        "tests/test_a.py": "def test_a(): pass\n", "go.mod": "module x\n",
    }
    with _project(tmp_path, files) as ws:
        config = PolicyConfig(scripts=tuple(discover_scripts(ws)), root=ws.root)
    result = decide(command, config)
    assert result.decision == decision, result.reason
    if decision == "allow":
        assert (result.rule, result.capability) == ("project_script", "scripts")
    if command.startswith(("make wipe", "npm run wipe")):
        assert result.rule == "deny"  # a script body is held to the hard deny list too
