"""What rides on every search hit: a suggested line range to read next and the hit's neighborhood.

Line counts come from the workspace layer (one read per hit file, cached for the call), so a range
is always clipped to the file as it is now.
"""

from __future__ import annotations

from typing import Any

from ..graph import GraphSnapshot
from ..workspace import Workspace

RANGE_LINES = 40
# Text and glob hits do not need the graph, so they do not wait for a community detection on a big
# project whose neighborhoods nobody has computed yet (a session's reconciler computes them early).
COLD_NEIGHBORHOODS_MAX_FILES = 3000


def span_range(start: int, end: int, total: int, lines: int = RANGE_LINES) -> dict[str, int]:
    """About `lines` lines centred on start..end (the whole span when it is longer), inside 1..total."""
    total = max(total, 1)
    start, end = max(1, min(start, total)), max(1, min(max(end, start), total))
    if end - start + 1 >= lines:
        return {"start_line": start, "end_line": min(end, start + lines - 1)}
    spare = lines - (end - start + 1)
    first = max(1, start - spare // 2)
    last = min(total, first + lines - 1)
    first = max(1, last - lines + 1)
    return {"start_line": first, "end_line": last}


class LineCounts:
    """Total lines per file, read once per call through the workspace."""

    def __init__(self, workspace: Workspace) -> None:
        self._workspace = workspace
        self._totals: dict[str, int | None] = {}

    def __call__(self, path: str) -> int | None:
        if path not in self._totals:
            try:
                data = self._workspace.read(path).data
            except Exception:  # gone or refused since it was found: no range rather than a wrong one
                self._totals[path] = None
            else:
                self._totals[path] = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
        return self._totals[path]


def neighborhoods_at_hand(snapshot: GraphSnapshot | None, *, structural: bool) -> GraphSnapshot | None:
    """The snapshot, if its neighborhoods may be used for these hits (see COLD_NEIGHBORHOODS_MAX_FILES)."""
    if snapshot is None or structural or snapshot.neighborhoods_at_hand:
        return snapshot
    return snapshot if len(snapshot.files) <= COLD_NEIGHBORHOODS_MAX_FILES else None


def neighborhood_of(snapshot: GraphSnapshot | None, path: str) -> str | None:
    """The name of the neighborhood `path` belongs to, or None (no graph, or a file with no edges)."""
    if snapshot is None or path not in snapshot.files:
        return None
    hood = snapshot.neighborhoods.of(path)
    return None if hood is None else hood.name


def finish_hits(
    hits: list[dict[str, Any]], workspace: Workspace, snapshot: GraphSnapshot | None
) -> list[dict[str, Any]]:
    """Add `suggested_range` and `neighborhood` to each hit (`path`, `line`, optional `end_line`);
    hits whose file can no longer be read are dropped."""
    counts = LineCounts(workspace)
    finished = []
    for hit in hits:
        total = counts(hit["path"])
        if total is None:
            continue
        line = hit.get("line") or 1
        end = hit.get("end_line") or line
        hit["suggested_range"] = span_range(line, end, total) if hit.get("line") else span_range(1, 1, total)
        hit["neighborhood"] = neighborhood_of(snapshot, hit["path"])
        finished.append(hit)
    return finished
