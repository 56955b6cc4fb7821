"""What resolution sees of the project, and which files a change can affect.

`ProjectFacts` is the `ProjectView` handed to every language resolver: all indexed paths, facts kept
in memory or loaded from the store on demand, and small config files read through the workspace.

`UsageIndex` answers "which files might resolve differently now that these files changed": every
file whose imports or uses mention a name the changed files define (their symbols, their module
stem, their folder, their package). It is deliberately a superset — a false hit costs one
re-resolution, a miss would leave a wrong edge in the graph.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from fnmatch import fnmatchcase
from functools import cache
from pathlib import PurePosixPath

from ..workspace import Workspace
from .facts import FileFacts
from .languages import languages

_SPLIT = re.compile(r"[^A-Za-z0-9_$]+")
_MAX_CONFIG_BYTES = 1 << 20


def is_config(path: str) -> bool:
    """Whether `path` is a config file some language's resolver reads (its `config_files`): its
    change can move any resolution of that language, so everything is re-resolved."""
    return PurePosixPath(path).name in _config_names() or any(
        fnmatchcase(PurePosixPath(path).name, glob) for glob in _config_globs())


@cache
def _config_names() -> frozenset[str]:
    return frozenset(g for s in languages().values() for g in s.config_files if not _GLOB.search(g))


@cache
def _config_globs() -> tuple[str, ...]:
    return tuple(sorted(g for s in languages().values() for g in s.config_files if _GLOB.search(g)))


_GLOB = re.compile(r"[*?\[]")


class ProjectFacts:
    def __init__(
        self,
        workspace: Workspace,
        paths: Iterable[str],
        facts: dict[str, FileFacts | None],
        load: Callable[[str], FileFacts | None],
    ) -> None:
        self._workspace = workspace
        self._paths = sorted(paths)
        self._known = set(self._paths)
        self._facts = facts
        self._load = load
        self._texts: dict[str, str | None] = {}
        self.loads_from_store = getattr(load, "__name__", "") != "no_facts"

    def paths(self) -> list[str]:
        return self._paths

    def facts_of(self, path: str) -> FileFacts | None:
        if path not in self._known:
            return None
        if path not in self._facts:
            self._facts[path] = self._load(path)
        return self._facts[path]

    def read_text(self, path: str) -> str | None:
        if path not in self._texts:
            try:
                data = self._workspace.read(path).data
            except Exception:  # missing, refused or unreadable: the resolver works without it
                data = None
            self._texts[path] = data.decode("utf-8", "replace") if data and len(data) <= _MAX_CONFIG_BYTES else None
        return self._texts[path]


def used_tokens(facts: FileFacts) -> set[str]:
    """Every name a file's imports and uses mention, split into identifier-shaped tokens."""
    tokens: set[str] = set()
    for ref in facts.imports:
        tokens.update(_SPLIT.split(ref.target))
        tokens.update(ref.names)
        if ref.alias:
            tokens.add(ref.alias)
    for use in facts.uses:
        tokens.update(_SPLIT.split(use))
    tokens.discard("")
    return tokens


def defined_keys(path: str, facts: FileFacts | None) -> set[str]:
    """The names by which other files can reach `path`: its symbols, module stem, folder, package.
    Dunder names are left out: every Python file mentions `__init__` or `__name__`, and no resolver
    turns them into an edge to one particular file."""
    pure = PurePosixPath(path)
    keys = {pure.stem, pure.parent.name}
    if facts is not None:
        keys.update(s.name.rsplit(".", 1)[-1] for s in facts.symbols)
        if facts.package:
            keys.update(_SPLIT.split(facts.package))
    return {k for k in keys if k and not k.startswith("__")}


# (symbols as (name, kind), imports as (target, names, kind, level, alias), package, member facts)
Shape = tuple[tuple[tuple[str, str], ...], tuple[tuple[str, tuple[str, ...], str, int, str | None], ...], str | None, object]


def shape(facts: FileFacts) -> Shape:
    """Everything of a file's facts another file's resolution may depend on: all but its uses and
    line numbers. An edit that keeps the shape (a change inside a function body, the usual case)
    cannot change any other file's edges."""
    return (
        tuple((s.name, s.kind) for s in facts.symbols),
        tuple((i.target, i.names, i.kind, i.level, i.alias) for i in facts.imports),
        facts.package,
        json.dumps(facts.extra, sort_keys=True, default=str) if isinstance(facts.extra, dict) else facts.extra,
    )


def affected_by(
    changed: dict[str, tuple[FileFacts | None, FileFacts | None]],
    inbound: Callable[[str], Iterable[str]],
    usage: UsageIndex | None,
) -> set[str]:
    """The files to re-resolve after `changed` ({path: (old facts, new facts)}, new None = gone):
    the changed files; for a file whose shape moved, the files with an edge into it; and every file
    whose imports or uses mention a name that appeared or disappeared (all of a file's names when it
    was added, removed or changed package)."""
    affected = {p for p, (_, new) in changed.items() if new is not None}
    keys: set[str] = set()
    for path, (old, new) in changed.items():
        if old is not None and new is not None:
            before, after = shape(old), shape(new)
            if before == after:
                continue
            affected.update(inbound(path))
            if before[2:] != after[2:]:
                keys |= defined_keys(path, old) | defined_keys(path, new)
            else:
                names = {n.rsplit(".", 1)[-1] for n, _ in set(before[0]) ^ set(after[0])}
                keys |= {n for n in names if not n.startswith("__")}
        else:
            affected.update(inbound(path))
            keys |= defined_keys(path, old) | defined_keys(path, new)
    if usage is not None:
        affected |= usage.users_of(keys)
    return affected


class UsageIndex:
    """token -> files using it, kept current file by file."""

    def __init__(self) -> None:
        self._users: dict[str, set[str]] = defaultdict(set)
        self._tokens: dict[str, set[str]] = {}

    def __len__(self) -> int:
        return len(self._tokens)

    def update(self, path: str, facts: FileFacts | None) -> None:
        for token in self._tokens.pop(path, ()):
            users = self._users.get(token)
            if users is not None:
                users.discard(path)
        if facts is not None:
            tokens = used_tokens(facts)
            self._tokens[path] = tokens
            for token in tokens:
                self._users[token].add(path)

    def users_of(self, keys: Iterable[str]) -> set[str]:
        found: set[str] = set()
        for key in keys:
            found.update(self._users.get(key, ()))
        return found
