"""Neighborhoods: clusters of files that depend on each other in practice.

Leiden community detection (python-igraph, compiled: it clusters a 100,000-file graph in seconds
where networkx's pure-Python Louvain took minutes) maximising modularity over the undirected,
weighted file graph. Nodes and edges go in sorted order and the random source is seeded, so the
same graph gives the same clusters, run after run. Files with no edge at all belong to no
neighborhood (a cluster of one tells nobody anything).

Clustering is never on a warm path: a snapshot reuses the clusters of an ancestor with the same file
pairs, and the store keeps the last ones with a digest of those pairs (see `store.py`).
"""

from __future__ import annotations

import math
import random
import re
import threading
from array import array
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Protocol

from .facts import Edge
from .records import FileEntry


class ClusteredGraph(Protocol):
    """What clustering and ranking read of a graph (`snapshot.GraphSnapshot` is one; it imports
    this module for its neighborhoods, so this one names only what it reads)."""

    @property
    def out_edges(self) -> Mapping[str, tuple[Edge, ...]]: ...

    @property
    def files(self) -> Mapping[str, FileEntry]: ...

    @property
    def sorted_paths(self) -> list[str]: ...

    @property
    def neighborhoods(self) -> Neighborhoods: ...

SEED = 20240611
ITERATIONS = 2  # Leiden passes: more moved modularity by 0.0001 on a 100,000-file graph, for +25% time
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


FileGraph = dict[tuple[str, str], int]  # (a, b) with a < b -> weight


def file_graph(snapshot: ClusteredGraph) -> FileGraph:
    """Undirected, weighted by how many edges join two files (either direction, any kind). Pairs,
    not adjacency lists: everything below needs one pass over them, and on 700,000 edges a second
    structure cost more than the clustering."""
    weights: FileGraph = {}
    weight = weights.get
    for edges in snapshot.out_edges.values():
        for edge in edges:
            source, target = edge.source, edge.target
            pair = (source, target) if source < target else (target, source)
            weights[pair] = weight(pair, 0) + 1
    return weights


_RANDOM = threading.Lock()  # igraph's random source is process-wide: one clustering at a time
# igraph holds the interpreter lock for the whole clustering (4 s on a 100,000-file graph): every
# other thread, the UI's and the queries', would stop for that long. Above this many file pairs,
# a process that runs other threads clusters in a child process instead (same seed, same answer).
CHILD_PAIRS = 50_000


def _igraph_core() -> Any:
    """igraph's compiled core (`igraph._igraph`) without the package around it: `import igraph`
    also imports its drawing, table-printing and text-width helpers (60-130 ms, at the end of every
    cold `konstruct index`), and clustering needs only GraphBase and the random-source hook. The
    core registers itself in sys.modules (it can be initialized once per process); should anything
    import the package later, `_PackageWhole` gives it its `_igraph` attribute as usual."""
    import sys

    loaded = sys.modules.get("igraph._igraph")
    if loaded is not None:
        return loaded
    try:
        from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader
        from importlib.util import find_spec, module_from_spec, spec_from_loader
        from pathlib import Path

        spec = find_spec("igraph")
        folder = Path(next(iter(spec.submodule_search_locations or ())))  # type: ignore[union-attr]
        binary = next(folder / f"_igraph{suffix}" for suffix in EXTENSION_SUFFIXES
                      if (folder / f"_igraph{suffix}").is_file())
        loader = ExtensionFileLoader("igraph._igraph", str(binary))
        module = module_from_spec(spec_from_loader("igraph._igraph", loader))  # type: ignore[arg-type]
        loader.exec_module(module)
    except (ImportError, AttributeError, StopIteration, TypeError, OSError):
        import igraph  # type: ignore[import-untyped]  # an unusual layout: the ordinary import (slower, same core)

        return igraph._igraph
    sys.modules["igraph._igraph"] = module
    if "igraph" not in sys.modules:
        sys.meta_path.insert(0, _PackageWhole(module))
    return module


