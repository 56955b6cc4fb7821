"""The layers' public names stay honest: everything in `__all__` exists, and nothing else is needed."""

from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize("package", ["konstruct_tui.commands", "konstruct_tui.trust"])
def test_all_names_exist(package: str) -> None:
    module = importlib.import_module(package)
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert missing == []
