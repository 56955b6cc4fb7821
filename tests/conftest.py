"""Every test gets private user dirs, so no test reads or writes the real config, cache or data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("userdirs")
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(home / name.lower()))
    return home


@pytest.fixture
def konstruct(capsys: pytest.CaptureFixture[str]):
    """Run the CLI in-process: returns (exit code, parsed stdout JSON or None, stderr)."""
    from konstruct_tui.cli import main

    def run(*argv: str) -> tuple[int, object, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        try:
            payload = json.loads(out) if out.strip() else None
        except json.JSONDecodeError:
            payload = out
        return code, payload, err

    return run
