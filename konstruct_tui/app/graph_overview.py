"""What the neighborhoods pane shows before a session has ranked any: the graph's readiness, how many
files changed since the indexed commit, and the largest neighborhoods. Plain Python, run on a worker
thread at start-up: opening the workbench brings the index up to date in the background, so the
loop's ranker (which never builds one) has something to rank."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..workspace import Workspace

MAX_SHOWN = 6
# Folders of a project that support its code rather than being it: shown after the code itself.
SUPPORTING_FOLDERS = frozenset({
    "examples", "example", "docs", "doc", "bench", "benchmarks", "benchmark", "samples", "sample",
    "demo", "demos", "fixtures", "testdata", "vendor", "third_party", "scripts",
})


@dataclass(frozen=True)
class GraphOverview:
    status: str
    neighborhoods: tuple[dict[str, Any], ...] = ()


def graph_overview(workspace: Workspace) -> GraphOverview:
    from ..graph import Freshness, build_index, is_test_file

    try:
        snapshot, _report = build_index(workspace, members=False)  # neighborhoods: the file graph
    except Exception as error:  # best effort: a broken index never stops the workbench
        return GraphOverview(f"graph: unavailable ({type(error).__name__}: {workspace.scrub(str(error))})")

    def supporting(path: str) -> bool:
        return is_test_file(path) or not SUPPORTING_FOLDERS.isdisjoint(path.split("/")[:-1])

    def order(hood: Any) -> tuple[bool, int, str]:
        # With no request yet, the project's own sources first (the first neighborhood a person
        # sees on opening click is `src/click`, not `examples/*`), then by size.
        mostly_supporting = sum(map(supporting, hood.members)) * 2 > len(hood.members)
        return mostly_supporting, -len(hood.members), hood.id

    hoods = sorted(snapshot.neighborhoods.items, key=order)[:MAX_SHOWN]
    stale: dict[str, tuple[str, ...]] = {}
    try:
        freshness = Freshness(workspace)
        for hood in hoods:
            stale[hood.name] = freshness.stale(snapshot, hood.members)
    except Exception:
        stale = {}
    changed = sum(len(paths) for paths in stale.values())
    commit = f" · commit {snapshot.commit[:7]}" if snapshot.commit else ""
    staleness = f" · {changed} changed since" if changed else ""
    status = f"graph: ready · {len(snapshot.files)} files · {len(snapshot.neighborhoods)} neighborhoods{commit}{staleness}"
    return GraphOverview(status, tuple({**hood.to_json(limit=40), "members": _sources_first(hood.members, supporting)[:40],
                                        "stale": list(stale.get(hood.name, ()))} for hood in hoods))


def _sources_first(members: Any, supporting: Any) -> list[str]:
    """A neighborhood's files with the project's own sources before its examples and tests (the
    first file a person reads under `src/click` is `src/click/core.py`, not `examples/…`), each
    group in the graph's order."""
    return sorted(members, key=supporting)
