"""The one table of `traverse_graph` modes (DESIGN.md §6): what each asks, which way it walks, how
deep and how many answers it returns. Every answer echoes its row as `bounds`, so a reader knows
what "nothing found" covered. Tune the numbers here; nowhere else repeats them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

BOTH_KINDS = ("imports", "references")
IMPORTS = ("imports",)


@dataclass(frozen=True)
class Mode:
    name: str
    question: str
    direction: str
    depth: int | None  # None: unbounded ("all") or not a walk at all ("—")
    limit: int
    limit_unit: str
    needs: str  # target | symbol | source_target
    kinds: tuple[str, ...] = BOTH_KINDS

    def bounds(self) -> dict[str, Any]:
        return {"direction": self.direction, "depth": self.depth, "limit": self.limit, "limit_unit": self.limit_unit}


MODES: dict[str, Mode] = {
    m.name: m
    for m in (
        Mode("impact", "what breaks if this file/symbol changes", "inbound", 3, 200, "files, ranked by distance", "target"),
        Mode("directory_impact", "what outside this folder breaks if it changes", "inbound", 10, 500, "files", "target"),
        Mode("rename_symbol", "every place that names this symbol", "references", None, 500, "paths", "symbol"),
        Mode("rename_file", "every file whose imports name this file", "inbound imports", 1, 500, "files", "target", IMPORTS),
        Mode("move_directory", "every import site naming a module under this folder", "inbound imports", 1, 500,
             "files", "target", IMPORTS),
        Mode("dependents", "who uses this file directly", "inbound", 1, 200, "files", "target"),
        Mode("dependencies", "what this file uses directly", "outbound", 1, 200, "files", "target"),
        Mode("transitive_dependencies", "everything this file pulls in", "outbound", 10, 500, "files", "target"),
        Mode("callers", "who refers to this symbol", "inbound references", 1, 200, "files", "symbol"),
        Mode("definition", "where this symbol is defined", "none", None, 20, "definitions", "symbol"),
        Mode("path", "shortest dependency chain from source to target", "outbound", 12, 3, "paths", "source_target"),
        Mode("cycles", "import cycles through this file or folder", "both", 8, 50, "cycles", "target", IMPORTS),
        Mode("neighborhood", "its cluster, members and bridges", "undirected", None, 100, "members", "target"),
        Mode("unreferenced", "symbols/files here that nothing refers to", "inbound", 1, 200, "entries", "target"),
        Mode("tests", "test files that reach this file (with a symbol: those that call it come first)", "inbound, tests only", 5, 100, "files", "target"),
    )
}

MODE_NAMES = tuple(MODES)
