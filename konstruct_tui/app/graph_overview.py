"""What the neighborhoods pane shows before a session has ranked any: the graph's readiness, how many
files changed since the indexed commit, and the largest neighborhoods. Plain Python, run on a worker
thread at start-up: opening the workbench brings the index up to date in the background, so the
loop's ranker (which never builds one) has something to rank."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..workspace import Workspace

MAX_SHOWN = 6


@dataclass(frozen=True)
class GraphOverview:
    status: str
    neighborhoods: tuple[dict[str, Any], ...] = ()


def graph_overview(workspace: Workspace) -> GraphOverview:
    from ..graph import Freshness, build_index

    try:
        snapshot, _report = build_index(workspace, members=False)  # neighborhoods: the file graph
    except Exception as error:  # best effort: a broken index never stops the workbench
        return GraphOverview(f"graph: unavailable ({type(error).__name__}: {workspace.scrub(str(error))})")
    hoods = sorted(snapshot.neighborhoods.items, key=lambda h: (-len(h.members), h.id))[:MAX_SHOWN]
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
    return GraphOverview(status, tuple({**hood.to_json(limit=40), "stale": list(stale.get(hood.name, ()))} for hood in hoods))
