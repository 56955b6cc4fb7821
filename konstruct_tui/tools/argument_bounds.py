"""Bounds on a tool's arguments, checked before validation: how deep they nest and how many values
they hold. A 100,000-level nested argument used to die in a RecursionError; five million paths had
no bound at all and were read one by one. Both are a one-line `ToolError` now.

The walk is iterative (no recursion to exhaust) and stops at the first bound passed, so refusing a
huge argument costs no more than the bound.
"""

from __future__ import annotations

MAX_DEPTH = 64  # the deepest tool input nests 5 levels; 64 leaves room and stops abuse
MAX_VALUES = 100_000  # every value counts (a path, an entry, a key's value); far above real batches


class ArgumentsTooBig(ValueError):
    """The arguments pass a bound; the message names it."""


def check_bounds(arguments: object, *, max_depth: int = MAX_DEPTH, max_values: int = MAX_VALUES) -> None:
    count = 0
    pending: list[tuple[object, int]] = [(arguments, 1)]
    while pending:
        value, depth = pending.pop()
        count += 1
        if count > max_values:
            raise ArgumentsTooBig(f"the arguments hold more than {max_values} values; split the call into smaller ones")
        if not isinstance(value, dict | list | tuple) or not value:
            continue
        if depth >= max_depth:
            raise ArgumentsTooBig(f"the arguments are nested deeper than {max_depth} levels")
        if count + len(value) > max_values:  # before copying anything out of a huge list
            raise ArgumentsTooBig(f"the arguments hold more than {max_values} values; split the call into smaller ones")
        children = value.values() if isinstance(value, dict) else value
        pending.extend((child, depth + 1) for child in children)
