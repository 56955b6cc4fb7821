"""At the start of every command that touches the workspace: settle what an interrupted batch left
(workspace/recovery.py) and say so on stderr, one line per batch."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..workspace import Workspace, WriteJournal


def settle_interrupted(workspace: Workspace, journal: WriteJournal | None = None) -> None:
    from ..workspace import WriteJournal, recover_interrupted

    for recovered in recover_interrupted(workspace, journal or WriteJournal(workspace.root)):
        print(f"konstruct: {workspace.scrub(recovered.line)}", file=sys.stderr)
