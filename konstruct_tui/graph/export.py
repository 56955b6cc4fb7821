"""`konstruct graph export`: the file graph (or its folder projection) as plain nodes and edges."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from .snapshot import GraphSnapshot

LEVELS = ("file", "directory")


def folder_of(path: str) -> str:
    parent = PurePosixPath(path).parent.as_posix()
    return "." if parent in ("", ".") else parent


def export_graph(snapshot: GraphSnapshot, level: str = "file") -> dict[str, Any]:
    """Nodes: indexed files of a supported language, plus any other project file one of them
    imports (a stylesheet, a JSON module: dependency tools count those too), or their folders (the
    root being "."); edges: unique sorted [from, to] pairs over imports and references, no self loops."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    structural = {p for p, e in snapshot.files.items() if e.structural}
    pairs = {(a, b) for a, b in snapshot.pairs() if a in structural and b in snapshot.files and a != b}
    sources = sorted(structural | {b for _, b in pairs})
    if level == "directory":
        nodes = sorted({folder_of(p) for p in sources})
        pairs = {(folder_of(a), folder_of(b)) for a, b in pairs}
        pairs = {(a, b) for a, b in pairs if a != b}
    else:
        nodes = sources
    return {"nodes": nodes, "edges": [list(pair) for pair in sorted(pairs)]}