class _PackageWhole:
    """A one-shot import hook: when the igraph package is imported after its core was loaded on
    its own, the import system (finding the core in sys.modules) would not set `igraph._igraph`,
    which parts of the package use."""

    def __init__(self, core: Any) -> None:
        self.core = core

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "igraph":
            return None
        import sys
        from importlib.util import find_spec

        sys.meta_path.remove(self)
        spec = find_spec("igraph")
        if spec is None or spec.loader is None:
            return spec
        run, core = spec.loader.exec_module, self.core

        def exec_module(module: Any) -> None:
            module._igraph = core
            run(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def communities(graph: FileGraph) -> list[list[str]]:
    """Leiden (modularity, seeded) over `graph`; each community as a list of files."""
    nodes = sorted({path for pair in graph for path in pair})
    number = {path: i for i, path in enumerate(nodes)}
    pairs = sorted((number[a], number[b], w) for (a, b), w in graph.items())
    membership = _cluster(len(nodes), [a for a, _, _ in pairs], [b for _, b, _ in pairs], [w for _, _, w in pairs])
    groups: dict[int, list[str]] = {}
    for index, label in enumerate(membership):
        groups.setdefault(label, []).append(nodes[index])
    return list(groups.values())


def numbered_pairs(snapshot: ClusteredGraph) -> tuple[list[str], list[int], list[int], list[int]]:
    """The file graph with numbers for names: (nodes, a, b, weights). `nodes` are the files with an
    edge, sorted; each unique pair of them is `nodes[a[i]]`, `nodes[b[i]]` with a < b, ascending,
    joined by `weights[i]` edges (either direction, any kind). The same graph as `file_graph`,
    numbered as `communities` numbers it, without a dict keyed by pairs of strings: on a
    100,000-file graph that dict and its sort were most of the clustering's time and memory."""
    paths = snapshot.sorted_paths
    size = len(paths)
    number = dict(zip(paths, range(size)))
    keys: list[int] = []
    add = keys.extend
    for source, edges in snapshot.out_edges.items():
        s = number[source]
        base = s * size
        add([base + t if s < t else t * size + s for t in [number[e.target] for e in edges]])
    weight = Counter(keys)
    del keys
    ordered = sorted(weight)
    weights = list(map(weight.__getitem__, ordered))
    del weight
    a = [k // size for k in ordered]
    b = [k % size for k in ordered]
    del ordered
    used = sorted(set(a).union(b))
    slot = dict(zip(used, range(len(used))))
    # Renumbering keeps the order (paths ascend with their numbers), so the pairs stay sorted.
    return [paths[i] for i in used], list(map(slot.__getitem__, a)), list(map(slot.__getitem__, b)), weights


def _cluster(count: int, a: list[int], b: list[int], weights: list[int]) -> list[int]:
    if len(a) > CHILD_PAIRS and threading.active_count() > 1:
        return _in_child(count, array("i", a), array("i", b), array("i", weights))
    return leiden(count, a, b, weights)


def leiden(count: int, a: Sequence[int], b: Sequence[int], weights: Sequence[int]) -> list[int]:
    """Each node's community label (nodes numbered 0..count-1; edge i joins a[i] and b[i])."""
    igraph = _igraph_core()

    # GraphBase, the compiled core, not igraph.Graph: Graph's constructor imports numpy (0.1 s) to
    # check whether the edges came as an array.
    clustering = igraph.GraphBase(count, list(zip(a, b)))
    with _RANDOM:
        igraph.set_random_number_generator(random.Random(SEED))
        try:
            # Modularity is Leiden's "normalized resolution" (what Graph.community_leiden passes
            # for objective_function="modularity"). On the stdlib this beats networkx's Louvain
            # on modularity (0.542 against 0.538).
            membership, _quality = igraph.GraphBase.community_leiden(
                clustering, edge_weights=list(weights), resolution=1, normalize_resolution=True,
                n_iterations=ITERATIONS,
            )
        finally:
            igraph.set_random_number_generator(random)
    return list(membership)


def _in_child(count: int, a: array[int], b: array[int], weights: array[int]) -> list[int]:
    """`leiden` in a fresh child process: this one's threads keep running while it clusters.
    forkserver, not fork: forking a process that runs other threads can inherit a held lock. The
    pairs travel as arrays of machine integers (a few MB, pickled as bytes), not as tuples."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver")) as pool:
        return pool.submit(leiden, count, a, b, weights).result()


def detect(snapshot: ClusteredGraph) -> Neighborhoods:
    nodes, a, b, weights = numbered_pairs(snapshot)
    if not nodes:
        return Neighborhoods()
    membership = _cluster(len(nodes), a, b, weights)
    labelled: dict[int, list[int]] = {}
    for index, label in enumerate(membership):
        labelled.setdefault(label, []).append(index)
    # Node numbers ascend with the paths: each list is its members in path order, and its first
    # number names its first member.
    order = sorted(labelled.values(), key=lambda m: (-len(m), m[0]))
    hood = [0] * len(nodes)
    for i, members in enumerate(order):
        for index in members:
            hood[index] = i
    inside = [0] * len(nodes)  # neighbours in the same neighborhood (names the hub)
    outside = [0] * len(nodes)  # neighbours in another one (makes a bridge)
    for x, y in zip(a, b):
        tally = inside if hood[x] == hood[y] else outside
        tally[x] += 1
        tally[y] += 1
    bridges: list[list[str]] = [[] for _ in order]
    for index in sorted((i for i, n in enumerate(outside) if n), key=lambda i: (-outside[i], i)):
        bridges[hood[index]].append(nodes[index])
    groups = [tuple(map(nodes.__getitem__, members)) for members in order]

    def hub(group: int) -> str:  # the member with most neighbours in its own neighborhood
        return nodes[max(order[group], key=lambda index: (inside[index], index))]

    names = _names(groups, hub)
    items = tuple(Neighborhood(i, names[i], members, tuple(bridges[i])) for i, members in enumerate(groups))
    return Neighborhoods(items, {path: i for i, members in enumerate(groups) for path in members})


def modularity(graph: FileGraph, groups: list[tuple[str, ...]] | list[list[str]]) -> float:
    """Newman's weighted modularity of a partition of `graph` (the bench compares clusterings by it)."""
    label = {path: i for i, members in enumerate(groups) for path in members}
    total = 2 * sum(graph.values())
    if not total:
        return 0.0
    inside = 2 * sum(w for (a, b), w in graph.items() if label[a] == label[b])
    degree: Counter[int] = Counter()
    for (a, b), w in graph.items():
        degree[label[a]] += w
        degree[label[b]] += w
    return inside / total - sum((d / total) ** 2 for d in degree.values())


def _names(groups: list[tuple[str, ...]], hub_of: Callable[[int], str]) -> list[str]:
    """The members' common folder; when that is the root or already taken, the dominant folder
    with the hub module (`hub_of(group)`: the member with most edges inside the group) in parentheses."""
    names: list[str] = []
    taken: set[str] = set()
    for group, members in enumerate(groups):
        common = _common_folder(members)
        name = common
        if name in taken or name == ".":
            folders = [p.rpartition("/")[0] or "." for p in members]
            dominant = Counter(folders).most_common(1)[0][0]
            hub = hub_of(group)
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


def _common_folder(members: tuple[str, ...]) -> str:
    """The deepest folder holding every member (sorted paths), "." for the root. Found from the
    first and the last member, then checked against all (a folder like `a/b-x` sorts between
    `a/b` and `a/b/c`, so the two ends alone can claim too much)."""
    first, last = members[0].rpartition("/")[0], members[-1].rpartition("/")[0]
    common: list[str] = []
    for x, y in zip(first.split("/") if first else [], last.split("/") if last else []):
        if x != y:
            break
        common.append(x)
    if not common:
        return "."
    prefix = "/".join(common) + "/"
    if all(p.startswith(prefix) for p in members):
        return prefix[:-1]
    return _common_of_all([p.rpartition("/")[0] or "." for p in members])


def _common_of_all(folders: list[str]) -> str:
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


def rank_neighborhoods(snapshot: ClusteredGraph, request_text: str, limit: int = 5) -> list[tuple[Neighborhood, float]]:
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


def _word_bags(snapshot: ClusteredGraph) -> list[tuple[list[set[str]], list[set[str]]]]:
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
