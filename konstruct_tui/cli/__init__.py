"""The `konstruct` command line (DESIGN.md §10). Each command group lives in its own module with a
`register(subparsers)` that sets the handler; this module only composes them.

Bad input anywhere: one line on stderr, exit 2, nothing on disk changed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__
from . import tool, undo
from .common import UsageError

GROUPS = (tool, undo)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="konstruct", description="A terminal workbench for working with a coding agent.")
    parser.add_argument("--version", action="version", version=f"konstruct {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for group in GROUPS:
        group.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "handler", None):
            parser.print_help()
            return 0
        return int(args.handler(args) or 0)
    except UsageError as error:
        print(f"konstruct: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
