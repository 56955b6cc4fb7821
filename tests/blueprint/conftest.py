"""Fixtures for the blueprint scenarios: a tiny project (user dirs: the fixture at the tests root)."""

from __future__ import annotations

from pathlib import Path

import pytest
from blueprint_harness import CALC, CHECK



@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "calc.py").write_text(CALC)
    (root / "check_calc.py").write_text(CHECK)
    (root / "notes.md").write_text("# notes\n")
    return root
