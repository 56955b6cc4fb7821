"""`konstruct tool NAME --json '{...}'` and `konstruct tools`: call one tool headless, list them all.

The person's own action: no trust grant is asked (refusals still apply). One CLI call is one edit
run for the 65% guard, and applied batches go to the write journal for `konstruct undo`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .common import UsageError, add_root, open_workspace, print_json

MAX_ARGUMENT_CHARS = 96 * 1024 * 1024  # above read_code's and write_code's own ceilings (64 MiB)


def register(commands: Any) -> None:
    one = commands.add_parser("tool", help="call one tool headless and print its JSON result")
    one.add_argument("name", metavar="NAME", help="the tool to call (see `konstruct tools`)")
    add_root(one)
    one.add_argument("--json", dest="arguments", default="{}", metavar="JSON", help="the tool input; '-' reads stdin")
    one.set_defaults(handler=run_tool)
    listing = commands.add_parser("tools", help="list the tools and their JSON schemas")
    listing.set_defaults(handler=list_tools)


def run_tool(args: argparse.Namespace) -> int:
    from ..tools import TOOLS, ToolContext, ToolError, call
    from ..workspace import WriteJournal

    if args.name not in TOOLS:
        raise UsageError(f"unknown tool {args.name!r}; known tools: {', '.join(TOOLS)}")
    arguments = parse_arguments(sys.stdin.read(MAX_ARGUMENT_CHARS + 1) if args.arguments == "-" else args.arguments)
    workspace = open_workspace(args.root)
    with workspace:
        context = ToolContext(workspace, journal=WriteJournal(workspace.root))
        try:
            result = call(args.name, arguments, context)
        except ToolError as error:
            raise UsageError(workspace.scrub(str(error))) from None
        print_json(result.to_json())
    return 0


def parse_arguments(text: str) -> Any:
    """The `--json` text as a value, or a one-line UsageError: not JSON, too long, too deep, too many
    values (the bounds of `tools.argument_bounds`, checked before any tool sees it)."""
    from ..tools import MAX_ARGUMENT_DEPTH as MAX_DEPTH
    from ..tools import ArgumentsTooBig, check_bounds

    if len(text) > MAX_ARGUMENT_CHARS:
        raise UsageError(f"--json is longer than {MAX_ARGUMENT_CHARS} characters; split the call into smaller ones")
    try:
        arguments = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"--json is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:  # the decoder's own recursion: far deeper than any bound below
        raise UsageError(f"--json: the arguments are nested deeper than {MAX_DEPTH} levels") from None
    try:
        check_bounds(arguments)
    except ArgumentsTooBig as too_big:
        raise UsageError(f"--json: {too_big}") from None
    return arguments


def list_tools(args: argparse.Namespace) -> int:
    from ..tools import describe

    print_json({"tools": describe()})
    return 0
