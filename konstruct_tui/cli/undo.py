"""`konstruct undo`: put back what the newest applied write or delete batch changed.

Exit 0 undone, 1 refused (a file changed since, or nothing to undo), 2 the journal is damaged or
cannot be written (one line naming it and what to do; nothing restored).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..workspace import JournalUnusable, UndoRefused, WriteJournal, drop_batch, undo_last
from ..untrusted_text import neutralise
from .common import UsageError, add_command, open_workspace, print_json


def register(commands: Any) -> None:
    undo = add_command(commands, "undo", "restore the files the last applied batch changed", run_undo)
    undo.add_argument("--drop", metavar="BATCH", help="forget a batch that cannot be undone (damaged), restoring nothing")


def run_undo(args: argparse.Namespace) -> int:
    workspace = open_workspace(args.root)
    with workspace:
        journal = WriteJournal(workspace.root)
        if args.drop is not None:
            return _drop(journal, args.drop)
        try:
            result = undo_last(workspace, journal)
        except JournalUnusable as unusable:
            raise UsageError(f"undo refused: {workspace.scrub(str(unusable))}") from None
        except UndoRefused as refusal:
            print(neutralise(f"konstruct: undo refused: {workspace.scrub(str(refusal))}"), file=sys.stderr)
            return 1
        print_json(result)
    return 0


def _drop(journal: WriteJournal, batch_id: str) -> int:
    try:
        drop_batch(journal, batch_id)
    except UndoRefused as refusal:
        raise UsageError(f"--drop {batch_id!r}: {refusal}") from None
    print_json({"dropped": batch_id})
    return 0
