"""Fixtures for the sandbox tests: private user dirs, a workspace, and fresh paths outside it.
Plain helpers (markers, running a confined child) are in sandbox_helpers.py."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_user_dirs_for_sandbox(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("sandbox-userdirs")
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(home / name.lower()))
    monkeypatch.delenv("KONSTRUCT_SANDBOX_ABI", raising=False)


@pytest.fixture
def workspace_root(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "src").mkdir()
    return root


@pytest.fixture
def outside_paths() -> Callable[[str], Path]:
    """Fresh, unused paths outside the workspace; whatever a failed test left there is removed."""
    made: list[Path] = []

    def make(folder: str) -> Path:
        path = Path(folder).expanduser() / f"konstruct-sandbox-test-{uuid.uuid4().hex}"
        made.append(path)
        return path

    yield make
    for path in made:
        path.unlink(missing_ok=True)
