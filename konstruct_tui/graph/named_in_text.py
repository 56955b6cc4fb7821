"""Code loaded by a name written as text, and symbols a decorator may register.

Imports are one way into a file; a name written as text is another. `pytest_plugins =
["pkg.fixtures"]`, Django's `INSTALLED_APPS`, `uvicorn app.main:app` in a Procfile, `entry:
"./src/worker.ts"` in a bundler config, `<bean class="a.impl.Codec"/>` in Spring XML: each loads
a file nobody imports. Rather than recognise each framework's spelling, `unreferenced` asks one
question of the whole project's text: does anything outside the file spell its module name, its
path or its qualified class name (each language says how it is spelled:
`SUPPORT.unimported.file_spellings`)? If so, the file is not provably dead.

Likewise a top-level function or class under a decorator that is not known to be inert may be
registered with something that calls it by name (`@app.get("/")`, `@pytest.fixture`,
`@Component`): such a symbol is not provably dead either.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .evidence import DECORATOR_LINE, declaration_head

Reader = Callable[[str], "str | None"]

_REACH = 300  # characters looked at either side of a name
_SCAN_LIMIT = 1_000_000  # characters read of one file; generated blobs say nothing useful
# Decorators and annotations that wrap or describe a definition without handing it to anything
# that calls it by name. Every other decorator may register what it decorates.
_INERT = frozenset({
    "dataclass", "dataclass_transform", "property", "cached_property", "staticmethod", "classmethod",
    "wraps", "lru_cache", "cache", "total_ordering", "singledispatch", "singledispatchmethod",
    "contextmanager", "asynccontextmanager", "overload", "final", "override", "abstractmethod",
    "runtime_checkable", "deprecated", "unique", "no_type_check", "type_check_only",
    "Deprecated", "SuppressWarnings", "FunctionalInterface", "SafeVarargs", "Override",
    "Nullable", "NonNull", "Nonnull", "CheckReturnValue", "Immutable", "ThreadSafe",
})


def anchor(path: str, symbol: str | None = None) -> str:
    """The one word every spelling of a file (or symbol) contains: its name, its module's last part,
    or its package's folder for an `__init__.py`."""
    if symbol:
        return symbol
    stem = posixpath.splitext(path)[0]
    if posixpath.basename(stem) == "__init__":
        stem = posixpath.dirname(stem)
    return posixpath.basename(stem)


def find_named(wanted: dict[Any, tuple[str, list[str]]], corpus: Iterable[str], read: Reader,
               owner: Callable[[Any], str]) -> dict[Any, str]:
    """{key: `path:line`} for each key of `wanted` ({key: (anchor word, spellings)}) whose spellings
    some corpus file other than the key's own (`owner(key)`) writes. A spelling's expression runs
    only over files that hold its anchor word."""
    by_anchor: dict[str, list[Any]] = {}
    patterns = {}
    for key, (word, spellings) in wanted.items():
        if spellings:
            by_anchor.setdefault(word, []).append(key)
            patterns[key] = re.compile("|".join(f"(?:{p})" for p in spellings))
    found: dict[Any, str] = {}
    for path in corpus:
        if len(found) == len(patterns):
            break
        text = read(path)
        if not text:
            continue
        text = text[:_SCAN_LIMIT]
        for word in [w for w in by_anchor if w in text]:  # substring search is C-fast; the regex is not
            keys = [k for k in by_anchor[word] if k not in found and owner(k) != path]
            for start, line in _lines_with(text, word) if keys else ():
                for key in keys:
                    match = key not in found and patterns[key].search(line)
                    if match and not _in_link(line, match.start()):
                        found[key] = f"{path}:{text.count(chr(10), 0, start) + 1}"
    return found


def _lines_with(text: str, word: str) -> Iterator[tuple[int, str]]:
    """(offset, text) of the stretch of line around each place `text` holds `word` (at most
    `_REACH` characters either side: a spelling is short, a generated line may be megabytes)."""
    at = text.find(word)
    while at >= 0:
        start = max(text.rfind("\n", max(at - _REACH, 0), at) + 1, at - _REACH)
        end = text.find("\n", at, at + _REACH)
        end = min(len(text), at + _REACH) if end < 0 else end
        yield start, text[start:end]
        at = text.find(word, at + len(word))


def _in_link(line: str, at: int) -> bool:
    """Whether the name at `at` is part of a URL: a link to someone else's copy of the file."""
    return "://" in re.split(r"[\s'\"`(<>=]", line[:at])[-1]


def registering_decorator(text: str | None, start_line: int, name: str) -> str:
    """The first decorator above `name`'s definition at `start_line` that is not known to be inert
    (`app.get`), or "" when there is none."""
    for line in declaration_head(text, start_line, name):
        match = DECORATOR_LINE.match(line)
        if match and match.group(1).rsplit(".", 1)[-1] not in _INERT:
            return match.group(1)
    return ""


__all__ = ["anchor", "find_named", "registering_decorator"]
