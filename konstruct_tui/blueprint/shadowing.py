"""What a pinned Python module's name resolves to is not the phase's to change.

Pinning keeps a check helper's bytes as they stood when the phase began, but Python imports a name,
not a file: a file the phase *adds* can make `import check_helpers` load something else while the
pinned `check_helpers.py` stays untouched. The rule is Python's own, read from its import system
rather than from a list of spellings:

- in one folder the path finder takes a package directory first (`name/__init__` + any import
  suffix, itself tried extension-first), then `name` + each suffix of
  `importlib.machinery.all_suffixes()`, extensions before source before bytecode; a directory with
  no `__init__` (a namespace portion) loses to all of these;
- across folders the first `sys.path` entry that has the name wins, so an added file in an entry
  searched earlier shadows the pinned one; a module standing in for a package prefix (`lib.py`
  beside a namespace `lib/`) can set `__path__` and serve every submodule;
- `sitecustomize` / `usercustomize` are imported by the interpreter at startup from any `sys.path`
  entry known then (the command's PYTHONPATH), before the check's first line.

So for every pinned module, every name it can be imported as (its dotted path below each folder the
verification's interpreter may search) is protected; an added file or link that Python would find
under a protected name, or under a prefix of one, in one of those folders is *absent* from the
scratch copy where verification runs, exactly as added test configuration is. Extension suffixes
are matched by their final extension with any tag (`.cpython-312-...so`, `.pypy39-...so`): the
verify command's interpreter need not be ours.

The folders searched (a superset, never fewer): the workspace root (the working directory of
`python -m ...` and of `python -m pytest`), the folder of each script a command runs, the folder of
every pinned check or test script and the
first folder above it without an `__init__.py` (pytest's rootdir-relative `sys.path` entry, with the
phase's added `__init__.py` files and without them), the same for test files the phase added, the
entries of a `PYTHONPATH=` the commands set and pytest's `pythonpath` setting.
"""

from __future__ import annotations

import configparser
import importlib.machinery
import os
import posixpath
import tomllib
from collections.abc import Callable, Iterable, Mapping

from ..commands import ShellSyntaxError, segments, tokenize
from ..workspace import normalise
from .pinning import is_test_like

_SUFFIXES = tuple(sorted(importlib.machinery.all_suffixes(), key=len, reverse=True))
_TAGGED = frozenset(posixpath.splitext(s)[1] for s in importlib.machinery.EXTENSION_SUFFIXES)  # .so (.pyd on Windows)
_STARTUP_HOOKS = (("sitecustomize",), ("usercustomize",))
_CHECK_PREFIXES = ("check", "verify", "test")
_PYTEST_FILES = ("pyproject.toml", "pytest.ini", "tox.ini", "setup.cfg")


def module_parts(path: str) -> tuple[str, ...] | None:
    """`a/b/c.py` -> ('a', 'b', 'c'); `a/b/__init__.py` -> ('a', 'b'); None when Python could not
    import the file by a name (no import suffix, or a part that is no identifier)."""
    suffix = next((s for s in _SUFFIXES if path.endswith(s)), None)
    if suffix is None:
        return None
    parts = tuple(path[: -len(suffix)].split("/"))
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return parts if parts and all(p.isidentifier() for p in parts) else None


def import_name(entry: str) -> str | None:
    """The name Python finds a folder entry under: `m.py`, `m.abi3.so`, a directory or link `m`;
    None when it is none of these."""
    for suffix in _SUFFIXES:
        if entry.endswith(suffix) and entry[: -len(suffix)].isidentifier():
            return entry[: -len(suffix)]
    stem, ext = posixpath.splitext(entry)
    if ext in _TAGGED and "." in stem and stem.split(".", 1)[0].isidentifier():  # another interpreter's tag
        return stem.split(".", 1)[0]
    return entry if entry.isidentifier() else None


def search_folders(pinned: Iterable[str], start: Iterable[str], now: Iterable[str], commands: Iterable[str],
                   read: Callable[[str], bytes | None]) -> set[str]:
    """Workspace folders ('' is the root) the verification's interpreter may search for a module."""
    before, after = set(start), set(now)
    listed = after | before
    folders = {""}
    scripts = [p for p in pinned if p.endswith(".py") and _is_check(p)]
    scripts += [p for p in after - before if p.endswith(".py") and _is_check(p)]  # new tests run too
    for path in scripts:
        folders.add(posixpath.dirname(path))
        for listing in (before, after):
            folders.add(_basedir(path, listing))
    for line in commands:
        words = _words(line)
        folders.update(_pythonpath(words))
        # The script a command runs puts its own folder first on sys.path (`python ci/run.py`).
        scripts_run = [p for w in words if (p := normalise(w.removeprefix("./"))) and p.endswith(".py") and p in listed]
        folders.update(posixpath.dirname(p) for p in scripts_run)
    for path in listed:
        if path.endswith(_PYTEST_FILES) and posixpath.basename(path) in _PYTEST_FILES:
            folders.update(_ini_pythonpath(path, read(path)))
    return folders


