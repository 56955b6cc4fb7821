"""Members looked up by a name made at run time: the evidence an empty `callers` answer must rule out.

`getattr(self, "visit_" + type(node).__name__)` calls `visit_Name` without ever writing it;
`getattr(obj, HANDLERS[event])` with `HANDLERS = {"click": "handle_click"}` calls `handle_click`
through a string. Neither is an import or a typed member use, so without this a `callers` answer
would say `no_references` for methods that run on every call. Before the graph says "nothing", it
reads the files that can reach the definition (and the defining files themselves) for:

- a lookup whose computed name starts with a written prefix the symbol's name starts with
  (`getattr(x, f"visit_{kind}")`, `"on_%s" % e`, `"do_" + cmd`, JS `this[`on${name}`]`,
  `obj["handle" + x]`);
- the symbol's name written as a whole string literal in a file that can reach it (dispatch
  tables, `getattr(x, "name")`, `operator.methodcaller("name")`, Java `getMethod("name")`, Go
  `MethodByName("Name")`).

Either makes the answer `undeterminable`, never a confident "nothing".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

Reader = Callable[[str], "str | None"]

_PREFIXED_LOOKUP = re.compile(
    r"""(?:\bgetattr\(\s*[^,()]+,\s*[fF]?|\[\s*)[`'"](?P<prefix>[A-Za-z_$][\w$]*?)"""
    r"""(?:\{|\$\{|%[sr]|[`'"]\s*(?:\+|%|\.format\())""")

_ALL = re.compile(r"__all__\s*\+?=\s*[\[(][^\])]*[\])]")


def lookup_sites(short: str, paths: Iterable[str], defining: set[str], read: Reader,
                 limit: int = 20) -> list[tuple[str, int, str]]:
    """(path, line, what) for places in `paths` that may look `short` up by a name made at run
    time: a prefixed computed lookup anywhere, or `short` as a whole string literal outside the
    defining files (inside them it is usually the definition's own bookkeeping, `__all__`)."""
    literal = re.compile(rf"""(['"`]){re.escape(short)}\1""")
    found: list[tuple[str, int, str]] = []
    for path in paths:
        text = read(path)
        if not text:
            continue
        for match in _PREFIXED_LOOKUP.finditer(text) if "getattr" in text or "[" in text else ():
            prefix = match.group("prefix")
            if short.startswith(prefix) and short != prefix:
                found.append((path, text.count("\n", 0, match.start()) + 1,
                              f"a member looked up by a computed name starting {prefix!r}"))
                break
        if path not in defining and short in text:
            exported = [m.span() for m in _ALL.finditer(text)]  # `__all__` lists exports, it looks nothing up
            named = [m.start() for m in literal.finditer(text) if not any(a <= m.start() < b for a, b in exported)]
            if named:
                found.append((path, text.count("\n", 0, named[0]) + 1, f"{short!r} written as a string"))
        if len(found) >= limit:
            break
    return found


__all__ = ["lookup_sites"]
