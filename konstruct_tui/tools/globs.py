"""Path globs as people write them: `**` spans folders, `*` and `?` stay inside one name, `[...]`
is a class, `{a,b}` an alternative, and a pattern with no `/` matches a name at any depth
(`*.py`), the way .gitignore and ripgrep read it."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache


@lru_cache(maxsize=256)
def compile_glob(pattern: str) -> re.Pattern[str]:
    pattern = pattern.strip().replace("\\", "/")
    while pattern.startswith("./"):
        pattern = pattern[2:]
    anchored = "/" in pattern.rstrip("/")
    pattern = pattern.lstrip("/")
    if pattern.endswith("/"):
        pattern += "**"  # a folder: everything under it
    body = _translate(pattern)
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(f"^{prefix}{body}$", re.DOTALL)


def matches(pattern: str, path: str) -> bool:
    return selects(compile_glob(pattern), path)


def path_filter(glob: str | None) -> Callable[[str], bool]:
    """A predicate for a user's glob; `!glob` keeps the paths it does not select; None keeps all."""
    if not glob or not glob.strip():
        return lambda path: True
    glob = glob.strip()
    if glob.startswith("!"):
        pattern = compile_glob(glob[1:])
        return lambda path: not selects(pattern, path)
    pattern = compile_glob(glob)
    return lambda path: selects(pattern, path)


def selects(pattern: re.Pattern[str], path: str) -> bool:
    """The path or one of its folders matches (`src` selects everything under a folder named src)."""
    if pattern.match(path):
        return True
    parts = path.split("/")
    return any(pattern.match("/".join(parts[:i])) for i in range(1, len(parts)))


def _translate(pattern: str) -> str:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            close = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "^") else i + 1)
            if close == -1:
                out.append(re.escape(c))
                i += 1
                continue
            inner = pattern[i + 1 : close]
            if inner[:1] in ("!", "^"):
                inner = "^" + inner[1:]
            out.append("[" + inner.replace("\\", "\\\\") + "]")
            i = close + 1
        elif c == "{":
            close = pattern.find("}", i)
            if close == -1:
                out.append(re.escape(c))
                i += 1
                continue
            options = pattern[i + 1 : close].split(",")
            out.append("(?:" + "|".join(_translate(o) for o in options) + ")")
            i = close + 1
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)
