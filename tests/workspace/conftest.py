from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pkg").mkdir()
    (root / "pkg" / "util.py").write_text("".join(f"def f{i}():\n    return {i}\n\n" for i in range(20)))
    (root / "README.md").write_text("# demo\n")
    return root


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret = tmp_path / "outside"
    secret.mkdir()
    (secret / "secret.txt").write_text("TOP-SECRET-OUTSIDE\n")
    return secret


@pytest.fixture
def tool(konstruct, project: Path):
    """Call a tool through the CLI on `project`; returns the JSON result (asserting exit 0)."""

    def call(name: str, arguments: dict[str, Any], root: Path | None = None) -> dict[str, Any]:
        code, payload, err = konstruct("tool", name, "--root", str(root or project), "--json", json.dumps(arguments))
        assert code == 0, err
        assert isinstance(payload, dict)
        return payload

    return call


@pytest.fixture
def revision_of(tool):
    def revision(path: str) -> str:
        entry = tool("read_code", {"paths": [path]})["results"][0]
        assert entry["status"] == "ok", entry
        return entry["revision"]

    return revision
