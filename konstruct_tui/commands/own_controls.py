"""konstruct run by the agent: only to look.

konstruct's controls act as the person: `trust grant|revoke|reset`, `policy set|clear`, `sandbox
set|clear` change what the agent may do; `tool` is the person's own action and needs no grant; `run`
and `mcp` start agents of their own (`run --yes` grants what its run asks); `undo` and the workbench
act as the person too. The agent may run konstruct only to look (`policy check`/`show`, `trust
list`, `sandbox check`, `tools`, `graph export`, `blueprint status`/`report`). konstruct's argv is
read with its own option table, so an option's value never hides the command
(`konstruct --model policy policy set` is `policy set`).
"""

from __future__ import annotations

import re

from .options import Table, parse

# konstruct's own top-level options, with their arities (cli/workbench.py): what a value is, so a
# value can never be mistaken for the command (`konstruct --model policy policy set`).
_KONSTRUCT_OPTIONS = Table(long=("root=", "provider=", "model=", "base-url=", "script=", "theme=", "blueprint=",
                                 "max-turns=", "version", "help"), short="h")
# What the agent may run of konstruct itself: looking only. Everything else acts as the person (trust,
# policy and sandbox settings, `tool` with no grant, nested runs with --yes, undo).
_KONSTRUCT_LOOKING = frozenset({("policy", "check"), ("policy", "show"), ("trust", "list"), ("sandbox", "check"),
                                ("tools",), ("graph", "export"), ("blueprint", "status"), ("blueprint", "report")})


def changes_own_trust(name: str, args: list[str]) -> bool:
    """konstruct run by the agent for anything but looking: `konstruct trust grant`, `policy set`,
    `sandbox set --mode full`, `tool ...` (your own action, no grant) ... also as `python -m konstruct_tui`.
    Read with konstruct's own option table; an option it does not know counts as a change."""
    if name != "konstruct":
        if not (re.match(r"^python(\d+(\.\d+)*)?$", name) and args[:1] == ["-m"] and args[1:2]
                and args[1].split(".", 1)[0] == "konstruct_tui"):
            return False
        args = args[2:]
    parsed = parse(args, 0, _KONSTRUCT_OPTIONS, operands=None)
    if parsed.unknown is not None and not parsed.operands:
        return True
    words = parsed.operands
    if not words:
        return not parsed.has("--version", "--help", "-h")  # bare `konstruct`: the workbench, as the person
    return tuple(words[:1]) not in _KONSTRUCT_LOOKING and tuple(words[:2]) not in _KONSTRUCT_LOOKING
