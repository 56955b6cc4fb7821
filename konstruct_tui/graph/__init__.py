"""The code graph (DESIGN.md §5): tree-sitter extraction per language, resolution, the index store,
the background reconciler, neighborhoods and traversals.

Public names: `CodeGraph` / `build_index` (the graph of one workspace), `GraphSnapshot` /
`GraphQuery` / `reach` (reading it), `Freshness` (what changed since the indexed commit), the answer
statuses and `GraphAnswer`, `IndexStore` / `index_path`, `export_graph` / `LEVELS`,
`rank_neighborhoods` / `Neighborhood`, `Symbol`, `TEXT`, `Progress`; the languages have a face of
their own (`graph.languages`: `languages` / `language_for`), since the sub-package shares the name.
Modules inside the package import each other directly; every other package imports from here.

The face is lazy (`package_face`): a name's module is imported when the name is first asked for, so a
warm `konstruct index` that needs only the store never loads tree-sitter, the resolvers or networkx.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..package_face import lazy_face

if TYPE_CHECKING:
    from .answers import (
        NO_REFERENCES,
        NOT_INDEXED,
        OK,
        UNDETERMINABLE,
        UNSUPPORTED_LANGUAGE,
        GraphAnswer,
    )
    from .callers import BY_NAME, RESOLVED
    from .code_graph import CodeGraph, build_index
    from .dead_code import is_test_file
    from .export import LEVELS, export_graph
    from .facts import Symbol
    from .freshness import Freshness
    from .indexer import Progress
    from .neighborhoods import Neighborhood, rank_neighborhoods
    from .query import GraphQuery
    from .records import TEXT
    from .snapshot import GraphSnapshot
    from .store import IndexStore, index_path
    from .traversal import reach
    from .warm_start import unchanged

__all__ = [
    "BY_NAME",
    "LEVELS",
    "NOT_INDEXED",
    "NO_REFERENCES",
    "OK",
    "RESOLVED",
    "TEXT",
    "UNDETERMINABLE",
    "UNSUPPORTED_LANGUAGE",
    "CodeGraph",
    "Freshness",
    "GraphAnswer",
    "GraphQuery",
    "GraphSnapshot",
    "IndexStore",
    "Neighborhood",
    "Progress",
    "Symbol",
    "build_index",
    "export_graph",
    "index_path",
    "is_test_file",
    "rank_neighborhoods",
    "reach",
    "unchanged",
]


__getattr__, __dir__ = lazy_face(__name__, __file__)
