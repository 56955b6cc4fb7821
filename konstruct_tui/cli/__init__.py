"""The `konstruct` command line (DESIGN.md §10). Each command group lives in its own module with a
`register(subparsers)` that sets the handler; this module only composes them.

Bad input anywhere: one line on stderr, exit 2, nothing on disk changed.
"""

from __future__ import annotations

from typing import NoReturn

import argparse
import contextlib
import os
import sys
import warnings
from collections.abc import Iterator, Sequence

from importlib import import_module
from types import ModuleType

from .. import __version__
from . import workbench
from ..untrusted_text import neutralise
from .common import UsageError

# Command word -> the module that registers it. Only the module of the command being run is
# imported, and each imports its layers inside its handlers, so parsing (and refusing) a command
# line costs argparse alone: `konstruct --help` and a usage error never load the graph, the agent,
# pydantic or MCP (tests/cli/test_startup.py holds that line).
COMMANDS = {
    "tool": "tool", "tools": "tool", "undo": "undo", "index": "index", "graph": "graph",
    "policy": "policy", "trust": "trust", "run": "run", "mcp": "mcp", "demo": "workbench",
    "blueprint": "blueprint", "sandbox": "sandbox", "worker": "team", "workers": "team",
    "approvals": "team",
}

# What `konstruct --help` lists, in this order. The top-level help and an unknown command word need
# only these lines, not the twelve modules behind them; a test checks they match what each module
# registers, so the two never drift apart.
SUMMARIES = {
    "tool": "call one tool headless and print its JSON result",
    "tools": "list the tools and their JSON schemas",
    "undo": "restore the files the last applied batch changed",
    "index": "build or refresh the code graph index, with a progress bar",
    "graph": "the code graph: export it",
    "policy": "ask the command policy about a command",
    "trust": "list, grant or revoke what the agent may do in this project",
    "run": "one headless agent run; events as JSON lines",
    "mcp": "serve the tools over MCP (stdio)",
    "demo": "the workbench on a bundled sample project, with a scripted model (no key, no network)",
    "blueprint": "run a plan of phases unattended, behind a completion gate",
    "sandbox": "the kernel sandbox commands run in (Landlock)",
    "worker": "serve queued blueprint runs from the team database",
    "workers": "the team's workers: alive, stopped or dead, and the runs each one drives",
    "approvals": "answer the trust requests parked team runs wait on",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def groups_for(argv: Sequence[str]) -> list[ModuleType] | None:
    """The command modules needed to parse `argv`: the one its command word names; [] for
    `--version` or the bare workbench; None when only the command list is needed (help, a word
    that names no command)."""
    word = next((arg for arg in argv if not arg.startswith("-")), None)
    if word in COMMANDS:
        return [import_module(f"{__name__}.{COMMANDS[word]}")]
    if word is None and not {"-h", "--help"} & set(argv):
        return []
    return None


def build_parser(argv: Sequence[str] = (), *, full: bool = False) -> argparse.ArgumentParser:
    """The parser for `argv`. `full`: every command's own arguments, as if each were being run."""
    parser = _Parser(prog="konstruct", description="A terminal workbench for working with a coding agent.")
    parser.add_argument("--version", action="version", version=f"konstruct {__version__}")
    workbench.add_options(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    groups = [import_module(f"{__name__}.{name}") for name in dict.fromkeys(COMMANDS.values())] if full else groups_for(argv)
    if groups is None:
        for word, summary in SUMMARIES.items():
            commands.add_parser(word, help=summary)
    else:
        for group in groups:
            group.register(commands)
    return parser


@contextlib.contextmanager
def _one_line_warnings() -> Iterator[None]:
    """Our own warnings (a damaged trust store or sandbox settings file) reach a person running a
    command as one line each, `konstruct: warning: ...`, said once: never Python's two-line
    `file:line: Category: ...` with a source line, whichever command met the damage. Only the
    text is reformatted (`formatwarning`), so whoever records warnings still gets them."""
    said: set[str] = set()
    formatted = warnings.formatwarning

    def format_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                       line: str | None = None) -> str:
        if not category.__module__.startswith("konstruct_tui"):
            return formatted(message, category, filename, lineno, line)
        if str(message) in said:
            return ""
        said.add(str(message))
        return neutralise(f"konstruct: warning: {message}") + "\n"

    warnings.formatwarning = format_warning
    try:
        yield
    finally:
        warnings.formatwarning = formatted


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    with _one_line_warnings():
        return _main(argv)


def _main(argv: list[str]) -> int:
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
        print(neutralise(f"konstruct: error: {error}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `konstruct tools | head -1`: the reader has what it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush must not fail again
        return 141  # as a shell reports a command ended by SIGPIPE
    except Exception as error:  # a bug: one line for the person, the traceback on request
        from ..userdirs import StoreProblem

        if isinstance(error, StoreProblem):  # a file of ours busy or out of reach: its own line says what to do
            print(neutralise(f"konstruct: error: {error}"), file=sys.stderr)
            return 2
        if os.environ.get("KONSTRUCT_DEBUG"):
            raise
        print(neutralise(f"konstruct: internal error: {type(error).__name__}: {error} (KONSTRUCT_DEBUG=1 shows the traceback)"), file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
