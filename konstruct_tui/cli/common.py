"""Pieces every command uses: the usage error, `--root`, and JSON output."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..workspace import Workspace


class UsageError(Exception):
    """Bad input: printed as one line, exit 2."""


def add_root(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default=".", metavar="DIR", help="the project root (default: the current directory)")


def open_workspace(root: str) -> Workspace:
    if not os.path.isdir(root):
        raise UsageError(f"--root {root!r} is not a directory")
    from ..workspace import Workspace  # here, not above: parsing a command line needs none of it

    try:
        return Workspace(root)
    except OSError as error:
        raise UsageError(f"cannot open --root {root!r}: {error.strerror or error}") from None


def print_json(payload: Any) -> None:
    """Print a result. Tools scrub the root from paths and reasons themselves; file content is
    printed verbatim, even where it happens to spell the root."""
    import json

    sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=True) + "\n")
    sys.stdout.flush()
