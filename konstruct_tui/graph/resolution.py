"""Turning facts into edges through each language's resolver, with the whole project in view.

Resolvers (and the `ProjectView` they hold) live across updates until a path appears or goes, a
config file changes, or a file's shape changes: building one can cost 100 ms on a big project,
twice the budget for showing a one-file edit.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor

from .facts import OVERRIDES, Edge, FileFacts, LanguageSupport, Resolver
from .project import ProjectFacts, shape
from .records import FileEntry
from .snapshot import MEMBERS, UNRESOLVED, pack
from .timeline import mark

log = logging.getLogger(__name__)

_FORK_MIN_FILES = 256  # below this, forking costs more than it saves
_SHARES_PER_CHILD = 4


def no_facts(path: str) -> None:
    """The loader once every file's facts are in memory: a miss means "no facts"."""
    return


class Resolution:
    def __init__(self, supports: dict[str, LanguageSupport]) -> None:
        self.supports = supports
        self.view: ProjectFacts | None = None
        self.resolvers: dict[str, Resolver] = {}

    def reset(self, view: ProjectFacts) -> None:
        self.view, self.resolvers = view, {}

    def outdated(
        self, changed: dict[str, tuple[FileFacts | None, FileFacts | None]], files: Mapping[str, FileEntry]
    ) -> set[str]:
        """The languages whose resolver tables a change ({path: (old, new)}) may have outdated. A
        resolver is kept across changes that keep every file's shape, or always when its language
        says its tables come from paths and config files alone (`reusable_resolver`)."""
        found = set()
        for path, (old, new) in changed.items():
            language = files[path].language
            support = self.supports.get(language)
            if language not in self.resolvers or (support is not None and support.reusable_resolver):
                continue
            if old is None or new is None or shape(old) != shape(new):
                found.add(language)
        return found

    def forget(self, languages: set[str]) -> None:
        for language in languages:
            self.resolvers.pop(language, None)

    def resolve(self, paths: list[str], files: Mapping[str, FileEntry]) -> list[Edge]:
        """Edges leaving `paths`: no self loops, only to indexed files, one per (source, target,
        kind) with the union of the names that justify it, in (source, target, kind) order."""
        view = self.view
        assert view is not None, "reset() first"
        if any(a >= b for a, b in zip(paths, paths[1:])):
            paths = sorted(set(paths))
        # Merged one file at a time and emitted in order (paths ascend): a project-wide map of
        # every (source, target, kind) to a set of names, then a sorted copy of it all, was half
        # the peak memory of a 100,000-file build.
        edges: list[Edge] = []
        for path in paths:
            facts = view.facts_of(path)
            support = self.supports.get(files[path].language)
            if facts is None or support is None:
                continue
            resolver = self.resolvers.get(support.name)
            if resolver is None:
                resolver = self.resolvers[support.name] = support.resolver(view)
            edges.extend(_edges_of(path, facts, resolver, files))
        return edges

    def resolve_built(
        self, paths: list[str], files: Mapping[str, FileEntry], facts: Mapping[str, FileFacts | None]
    ) -> tuple[list[Edge], set[str]]:
        """`resolve` with only the resolvers already built and the facts given: what the current
        tables say about files the project view does not list yet (just created). A language
        whose resolver is not built is skipped (building one is the slow part this avoids):
        returns the edges and the paths they answer for."""
        edges: list[Edge] = []
        answered: set[str] = set()
        for path in sorted(set(paths)):
            support = self.supports.get(files[path].language)
            resolver = self.resolvers.get(support.name) if support is not None else None
            found = facts.get(path)
            if resolver is not None and found is not None:
                edges.extend(_edges_of(path, found, resolver, files))
                answered.add(path)
        return edges, answered

    def build_resolvers(self, files: Mapping[str, FileEntry]) -> None:
        """Every resolver the project's languages need, built now (the reconciler does this when
        idle: on a big tree a first edit would otherwise wait seconds for the tables)."""
        assert self.view is not None, "reset() first"
        for language in sorted({entry.language for entry in files.values()}):
            support = self.supports.get(language)
            if support is not None and support.name not in self.resolvers:
                self.resolvers[support.name] = support.resolver(self.view)

    def resolve_forked(self, paths: list[str], files: Mapping[str, FileEntry], workers: int) -> list[Edge]:
        """`resolve`, split over forked children: they inherit every file's facts without a byte
        of IPC, so the serial tail after a cold build's parsing shrinks by the number of cores.
        Only where fork is safe (no other thread running) and every fact is in memory (a child
        must never touch the parent's SQLite connection)."""
        if (len(paths) < _FORK_MIN_FILES or workers < 2 or threading.active_count() > 1
                or not hasattr(os, "fork") or self.view is None or self.view.loads_from_store):
            return self.resolve(paths, files)
        # The resolvers' tables (module names, config) are built once here and inherited, instead
        # of once in every child.
        view = self.view
        for language in sorted({files[p].language for p in paths}):
            support = self.supports.get(language)
            if support is not None and support.name not in self.resolvers:
                self.resolvers[support.name] = support.resolver(view)
        mark("fork")
        global _forked
        _forked = (self, files)
        try:
            with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
                # Several shares per child: one that draws the slow files would otherwise leave the
                # other core idle at the end (a tenth of the resolution time on the stdlib).
                count = workers * _SHARES_PER_CHILD
                shares = pool.map(_resolve_share, [paths[i::count] for i in range(count)])
                edges = [Edge(*row) for share in shares for row in share]
        finally:
            _forked = None
        return sorted(edges, key=lambda e: (e.source, e.target, e.kind))


def _edges_of(path: str, facts: FileFacts, resolver: Resolver, files: Mapping[str, FileEntry]) -> list[Edge]:
    """One file's edges, merged per (target, kind) and sorted so."""
    try:
        found = resolver.resolve(facts)
    except Exception:  # one file's resolver bug must not cost the whole graph
        log.exception("resolving %s failed", path)
        return []
    merged: dict[tuple[str, str], set[str]] = {}
    members: dict[str, set[str]] = {}
    unknown: set[str] = set()
    for edge in found:
        if edge.kind == UNRESOLVED:
            unknown.update(edge.names)
            continue
        if (edge.target == path and edge.kind != MEMBERS) or edge.target not in files:
            continue
        if edge.kind == MEMBERS:
            # a file's own member edge keeps override markers only (see member_evidence)
            names = edge.names if edge.target != path else [n for n in edge.names if OVERRIDES in n]
            if names:
                members.setdefault(edge.target, set()).update(names)
            continue
        merged.setdefault((edge.target, edge.kind), set()).update(edge.names)
    own = [Edge(path, target, kind, tuple(sorted(names))) for (target, kind), names in merged.items()]
    if members or unknown:  # a file's member evidence: one row, to itself (see snapshot.pack)
        own.append(pack(path, members, unknown))
    own.sort(key=_target_kind)
    return own


def _target_kind(edge: Edge) -> tuple[str, str]:
    return edge.target, edge.kind


_forked: tuple[Resolution, Mapping[str, FileEntry]] | None = None


def _resolve_share(paths: list[str]) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """In a forked child: resolve `paths` with the parent's resolution state as it was at the fork."""
    assert _forked is not None
    mark("share")
    resolution, files = _forked
    found = [(e.source, e.target, e.kind, e.names) for e in resolution.resolve(paths, files)]
    mark("share-end")
    return found
