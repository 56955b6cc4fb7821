"""Fixtures for the blueprint scenarios: a tiny project (user dirs: the fixture at the tests root)."""

from __future__ import annotations

from pathlib import Path

import pytest
from blueprint_harness import CALC, CHECK


@pytest.fixture(autouse=True)
def bare_inner_pytest(monkeypatch: pytest.MonkeyPatch) -> None:
    """The verifications these tests run are `pytest` in a scratch project: without this, each one
    would load every pytest plugin installed for our own suite (textual's snapshots, hypothesis,
    benchmark's git calls), compiled afresh in the verification's empty bytecode cache, 3-8 s a run.
    A plan's own `-p plugin` (in its pyproject or command) still loads."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "calc.py").write_text(CALC)
    (root / "check_calc.py").write_text(CHECK)
    (root / "notes.md").write_text("# notes\n")
    return root
