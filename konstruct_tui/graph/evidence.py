"""What keeps an empty answer honest: call-site lines, code loaded by a computed name, and entry points.

A graph built from imports and typed member uses cannot see a module loaded with
`importlib.import_module(f"...{name}")`, a class found with `Class.forName`, or a script run as
`python -m pkg.tool`: nothing imports them, yet they run. `unreferenced` must not call them dead,
so it asks here whether a loader sits near a file (its own folder or the folder above) and whether
the file is an entry point (a `__main__` guard, `[project.scripts]`, package.json `bin`, a Java
`main`, Go `package main`, a test file).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from .languages import language_for, languages
from .unimported import OnlyImported

Reader = Callable[[str], "str | None"]

_ONLY_IMPORTED = OnlyImported()  # a file of no language: only the conventions of every language
DECORATOR_LINE = re.compile(r"^\s*@\s*([\w.]+)")
def member_lines(text: str | None, name: str) -> list[int] | None:
    """1-based lines where `name` is used as a member (`x.name`), or None when the text is unknown."""
    if text is None:
        return None
    word = re.compile(rf"\.\s*{re.escape(name)}(?![\w$])")
    return [i for i, line in enumerate(text.splitlines(), 1) if word.search(line)]


def name_lines(text: str | None, name: str) -> list[int] | None:
    if text is None:
        return None
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    return [i for i, line in enumerate(text.splitlines(), 1) if word.search(line)]


def declaration_head(text: str | None, start_line: int, name: str) -> list[str]:
    """The lines of `name`'s declaration at `start_line` up to the one that names it, with the
    decorator or annotation lines right above it (a grammar may start a declaration below them):
    where its decorators, annotations and modifiers are written."""
    if not text:
        return []
    lines = text.splitlines()
    first = max(start_line - 1, 0)
    while first > 0 and DECORATOR_LINE.match(lines[first - 1]):
        first -= 1
    named = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    head: list[str] = []
    for line in lines[first:start_line + 40]:
        head.append(line)
        decorator = DECORATOR_LINE.match(line)
        if named.search(line[decorator.end():] if decorator else line):
            break
    return head


def loading_sites(language: str, path: str, text: str | None) -> list[tuple[str, str | None]]:
    """(`path:line (what)`, the literal module name or None when computed) for every place `text`
    loads code at run time by a name the graph does not resolve (`importlib.import_module(...)`,
    `Class.forName`, `import()` of an expression: `SUPPORT.unimported.loading_sites`)."""
    support = languages().get(language)
    return support.unimported.loading_sites(path, text) if support is not None and text is not None else []


def loaded_folders(language: str, path: str, text: str | None) -> list[tuple[str, str]]:
    """(`path:line (what)`, folder) for every loader in `text` whose computed name starts with a
    written folder (`import_module(f"pkg.handlers.{name}")`, `import(`../plugins/${name}.js`)`):
    the folder, workspace-relative, whose files it may load."""
    support = languages().get(language)
    return support.unimported.loaded_folders(path, text) if support is not None and text is not None else []


def reads_loaders(language: str, text: str) -> bool:
    """Whether a file of `language` with this text may hold a loader with a written folder."""
    support = languages().get(language)
    return support is not None and any(word in text for word in support.unimported.loader_words)


def scans_loaders(language: str) -> bool:
    """Whether files of `language` are read for loaders with a written folder at all."""
    support = languages().get(language)
    return support is not None and bool(support.unimported.loader_words)


def in_folder(path: str, folder: str) -> bool:
    """Whether `path` is under `folder`, or under a folder ending with it (a dotted package)."""
    return path.startswith(folder + "/") or f"/{folder}/" in f"/{path}"


def loads(literal: str | None, path: str) -> bool:
    """Whether a loader with this literal argument (None: a computed name) may load `path`."""
    if literal is None:
        return True
    stem = posixpath.splitext(posixpath.basename(path))[0]
    last = re.split(r"[./]", literal.rstrip("/"))[-1] if literal else ""
    return bool(last) and (last == stem or (stem in ("__init__", "index") and
                                            last == posixpath.basename(posixpath.dirname(path))))


def near(path: str) -> tuple[str, str]:
    """The folders whose loaders may load `path`: its own and the one above."""
    folder = posixpath.dirname(path)
    return folder, posixpath.dirname(folder) if folder else ""


def is_entry_file(path: str, language: str, text: str | None) -> str:
    """Why `path` is run without being imported ("" when it is not an entry point): a tool's
    convention for its name (`SUPPORT.unimported.conventions` of its extension's language), else
    what its text says (a `__main__` guard, `package main`)."""
    named = language_for(path)
    for pattern, why in (named.unimported if named is not None else _ONLY_IMPORTED).conventions:
        if pattern.search(path):
            return why
    support = languages().get(language)
    return support.unimported.entry_reason(path, text) if support is not None and text is not None else ""


def entry_configs(paths: list[str]) -> list[str]:
    """The paths that are packaging metadata some language reads entry points from."""
    supports = languages().values()
    return [p for p in paths if any(s.unimported.names_entry_points(p) for s in supports)]


def declared_entry_points(config_paths: list[str], read: Reader, files_of: Callable[[str], set[str]],
                          all_files: set[str]) -> tuple[dict[str, str], set[tuple[str, str]]]:
    """({file: why} from packaging metadata, {(file, symbol)} named as script targets): Python's
    `[project.scripts]`, package.json's `bin`, Java's `META-INF/services/`... as each language reads
    them (`SUPPORT.unimported.entry_points`). `files_of(language)`: the project's files of it."""
    files: dict[str, str] = {}
    symbols: set[tuple[str, str]] = set()
    for config in config_paths:
        text = read(config)
        if not text:
            continue
        for support in languages().values():
            if support.unimported.names_entry_points(config):
                found, named = support.unimported.entry_points(config, text, files_of(support.name), all_files)
                files.update(found)
                symbols |= named
                break
    return files, symbols


def framework_routes(all_files: set[str]) -> dict[str, str]:
    """{file: why} for files a framework loads by their path, beside its configuration (Next.js
    `app/**/page.tsx`: `SUPPORT.unimported.routed`)."""
    found: dict[str, str] = {}
    for support in languages().values():
        found.update({path: why for path, why in support.unimported.routed(all_files).items() if path not in found})
    return found