def protected_names(pinned: Iterable[str], folders: Iterable[str]) -> set[tuple[str, ...]]:
    """Every dotted name a pinned module can be imported as from one of `folders`."""
    names: set[tuple[str, ...]] = set(_STARTUP_HOOKS)
    searched = set(folders)
    for path in pinned:
        folder = posixpath.dirname(path)
        while True:  # each folder above the module (a few), not each folder searched (maybe many)
            if folder in searched:
                parts = module_parts(path[len(folder) + 1:] if folder else path)
                if parts:
                    names.add(parts)
            if not folder:
                break
            folder = posixpath.dirname(folder)
    return names


def shadows(root: str | os.PathLike[str], pinned: Iterable[str], start: Mapping[str, object], now: Iterable[str],
            commands: Iterable[str], read: Callable[[str], bytes | None], keep: Iterable[str] = ()) -> list[str]:
    """Workspace paths the phase added that Python would import under a pinned module's name (or a
    prefix of it): they must be absent where the verification runs. `start` is the phase-start
    listing; `keep` are paths that are the phase's to write (task targets)."""
    pinned = [p for p in pinned if module_parts(p)]
    if not pinned:
        return []
    base = os.fspath(root)
    folders = search_folders(pinned, start, now, commands, read)
    names = protected_names(pinned, folders)
    prefixes: dict[tuple[str, ...], bool] = {}
    for name in names:
        for depth in range(1, len(name) + 1):
            prefixes[name[:depth]] = prefixes.get(name[:depth], False) or depth == len(name)
    found: set[str] = set()
    kept = set(keep) | set(pinned)
    for folder in sorted(folders):
        _probe(base, folder, (), prefixes, start, kept, found)
    return sorted(found)


def _probe(base: str, folder: str, parent: tuple[str, ...], prefixes: Mapping[tuple[str, ...], bool],
           start: Mapping[str, object], kept: set[str], found: set[str]) -> None:
    """Look in `folder` (its import name `parent` below the search folder) for entries whose name
    extends a protected prefix; descend into directories that do."""
    place = posixpath.join(base, folder) if folder else base
    try:
        entries = sorted(os.scandir(place), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        name = import_name(entry.name)
        if name is None or parent + (name,) not in prefixes:
            continue
        path = posixpath.join(folder, entry.name) if folder else entry.name
        if entry.is_symlink():
            # Never part of the phase-start listing (it holds regular files), and it can point anywhere.
            if path not in kept:
                found.add(path)
            continue
        if entry.is_dir():
            for inner in _package_inits(place, entry.name):
                init = f"{path}/{inner}"
                if init not in start and init not in kept:
                    found.add(init)
            _probe(base, path, parent + (name,), prefixes, start, kept, found)
        elif path not in start and path not in kept:
            found.add(path)


def _package_inits(place: str, name: str) -> list[str]:
    """What makes `place/name` a package: `__init__` with any import suffix, or a link so named."""
    try:
        return [e.name for e in os.scandir(posixpath.join(place, name)) if import_name(e.name) == "__init__"]
    except OSError:
        return []


def _is_check(path: str) -> bool:
    name = posixpath.basename(path)
    return is_test_like(path) or name.startswith(_CHECK_PREFIXES) or name == "conftest.py"


def _basedir(path: str, listing: set[str]) -> str:
    """pytest's `sys.path` entry for a test file (prepend import mode): the first folder above it
    that is no package."""
    folder = posixpath.dirname(path)
    while folder and posixpath.join(folder, "__init__.py") in listing:
        folder = posixpath.dirname(folder)
    return folder


def _words(line: str) -> list[str]:
    try:
        return [w for run in segments(tokenize(line)) for w in run]
    except ShellSyntaxError:
        return line.split()


def _pythonpath(words: list[str]) -> list[str]:
    found = []
    for word in words:
        if word.startswith("PYTHONPATH="):
            found += [f for entry in word.split("=", 1)[1].split(":") if (f := _folder(entry)) is not None]
    return found


def _ini_pythonpath(path: str, data: bytes | None) -> list[str]:
    """pytest's `pythonpath` setting, folders relative to the file that sets it."""
    if not data:
        return []
    text = data.decode("utf-8", "replace")
    value: object = None
    try:
        if path.endswith(".toml"):
            value = tomllib.loads(text).get("tool", {}).get("pytest", {}).get("ini_options", {}).get("pythonpath")
        else:
            parser = configparser.ConfigParser(interpolation=None)
            parser.read_string(text)
            value = next((parser[s].get("pythonpath") for s in ("pytest", "tool:pytest") if parser.has_section(s)), None)
    except (ValueError, configparser.Error, AttributeError):
        return []
    entries = value.split() if isinstance(value, str) else [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
    here = posixpath.dirname(path)
    return [f for e in entries if (f := _folder(posixpath.join(here, e) if here else e)) is not None]


def _folder(entry: str) -> str | None:
    """A PYTHONPATH entry as a workspace folder ('' for the root); None outside the workspace."""
    if entry in ("", "."):
        return ""
    return normalise(entry.removeprefix("./"))
