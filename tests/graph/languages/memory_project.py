"""A `ProjectView` over {path: text} for the per-language resolution tests: what the indexer would
hand a resolver, without a disk or an index. (A uniquely named module, imported by name.)"""

from __future__ import annotations

import textwrap
from typing import Any

from konstruct_tui.graph.facts import Edge, FileFacts, LanguageSupport


class MemoryProject:
    def __init__(self, support: LanguageSupport, files: dict[str, str]) -> None:
        self.files = {path: textwrap.dedent(text) for path, text in files.items()}
        self.facts = {
            path: support.extract(path, text.encode())
            for path, text in self.files.items()
            if path.endswith(tuple(support.extensions))
        }

    def paths(self) -> list[str]:
        return sorted(self.files)

    def facts_of(self, path: str) -> FileFacts | None:
        return self.facts.get(path)

    def read_text(self, path: str) -> str | None:
        return self.files.get(path)


SIDE_KINDS = ("members", "unresolved")  # member-level evidence beside the file graph


def all_edges(support: Any, files: dict[str, str], *, side: bool = False, **options: Any) -> list[Edge]:
    """Every file-graph edge the resolver finds in the project (`options` go to `support.resolver`);
    with `side`, the member-level edges too."""
    project = MemoryProject(support, files)
    resolver = support.resolver(project, **options)
    return [edge for facts in project.facts.values() for edge in resolver.resolve(facts)
            if side or edge.kind not in SIDE_KINDS]


def member_uses(support: Any, files: dict[str, str], path: str) -> tuple[dict[str, set[str]], set[str]]:
    """({defining file: member names} proven for `path`, {member names used on untyped receivers})."""
    project = MemoryProject(support, files)
    found = support.resolver(project).resolve(project.facts[path])
    used = {e.target: set(e.names) for e in found if e.kind == "members"}
    unknown = {n for e in found if e.kind == "unresolved" for n in e.names}
    return used, unknown


def edge_pairs(support: Any, files: dict[str, str], kind: str = "imports", **options: Any) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in all_edges(support, files, **options) if e.kind == kind}


def edges_from(support: Any, files: dict[str, str], path: str, **options: Any) -> list[Edge]:
    """The edges of one file, in the resolver's order."""
    project = MemoryProject(support, files)
    return [e for e in support.resolver(project, **options).resolve(project.facts[path]) if e.kind not in SIDE_KINDS]
