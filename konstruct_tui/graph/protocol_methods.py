"""Methods the language or its runtime calls without anyone writing their name.

`a + b` calls `Vector.__add__`; `fmt.Println(err)` calls `Error()`; a `HashMap` calls
`equals`/`hashCode`; `for (const x of bag)` calls `[Symbol.iterator]`; a framework calls the
`@Override` of its own interface. No file names these methods, so an empty `callers` answer about
them says nothing about whether they run: it must be `undeterminable`, never `no_references`.

The rule per language is the language's own contract, not a guess about the project: each
plugin's `SUPPORT.runtime_caller` (its `protocol.py`) says it.
"""

from __future__ import annotations

from .evidence import declaration_head
from .languages import languages


def runtime_caller(language: str | None, name: str, text: str | None, start_line: int) -> str:
    """Why the runtime may call method `name` (declared at `start_line` of `text`) without any
    file writing its name, or "" when the language gives no such reason."""
    support = languages().get(language) if language else None
    if support is None or "." not in name:
        return ""
    short = name.rsplit(".", 1)[-1]
    return support.runtime_caller(short, lambda: "\n".join(declaration_head(text, start_line, short)))


__all__ = ["runtime_caller"]
