"""Python's protocol methods: every dunder (`__x__`) is one the interpreter calls through syntax
(`a + b` calls `__add__`), never by name."""

from __future__ import annotations

import re
from collections.abc import Callable

_DUNDER = re.compile(r"^__\w+__$")


def runtime_caller(method: str, head: Callable[[], str]) -> str:
    if _DUNDER.match(method):
        return f"Python calls {method} through its syntax or protocols, never by name"
    return ""
