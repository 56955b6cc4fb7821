"""Pieces every command uses: the usage error, `--root`, the number arguments, and JSON output
(a result, or events as JSON lines)."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..workspace import Workspace


class UsageError(Exception):
    """Bad input: printed as one line, exit 2."""


def add_root(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default=".", metavar="DIR", help="the project root (default: the current directory)")


def command_with_actions(commands: Any, name: str, help: str) -> Any:
    """A command whose actions are subcommands (`konstruct trust list`), and their subparsers. Given
    without an action it is a usage error naming the actions, in the order they were added."""
    command = commands.add_parser(name, help=help)
    actions = command.add_subparsers(dest=f"{name}_command", metavar="ACTION", parser_class=type(command))

    def missing(args: argparse.Namespace) -> int:
        names = list(actions.choices)
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
        raise UsageError(f"{name} needs an action: {listed}")

    command.set_defaults(handler=missing)
    return actions


def add_command(commands: Any, name: str, help: str, handler: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
    """A command (`konstruct undo`) or one action of a command (`konstruct sandbox check`), with `--root`."""
    command = commands.add_parser(name, help=help)
    add_root(command)
    command.set_defaults(handler=handler)
    return command


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


def whole_number(low: int = 1) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `low` (turns, tokens, retries)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{text!r} must be greater than 0" if low == 1 else f"{text!r} must be {low} or more")
        return value

    return parse


def positive_number(text: str) -> float:
    """An argparse type: a finite number greater than 0 (seconds, dollars)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number")
    return value


class JsonLinesReporter:
    """Events as one JSON object per line on stdout, flushed at once so a reader sees each as it
    happens (`konstruct run`, `konstruct blueprint run --headless`)."""

    def __init__(self) -> None:
        import json  # here: the commands that run no agent never load these

        from ..agent import event_json
        from ..untrusted_text import inert_json

        self._dumps = json.dumps
        self._json = event_json
        self._inert = inert_json

    def report(self, event: Any) -> None:
        try:
            # Exact values; C1, bidi and zero-width characters as JSON escapes (json.dumps leaves them raw).
            sys.stdout.write(self._inert(self._dumps(self._json(event), ensure_ascii=False)) + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            pass  # the reader went away; the run goes on, and its session or run store is still written
