"""tar and the other archivers: unpacking over the machine is refused, reading from it is not."""

from __future__ import annotations

from konstruct_tui.commands import decide


def test_archives_read_from_system_folders_are_not_refused() -> None:
    assert decide("tar -czf out.tgz -C /etc .").decision == "ask"
    assert decide("unzip x.zip -d build").decision == "ask"
