"""find: its actions (`-delete`, `-exec`, `-fprint`) and the filters that must come before them."""

from __future__ import annotations

from konstruct_tui.commands import decide


def test_find_deletes_everything_when_the_action_comes_before_the_filter() -> None:
    assert decide("find . -delete -name x").rule == "destructive"
    assert decide("find . -name x -delete").decision == "ask"
