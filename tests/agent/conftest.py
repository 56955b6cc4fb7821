"""Agent tests run real tools on a temporary project (user dirs: the fixture at the tests root)."""

from __future__ import annotations

from pathlib import Path

import pytest
from agent_harness import CALC





@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "calc.py").write_text(CALC)
    return root
