"""Checks that need a process with a single thread (the indexer forks only then): each test runs
one of these in a fresh interpreter, so a thread another test left behind cannot turn it into a
skip. `python fork_checks.py NAME TMPDIR` exits 0 when the check holds."""

from __future__ import annotations

import multiprocessing
import sys
import threading
from pathlib import Path

from graph_helpers import write_files
from mini_language import mini_languages

from konstruct_tui.graph.indexer import Indexer
from konstruct_tui.graph.store import IndexStore
from konstruct_tui.workspace import Workspace

BIG = {f"pkg/m{i}.mini": f"def f{i}\nuse f{(i * 7) % 300}\nimport pkg/m{(i + 1) % 300}\n" for i in range(300)}


def _indexer(root: Path, **options: object) -> Indexer:
    supports = mini_languages()
    options.setdefault("supports", supports)
    workspace = Workspace(root)
    return Indexer(workspace, IndexStore.for_root(workspace.root, supports), **options)  # type: ignore[arg-type]


def _edges(snapshot) -> set[tuple[str, str, str, tuple[str, ...]]]:
    return {(e.source, e.target, e.kind, e.names) for es in snapshot.out_edges.values() for e in es}


def forked_resolution_matches_serial(tmp: Path) -> None:
    for name in ("a", "b"):
        write_files(tmp / name, BIG)
    serial = _indexer(tmp / "a", workers=1).refresh()
    forked = _indexer(tmp / "b", workers=2, inline_limit=10_000).refresh()
    assert forked.edge_count() == serial.edge_count() == 600 - 6  # six files use their own f: no self edge
    assert _edges(forked) == _edges(serial)


def no_worker_left_behind(tmp: Path) -> None:
    for name, files in (("big", BIG), ("small", {"a.mini": "def a\n", "b.mini": "use a\n"})):
        write_files(tmp / name, files)
        indexer = _indexer(tmp / name, workers=2, support_factory=mini_languages, supports=None)
        snapshot = indexer.refresh()
        assert indexer.parses == len(files)
        assert snapshot.edge_count() == (600 - 6 if name == "big" else 1)
        assert multiprocessing.active_children() == []
        assert threading.active_count() == 1


if __name__ == "__main__":
    assert threading.active_count() == 1
    {"forked_resolution_matches_serial": forked_resolution_matches_serial,
     "no_worker_left_behind": no_worker_left_behind}[sys.argv[1]](Path(sys.argv[2]))
