"""tail: a look around, unless it follows a file for ever (its facts: commands/programs/files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer


# Broke before: `tail` clusters and abbreviations that follow forever passed as a look around.
@pytest.mark.parametrize("command", ["tail -qf a.txt", "tail --fol a.txt", "tail -n1 -F a.txt", "tail --follow=name a.txt",
                                     "tail --retry a.txt"])
def test_a_tail_that_never_ends_is_not_a_look_around(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")


def test_a_tail_that_ends_is_still_a_look_around(tmp_path: Path) -> None:
    assert answer("tail -n 5 a.txt", tmp_path) == ("allow", "read_only")
