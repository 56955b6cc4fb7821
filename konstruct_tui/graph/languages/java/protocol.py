"""Java's protocol methods: a method marked `@Override` (its supertype's callers call it, library
code included) and `Object`'s methods and the common functional interfaces' (`toString`,
`equals`, `hashCode`, `compareTo`, `close`, `run`, ...), which Java's libraries call on any object."""

from __future__ import annotations

import re
from collections.abc import Callable

_OBJECT = frozenset({"toString", "equals", "hashCode", "compareTo", "clone", "finalize", "close", "run",
                     "call", "iterator", "accept", "apply", "test", "get", "compare", "uncaughtException"})


def runtime_caller(method: str, head: Callable[[], str]) -> str:
    if re.search(r"@Override\b", head()):
        return f"{method} is an @Override: callers of its supertype's method, library code included, run it"
    if method in _OBJECT:
        return f"{method} is one of the methods Java's libraries call on any object"
    return ""
