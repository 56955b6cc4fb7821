"""Graph tests: private user dirs (the index lives in the cache dir), small projects in the mini
language, indexers and live graphs that are closed after each test."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from graph_helpers import PROJECT, write_files
from mini_language import mini_languages

from konstruct_tui.graph.code_graph import CodeGraph
from konstruct_tui.graph.indexer import Indexer
from konstruct_tui.graph.store import IndexStore
from konstruct_tui.workspace import Workspace



@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    write_files(root, PROJECT)
    return root


@pytest.fixture
def indexer_for() -> Callable[..., Indexer]:
    """A fresh Indexer over `root` (a new store connection each time, like a new session)."""
    opened: list[tuple[Workspace, IndexStore]] = []

    def make(root: Path, **options: object) -> Indexer:
        supports = mini_languages()
        workspace = Workspace(root)
        store = IndexStore.for_root(workspace.root, supports)
        opened.append((workspace, store))
        options.setdefault("supports", supports)
        return Indexer(workspace, store, **options)  # type: ignore[arg-type]

    yield make
    for workspace, store in opened:
        store.close()
        workspace.close()


@pytest.fixture
def live_graph() -> Callable[..., CodeGraph]:
    graphs: list[CodeGraph] = []

    def make(root: Path, **options: object) -> CodeGraph:
        options.setdefault("supports", mini_languages())
        options.setdefault("warm_neighborhoods", False)
        graph = CodeGraph(Workspace(root), **options)
        graphs.append(graph)
        return graph

    yield make
    for graph in graphs:
        graph.close()
        graph.workspace.close()
