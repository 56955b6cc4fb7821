"""Neighborhoods: clusters of files that depend on each other in practice.

Louvain community detection (networkx) over the undirected file graph with a fixed seed, nodes and
edges added in sorted order: the same graph gives the same clusters, run after run. Files with no
edge at all belong to no neighborhood (a cluster of one tells nobody anything).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

import networkx as nx

if TYPE_CHECKING:
    from .snapshot import GraphSnapshot

SEED = 20240611
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_STOP = frozenset(
    [
        "the", "and", "for", "with", "from", "that", "this", "into", "when", "what", "where",
        "which", "then", "than", "have", "has", "are", "was", "were", "will", "can", "could",
        "should", "would", "make", "makes", "add", "adds", "fix", "fixes", "use", "uses", "using",
        "file", "files", "code", "change", "changes", "please", "need", "want", "new", "old", "all",
        "any", "some", "not", "but", "its", "our", "your", "their", "how", "why", "src", "lib",
        "test", "tests", "py", "main", "index", "init"
    ]
)


@dataclass(frozen=True)
class Neighborhood:
    id: int
    name: str
    members: tuple[str, ...]
    bridges: tuple[str, ...]  # members with edges into other neighborhoods, most connected first

    def to_json(self, limit: int = 100) -> dict[str, Any]:
        return {
            "name": self.name,
            "size": len(self.members),
            "members": list(self.members[:limit]),
            "bridges": list(self.bridges[:limit]),
            "truncated": len(self.members) > limit or len(self.bridges) > limit,
        }


@dataclass(frozen=True)
class Neighborhoods:
    items: tuple[Neighborhood, ...] = ()
    by_file: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.items)

    def of(self, path: str) -> Neighborhood | None:
        index = self.by_file.get(path)
        return None if index is None else self.items[index]


def file_graph(snapshot: GraphSnapshot) -> nx.Graph:
    """Undirected, weighted by how many edge kinds join two files (either direction)."""
    weights: Counter[tuple[str, str]] = Counter()
    for edges in snapshot.out_edges.values():
        for edge in edges:
            a, b = sorted((edge.source, edge.target))
            weights[(a, b)] += 1
    graph = nx.Graph()
    graph.add_nodes_from(sorted({p for pair in weights for p in pair}))
    graph.add_weighted_edges_from((a, b, w) for (a, b), w in sorted(weights.items()))
    return graph


def detect(snapshot: GraphSnapshot) -> Neighborhoods:
    graph = file_graph(snapshot)
    if graph.number_of_nodes() == 0:
        return Neighborhoods()
    communities = nx.community.louvain_communities(graph, weight="weight", seed=SEED)
    groups = sorted((tuple(sorted(c)) for c in communities), key=lambda m: (-len(m), m[0]))
    by_file = {path: i for i, members in enumerate(groups) for path in members}
    names = _names(groups, graph)
    items = []
    for i, members in enumerate(groups):
        outside: Counter[str] = Counter()
        for path in members:
            for other in graph.neighbors(path):
                if by_file[other] != i:
                    outside[path] += 1
        bridges = tuple(p for p, _ in sorted(outside.items(), key=lambda kv: (-kv[1], kv[0])))
        items.append(Neighborhood(i, names[i], members, bridges))
    return Neighborhoods(tuple(items), by_file)


def _names(groups: list[tuple[str, ...]], graph: nx.Graph) -> list[str]:
    """The members' common folder; when that is the root or already taken, the dominant folder
    with the hub module (the member with most edges inside the group) in parentheses."""
    names: list[str] = []
    taken: set[str] = set()
    for members in groups:
        folders = [PurePosixPath(p).parent.as_posix() for p in members]
        common = _common_folder(folders)
        dominant = Counter(folders).most_common(1)[0][0]
        name = common
        if name in taken or name == ".":
            inside = set(members)
            hub = max(members, key=lambda p: (sum(1 for n in graph.neighbors(p) if n in inside), p))
            module = PurePosixPath(hub).stem
            if module.startswith("__") or module == "index":
                module = PurePosixPath(hub).parent.name or module
            name = f"{dominant if dominant != '.' else '(root)'} ({module})"
        base, n = name, 2
        while name in taken:
            name, n = f"{base} #{n}", n + 1
        taken.add(name)
        names.append(name)
    return names


def _common_folder(folders: list[str]) -> str:
    parts = [f.split("/") if f != "." else [] for f in folders]
    common: list[str] = []
    for level in zip(*parts):
        if len(set(level)) != 1:
            break
        common.append(level[0])
    return "/".join(common) or "."


def words(text: str) -> set[str]:
    """Lower-case words of a request, path or identifier (camelCase and snake_case split)."""
    return {w.lower() for w in _WORD.findall(text) if len(w) > 2 and w.lower() not in _STOP}


def rank_neighborhoods(snapshot: GraphSnapshot, request_text: str, limit: int = 5) -> list[tuple[Neighborhood, float]]:
    """Neighborhoods whose member paths and symbol names share words with the request, best first.

    Per request word: inverse frequency across neighborhoods, times how many members name it (a
    path counts double: naming a folder or module is a stronger signal than naming a function in
    passing), over the square root of the neighborhood's size so big clusters do not win by bulk."""
    hoods = snapshot.neighborhoods
    wanted = words(request_text)
    if not wanted or not hoods.items:
        return []
    bags = _word_bags(snapshot)
    hits: list[Counter[str]] = []
    for path_words, symbol_words in bags:
        counts: Counter[str] = Counter()
        for member_words in path_words:
            for word in member_words & wanted:
                counts[word] += 2
        for member_words in symbol_words:
            for word in member_words & wanted:
                counts[word] += 1
        hits.append(counts)
    frequency = Counter(w for counts in hits for w in counts)
    total = len(hoods.items)
    scored = []
    for hood, counts in zip(hoods.items, hits):
        score = sum(math.log(1 + total / frequency[w]) * n for w, n in counts.items()) / math.sqrt(len(hood.members))
        if score > 0:
            scored.append((hood, round(score, 4)))
    scored.sort(key=lambda hs: (-hs[1], hs[0].id))
    return scored[:limit]


def _word_bags(snapshot: GraphSnapshot) -> list[tuple[list[set[str]], list[set[str]]]]:
    """Per neighborhood, per member: the words of its path and of its symbol names (cached on the
    snapshot: decoding every member's symbols is the slow part)."""
    cached = snapshot.__dict__.get("_neighborhood_words")
    if cached is None:
        cached = []
        for hood in snapshot.neighborhoods.items:
            paths, symbols = [], []
            for path in hood.members:
                paths.append(words(path))
                entry = snapshot.files.get(path)
                names: set[str] = set()
                if entry is not None and entry.symbols_json != "[]":
                    for symbol in entry.symbols():
                        names |= words(symbol.name)
                symbols.append(names)
            cached.append((paths, symbols))
        snapshot.__dict__["_neighborhood_words"] = cached
    return cached
