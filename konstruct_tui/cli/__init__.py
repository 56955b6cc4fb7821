"""The `konstruct` command line (DESIGN.md §10). Each command group lives in its own module with a
`register(subparsers)` that sets the handler; this module only composes them.

Bad input anywhere: one line on stderr, exit 2, nothing on disk changed.
"""

from __future__ import annotations

from typing import NoReturn

import argparse
import os
import sys
from collections.abc import Sequence

from importlib import import_module
from types import ModuleType

from .. import __version__
from . import workbench
from .common import UsageError

# Command word -> the module that registers it. Only the module of the command being run is
# imported (each pulls in its own layers), so `konstruct policy check` does not pay for the graph,
# the agent and MCP; help and unknown words load them all.
COMMANDS = {
    "tool": "tool", "tools": "tool", "undo": "undo", "index": "index", "graph": "graph",
    "policy": "policy", "trust": "trust", "run": "run", "mcp": "mcp", "demo": "workbench",
    "blueprint": "blueprint", "sandbox": "sandbox",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def groups_for(argv: Sequence[str]) -> list[ModuleType]:
    """The command modules needed to parse `argv`: the one its command word names, else all."""
    word = next((arg for arg in argv if not arg.startswith("-")), None)
    if word in COMMANDS:
        wanted = [COMMANDS[word]]
    elif word is None and not {"-h", "--help"} & set(argv):
        wanted = []  # `konstruct --version`, or the bare workbench
    else:
        wanted = list(dict.fromkeys(COMMANDS.values()))
    return [import_module(f"{__name__}.{name}") for name in wanted]


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    parser = _Parser(prog="konstruct", description="A terminal workbench for working with a coding agent.")
    parser.add_argument("--version", action="version", version=f"konstruct {__version__}")
    workbench.add_options(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for group in groups_for(argv):
        group.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "handler", None):
            if args.command is None:  # bare `konstruct [--root DIR]`: the workbench (DESIGN.md §10)
                return workbench.open_workbench(args)
            parser.print_help()
            return 0
        return int(args.handler(args) or 0)
    except UsageError as error:
        print(f"konstruct: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug: one line for the person, the traceback on request
        if os.environ.get("KONSTRUCT_DEBUG"):
            raise
        print(f"konstruct: internal error: {type(error).__name__}: {error} (KONSTRUCT_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
