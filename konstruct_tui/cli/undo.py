"""`konstruct undo`: put back what the last applied write or delete batch changed."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..workspace import UndoRefused, WriteJournal, undo_last
from ..untrusted_text import neutralise
from .common import add_root, open_workspace, print_json


def register(commands: Any) -> None:
    undo = commands.add_parser("undo", help="restore the files the last applied batch changed")
    add_root(undo)
    undo.set_defaults(handler=run_undo)


def run_undo(args: argparse.Namespace) -> int:
    workspace = open_workspace(args.root)
    with workspace:
        try:
            result = undo_last(workspace, WriteJournal(workspace.root))
        except UndoRefused as refusal:
            print(neutralise(f"konstruct: undo refused: {workspace.scrub(str(refusal))}"), file=sys.stderr)
            return 1
        print_json(result)
    return 0
