"""Walks over one snapshot: breadth-first reach with distances, shortest chains, bounded cycles.

Everything here is deterministic (sorted frontiers) so the same graph gives the same answer, and
bounded (depth, limit, a step budget for cycles) so a query on a huge tangled graph still returns.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .snapshot import GraphSnapshot

CYCLE_STEP_BUDGET = 200_000


@dataclass(frozen=True)
class Reached:
    path: str
    distance: int
    via: str  # the file it was reached from (one hop closer to the start)
    kinds: tuple[str, ...]
    names: tuple[str, ...]


def reach(
    snapshot: GraphSnapshot,
    starts: Iterable[str],
    *,
    inbound: bool,
    kinds: tuple[str, ...],
    depth: int | None,
) -> list[Reached]:
    """Every file reachable from `starts` (excluded) within `depth` hops, nearest first."""
    seen = set(starts)
    frontier = sorted(seen)
    found: list[Reached] = []
    level = 0
    while frontier and (depth is None or level < depth):
        level += 1
        links: dict[str, tuple[str, set[str], set[str]]] = {}
        for node in frontier:
            edges = snapshot.predecessors(node, kinds) if inbound else snapshot.successors(node, kinds)
            for edge in edges:
                other = edge.source if inbound else edge.target
                if other in seen:
                    continue
                via, edge_kinds, names = links.setdefault(other, (node, set(), set()))
                if via == node:
                    edge_kinds.add(edge.kind)
                    names.update(edge.names)
        for other in sorted(links):
            via, edge_kinds, names = links[other]
            found.append(Reached(other, level, via, tuple(sorted(edge_kinds)), tuple(sorted(names))))
        seen.update(links)
        frontier = sorted(links)
    return found


def shortest_paths(
    snapshot: GraphSnapshot,
    sources: Iterable[str],
    targets: set[str],
    *,
    kinds: tuple[str, ...],
    depth: int,
    limit: int,
) -> list[list[str]]:
    """Up to `limit` shortest outbound chains from any source to any target (file lists)."""
    sources = sorted(set(sources))
    parents: dict[str, list[str]] = {s: [] for s in sources}
    frontier = sources
    hit: list[str] = sorted(t for t in targets if t in parents)
    level = 0
    while frontier and not hit and level < depth:
        level += 1
        nxt: dict[str, list[str]] = {}
        for node in frontier:
            for edge in snapshot.successors(node, kinds):
                if edge.target in parents:
                    continue
                nxt.setdefault(edge.target, [])
                if node not in nxt[edge.target]:
                    nxt[edge.target].append(node)
        parents.update(nxt)
        frontier = sorted(nxt)
        hit = sorted(t for t in targets if t in nxt)
    paths: list[list[str]] = []

    def back(node: str, tail: list[str]) -> None:
        if len(paths) >= limit:
            return
        if not parents[node]:
            paths.append([node, *tail])
            return
        for parent in sorted(parents[node]):
            back(parent, [node, *tail])

    for target in hit:
        back(target, [])
    return paths[:limit]


def cycles_through(
    snapshot: GraphSnapshot,
    starts: Iterable[str],
    *,
    kinds: tuple[str, ...],
    depth: int,
    limit: int,
) -> tuple[list[list[str]], bool]:
    """Simple cycles of at most `depth` files through any start, each rotated to begin at its
    smallest path and listed once; (cycles, truncated)."""
    found: dict[tuple[str, ...], None] = {}
    steps = 0
    truncated = False
    for start in sorted(set(starts)):
        stack: list[tuple[str, list[str]]] = [(start, [start])]
        while stack:
            node, trail = stack.pop()
            for nxt in sorted({e.target for e in snapshot.successors(node, kinds)}, reverse=True):
                steps += 1
                if steps > CYCLE_STEP_BUDGET or len(found) >= limit:
                    truncated = True
                    break
                if nxt == start:
                    pivot = trail.index(min(trail))
                    found.setdefault(tuple(trail[pivot:] + trail[:pivot]), None)
                elif nxt not in trail and len(trail) < depth:
                    stack.append((nxt, [*trail, nxt]))
            if truncated:
                break
        if truncated:
            break
    cycles = sorted(found, key=lambda c: (len(c), c))
    return [[*c, c[0]] for c in cycles], truncated
