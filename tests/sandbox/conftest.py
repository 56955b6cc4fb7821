"""Fixtures for the sandbox tests: the machine's kernel ABI, a workspace, and fresh paths outside it.
Plain helpers (markers, running a confined child) are in sandbox_helpers.py."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def kernel_abi_from_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sandbox tests read the machine's own Landlock ABI, never one a caller's environment forces.
    (Private user dirs come from the fixture at the tests root.)"""
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


@pytest.fixture(params=[True, False], ids=["namespaces", "landlock-only"])
def isolated(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Each test twice: with the command's private namespaces (skipped where they cannot be made:
    root or CAP_SYS_ADMIN), and with Landlock alone, as an unprivileged user gets it."""
    from konstruct_tui.sandbox import namespaces

    if request.param and not namespaces.available():
        pytest.skip("needs private namespaces (root or CAP_SYS_ADMIN)")
    if not request.param:
        monkeypatch.setenv(namespaces.DISABLE, "1")
    return bool(request.param)
