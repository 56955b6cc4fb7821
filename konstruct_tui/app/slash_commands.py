"""Slash commands: typed in the request input, answered by the workbench itself, never sent to a model.

A line is a command when its first word is `/name` with no other `/` in it: `/usr/bin/python fails`
is a request about a path, and `//help` sends `/help` to the model as text. An unknown `/word`
is answered locally too ("unknown command", with the nearest name), so a typo never costs a turn.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class SlashCommand:
    name: str
    summary: str
    argument: str = ""  # shown in /help, e.g. "[PATH]"


# One line each, short enough for /help to fit an 80-column terminal.
COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("help", "list these commands"),
    SlashCommand("diff", "this session's changes as one unified diff", "<path>"),
    SlashCommand("undo", "undo the last applied batch (as `konstruct undo`)"),
    SlashCommand("model", "pick provider, model, base URL; finds local servers"),
    SlashCommand("new", "start a new session"),
    SlashCommand("sessions", "list this project's sessions, continue one"),
    SlashCommand("compact", "summarize older turns, keep files and revisions"),
    SlashCommand("cost", "tokens and cost of the last run and the session"),
    SlashCommand("runs", "blueprint runs: attach, stop, resume, report", "<run>"),
    SlashCommand("approvals", "answer the requests parked team runs wait on", "<run>"),
    SlashCommand("quit", "leave the workbench"),
)
BY_NAME = {command.name: command for command in COMMANDS}
# Names people type out of habit from other tools; each maps onto one of ours.
ALIASES = {"exit": "quit", "q": "quit", "clear": "new", "reset": "new", "?": "help", "h": "help", "resume": "sessions", "models": "model", "blueprint": "runs", "blueprints": "runs"}


@dataclass(frozen=True)
class SlashInput:
    """What the person typed: a known command (with its argument), or an unknown word and the
    nearest known name (None when nothing is close)."""

    word: str
    argument: str
    command: SlashCommand | None
    nearest: str | None = None

    def unknown_message(self) -> str:
        hint = f" — did you mean /{self.nearest}?" if self.nearest else ""
        return f"unknown command /{self.word}{hint} (/help lists the commands)"


def parse_slash(text: str) -> SlashInput | None:
    """The command in `text`, or None when `text` is a request for the model."""
    line = text.strip()
    if not line.startswith("/") or line.startswith("//"):
        return None
    word, _, argument = line[1:].partition(" ")
    if "/" in word:  # a path such as /etc/hosts: a request about a file, not a command
        return None
    name = word.lower()
    name = ALIASES.get(name, name)
    command = BY_NAME.get(name)
    if command is not None:
        return SlashInput(word, argument.strip(), command)
    return SlashInput(word, argument.strip(), None, nearest_command(name))


def literal_request(text: str) -> str:
    """`//text` is sent as `/text`: the way to start a request with a slash."""
    line = text.strip()
    return line[1:] if line.startswith("//") else text


def nearest_command(word: str) -> str | None:
    names = [c.name for c in COMMANDS]
    if not word:
        return "help"
    starting = [n for n in names if n.startswith(word)]
    if starting:
        return starting[0]
    close = difflib.get_close_matches(word, [*names, *ALIASES], n=1, cutoff=0.5)
    return ALIASES.get(close[0], close[0]) if close else None


def complete_command(prefix: str) -> list[SlashCommand]:
    """Commands for the completion list while `/prefix` is typed: names starting with it first,
    then names that merely contain it, then close spellings."""
    prefix = prefix.lower()
    starting = [c for c in COMMANDS if c.name.startswith(prefix)]
    containing = [c for c in COMMANDS if prefix in c.name and c not in starting]
    close = [BY_NAME[n] for n in difflib.get_close_matches(prefix, list(BY_NAME), n=3, cutoff=0.6)] if prefix else []
    return list(dict.fromkeys([*starting, *containing, *close]))


def help_lines() -> list[str]:
    width = max(len(c.name) + len(c.argument) for c in COMMANDS) + 3
    lines = [f"/{c.name}{' ' + c.argument if c.argument else ''}".ljust(width) + c.summary for c in COMMANDS]
    lines.append("@path".ljust(width) + "attach a file with its revision (tab completes)")
    lines.append("//text".ljust(width) + "send a request that starts with /")
    return lines
