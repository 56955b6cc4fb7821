"""Shared helpers of the command-policy tests grouped by program (test_<program>.py), and `gathered`:
the case tables (`DENIED`, `ASKED` ...) are spread over the program files, and a cross-program
test reads them whole."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from konstruct_tui.commands import PolicyConfig, decide, discover_scripts
from konstruct_tui.workspace import Workspace

HERE = Path(__file__).resolve().parent
READ_ONLY = PolicyConfig(read_only_sandbox=True)


def check(command: str, config: PolicyConfig | None = None):
    return decide(command, config)


def gathered(name: str) -> list:
    """The list `name` of every test file in this folder, concatenated (a case table split by program)."""
    found: list = []
    for path in sorted(HERE.glob("test_*.py")):
        found += getattr(importlib.import_module(path.stem), name, [])
    return found


def config_with_scripts(root: Path, files: dict[str, str]) -> PolicyConfig:
    """A project at `root` holding `files`, with the scripts the policy finds in it."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    with Workspace(root) as workspace:
        return PolicyConfig(scripts=tuple(discover_scripts(workspace)), root=workspace.root)


def project(root: Path) -> PolicyConfig:
    return config_with_scripts(root, {
        "package.json": json.dumps({"scripts": {"test": "jest", "wipe": "rm -rf /", "clean": "rimraf ~"}}),
        "Makefile": "test:\n\tpytest -q\nnuke:\n\tcd / && rm -rf ~\n", "tests/test_a.py": "def test_a(): pass\n",
        "go.mod": "module x\n",
    })


def pytest_project(tmp_path: Path) -> PolicyConfig:
    return config_with_scripts(tmp_path, {
        "tests/test_a.py": "def test_a():\n    pass\n",
        "pyproject.toml": '[project]\nname = "x"\nversion = "0"\n[tool.pytest.ini_options]\n',
    })


def scripts_project(tmp_path: Path, files: dict[str, str]) -> PolicyConfig:
    return config_with_scripts(tmp_path, files)
