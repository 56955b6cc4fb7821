"""The code graph (DESIGN.md §5): tree-sitter extraction per language, resolution, the index store,
the background reconciler, neighborhoods and traversals.

Public names: `CodeGraph` / `build_index` (the graph of one workspace), `GraphSnapshot` /
`GraphQuery` / `reach` (reading it), `Freshness` (what changed since the indexed commit), the answer
statuses and `GraphAnswer`, `IndexStore` / `index_path`, `export_graph` / `LEVELS`,
`rank_neighborhoods` / `Neighborhood`, `languages` / `language_for`, `Symbol`, `TEXT`, `Progress`.
Modules inside the package import each other directly; every other package imports from here.
"""

from .answers import NOT_INDEXED, NO_REFERENCES, OK, UNDETERMINABLE, UNSUPPORTED_LANGUAGE, GraphAnswer
from .code_graph import CodeGraph, build_index
from .export import LEVELS, export_graph
from .facts import Symbol
from .freshness import Freshness
from .indexer import Progress
from .languages import language_for, languages
from .neighborhoods import Neighborhood, rank_neighborhoods
from .query import GraphQuery
from .records import TEXT
from .snapshot import GraphSnapshot
from .store import IndexStore, index_path
from .traversal import reach

__all__ = [
    "LEVELS",
    "NOT_INDEXED",
    "NO_REFERENCES",
    "OK",
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
    "language_for",
    "languages",
    "rank_neighborhoods",
    "reach",
]
