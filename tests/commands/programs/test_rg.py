"""rg: a look around, unless it is told to run a program on what it searches (`--pre`) or to start
decompressors found on PATH (`-z`) (its facts: commands/programs/search.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer


# Broke before: look-arounds that start other programs found on PATH (which may name a folder in the
# project): rg's decompressors, file's.
@pytest.mark.parametrize("command", ["rg -z needle", "rg --search-zip needle", "rg -nz needle", "file -z a.gz",
                                     "file --uncompress a.gz"])
def test_a_look_around_that_starts_decompressors_asks(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")
