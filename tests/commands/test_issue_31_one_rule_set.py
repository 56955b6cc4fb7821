"""Issue 31: one rule set for every path a command takes.

- Extras after `--` go to the script's program: `npm test -- --junitxml=src/app.py` is `pytest
  --junitxml=src/app.py`, which overwrites a source file, so it is judged by pytest's unsafe options
  and needs the `commands` grant instead of running under `scripts`.
- `npm-run-all test:*` runs every `test:` script: a pattern names each script it matches, so a
  denied one is judged, not hidden.
- An allowlisted git runs as our own hardened git, like a read-only one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from konstruct_tui.commands import PolicyConfig, decide, discover_scripts
from konstruct_tui.workspace import Workspace


def _config(root: Path, scripts: dict[str, str], **extra: object) -> PolicyConfig:
    (root / "package.json").write_text(json.dumps({"scripts": scripts}))
    with Workspace(root) as workspace:
        found = tuple(discover_scripts(workspace))
    return PolicyConfig(scripts=found, root=root, **extra)  # type: ignore[arg-type]


@pytest.mark.parametrize("extras", [
    "--junitxml=src/app.py", "--junit-xml src/app.py", "--junitx=src/app.py", "-- --junitxml=src/app.py",
    "-p evil_plugin", "-pevil_plugin", "--rootdir=/", "-c /tmp/evil.ini", "--override-ini=python_files=*.py",
    "--resultlog=src/app.py", "--cov-report=xml:src/app.py", "--debug=src/app.py", "/tmp/test_evil.py",
    "../outside/test_x.py", "@/tmp/args.txt", "--basetemp=src",
])
def test_pytest_extras_behind_double_dash_are_judged_as_pytest_options(tmp_path: Path, extras: str) -> None:
    config = _config(tmp_path, {"test": "pytest -q"})
    decision = decide(f"npm test -- {extras}", config)
    assert (decision.decision, decision.capability) == ("ask", "commands"), decision
    assert decision.rule != "project_script"


@pytest.mark.parametrize("extras", ["-x", "-k 'not slow'", "-q tests/test_a.py", "--lf", "-vv --maxfail=2"])
def test_ordinary_extras_still_run_as_the_script(tmp_path: Path, extras: str) -> None:
    decision = decide(f"npm test -- {extras}", _config(tmp_path, {"test": "pytest -q"}))
    assert (decision.decision, decision.rule) == ("allow", "project_script"), decision


@pytest.mark.parametrize(("body", "extras"), [
    ("jest", "--outputFile=src/app.js"), ("jest --ci", "--config=/tmp/evil.js"), ("vitest run", "--outputFile=src/app.js"),
    ("mocha", "--require ./evil.js"), ("eslint .", "-o src/app.js"), ("tsc", "--outDir src"),
    ("cross-env CI=1 jest", "--globalSetup=./evil.js"), ("python -m pytest", "--junitxml=src/app.py"),
    ("anything-unknown", "--output=src/app.py"),
])
def test_every_program_a_script_hands_its_extras_to_is_judged(tmp_path: Path, body: str, extras: str) -> None:
    decision = decide(f"npm run go -- {extras}", _config(tmp_path, {"go": body}))
    assert decision.rule != "project_script", (body, extras, decision)


@pytest.mark.parametrize("runner", [
    "npm-run-all test:*", "npm-run-all -p 'test:**'", "run-s test:*", "run-p \"test:*\"",
    "concurrently \"npm:test:*\"", "npm-run-all test:[e]vil", "npm-run-all test:?vil",
])
def test_a_pattern_naming_scripts_does_not_hide_a_denied_one(tmp_path: Path, runner: str) -> None:
    config = _config(tmp_path, {"test": runner, "test:unit": "pytest", "test:evil": "rm -rf /"})
    decision = decide("npm test", config)
    assert decision.decision == "refuse", (runner, decision)


def test_a_pattern_that_names_only_harmless_scripts_runs(tmp_path: Path) -> None:
    config = _config(tmp_path, {"test": "npm-run-all test:*", "test:unit": "pytest", "test:lint": "ruff check ."})
    assert decide("npm test", config).rule == "project_script"


