"""Graph enrichment that rides on read, write, delete and diff results at no extra call.

One readiness check per tool call (`look`: which snapshot, if any) and one pass over that snapshot
for every file of the batch. Best-effort by construction: a missing, building or broken graph gives
`None` values and a `graph` note saying it had nothing to add; it never raises into the tool.

`None` means "the graph cannot say" (no graph, a text-only file, a file it has not indexed); an
empty list means "the graph knows, and there are none".
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..graph import GraphSnapshot
from ..workspace import unreadable_folders
from .graph_access import graph_of, not_ready_reason
from .hits import neighborhoods_at_hand

if TYPE_CHECKING:
    from .base import ToolContext
    from .graph_access import GraphAccess

log = logging.getLogger(__name__)

SHOWN = 50  # files per list on one entry; the count says how many there were


@dataclass(frozen=True)
class GraphView:
    snapshot: GraphSnapshot | None
    graph: GraphAccess | None
    reason: str = ""

    def note(self, files: Iterable[str] = ()) -> dict[str, Any]:
        if self.snapshot is None:
            return {"status": "undeterminable", "reason": f"{self.reason}; the graph had nothing to add"}
        note: dict[str, Any] = {"status": "ok"}
        if self.graph is not None:
            wanted = [f for f in files if f in self.snapshot.files]
            note["stale"] = list(self.graph.freshness.stale(self.snapshot, wanted))
            note["ahead_of_index"] = list(self.graph.freshness.ahead_of_index(self.snapshot, wanted))
            folders = unreadable_folders(self.graph.freshness.workspace.root)
            if folders:  # the index cannot see in there (see blind_spots)
                note["unreadable"] = list(folders)
        return note


def look(context: ToolContext, *, structural: bool = False) -> GraphView:
    """The one readiness check of a tool call."""
    try:
        graph = graph_of(context, structural=structural)
        snapshot = graph.snapshot
        return GraphView(snapshot, graph, "" if snapshot is not None else not_ready_reason(graph))
    except Exception as error:  # enrichment must never fail the tool it rides on
        log.exception("graph enrichment failed")
        return GraphView(None, None, f"the code graph failed ({type(error).__name__})")


def _known(snapshot: GraphSnapshot, path: str) -> bool:
    entry = snapshot.files.get(path)
    return entry is not None and entry.parsed


def _inbound(snapshot: GraphSnapshot, path: str) -> list[str]:
    return sorted({e.source for e in snapshot.predecessors(path)})


def reading_context(view: GraphView, paths: Iterable[str]) -> dict[str, dict[str, Any]]:
    """path -> {importers, same_neighborhood} for read_code (None values when the graph cannot say)."""
    snapshot = view.snapshot
    out: dict[str, dict[str, Any]] = {}
    # never a community detection on a big project inside a read: None until someone computed them
    hoods = snapshot.neighborhoods if snapshot is not None and neighborhoods_at_hand(snapshot, structural=False) is not None else None
    for path in paths:
        if snapshot is None or not _known(snapshot, path):
            out[path] = {"importers": None, "same_neighborhood": None}
            continue
        importers = _inbound(snapshot, path)
        entry: dict[str, Any] = {"importers": importers[:SHOWN], "same_neighborhood": None}
        if len(importers) > SHOWN:
            entry["importers_total"] = len(importers)
        if hoods is not None:
            hood = hoods.of(path)
            mates = [m for m in hood.members if m != path] if hood is not None else []
            entry["same_neighborhood"] = mates[:SHOWN]
            if hood is not None:
                entry["neighborhood"] = hood.name
            if len(mates) > SHOWN:
                entry["same_neighborhood_total"] = len(mates)
        out[path] = entry
    return out


def blast_radius(view: GraphView, paths: Iterable[str]) -> dict[str, list[str] | None]:
    """path -> the files that import or reference it (the blast radius of changing it)."""
    snapshot = view.snapshot
    out: dict[str, list[str] | None] = {}
    for path in paths:
        out[path] = None if snapshot is None or not _known(snapshot, path) else _inbound(snapshot, path)[:SHOWN * 4]
    return out


def impact_summary(view: GraphView, changed: list[str], limit: int = 200) -> dict[str, Any]:
    """For git_diff: who depends on the changed files (outside them) and which neighborhoods they touch."""
    snapshot = view.snapshot
    if snapshot is None:
        return view.note()
    indexed = [p for p in changed if _known(snapshot, p)]
    text_only = [p for p in changed if p in snapshot.files and not snapshot.files[p].parsed]
    unknown = [p for p in changed if p not in snapshot.files]
    own = set(changed)
    users: dict[str, set[str]] = {}
    for path in indexed:
        for source in _inbound(snapshot, path):
            if source not in own:
                users.setdefault(source, set()).add(path)
    hoods = snapshot.neighborhoods
    touched = sorted({hood.name for hood in map(hoods.of, indexed) if hood is not None})
    dependents = [{"path": p, "uses": sorted(v)} for p, v in sorted(users.items(), key=lambda kv: (-len(kv[1]), kv[0]))]
    summary: dict[str, Any] = {
        **view.note([*indexed, *users]),
        "changed_files": len(changed),
        "dependents": dependents[:limit],
        "dependents_total": len(dependents),
        "neighborhoods": touched,
        "truncated": len(dependents) > limit,
    }
    if text_only:
        summary["unsupported_language"] = text_only
    if unknown:
        summary["not_indexed"] = unknown
    if changed and not indexed:
        summary["reason"] = "none of the changed files is a parsed source file the graph knows"
    elif indexed and not dependents:
        summary["reason"] = "no other file depends on the changed files"
    return summary


def notify_written(context: ToolContext, results: list[dict[str, Any]]) -> None:
    """Tell the session's graph which files a batch changed (the reconciler re-indexes them)."""
    graph = context.graph
    changed = [r.get("resolved") or r["path"] for r in results if r.get("status") in ("written", "created", "deleted")]
    if graph is None or not changed:
        return
    try:
        graph.notify(changed)
    except Exception:  # a graph that cannot hear about a write is stale, and says so per query
        log.exception("could not notify the code graph")


def _entry_path(entry: dict[str, Any]) -> str:
    return entry.get("resolved") or entry["path"]


def enrich_reads(context: ToolContext, payload: dict[str, Any]) -> dict[str, Any]:
    """read_code: each ok entry gains `importers` and `same_neighborhood`; the payload a `graph` note."""
    view = look(context)
    readable = [_entry_path(e) for e in payload["results"] if e.get("status") == "ok"]
    found = reading_context(view, readable)
    for entry in payload["results"]:
        if entry.get("status") == "ok":
            entry.update(found[_entry_path(entry)])
    payload["graph"] = view.note(readable)
    return payload


def enrich_writes(context: ToolContext, apply: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """write_code / delete_code: run `apply` (the batch); each applied entry gains `dependents` (its
    blast radius, from the graph as it was before the batch, so a deleted file still has its
    importers) and the graph hears which files changed."""
    view = look(context)
    payload = apply()
    applied = [e for e in payload["results"] if e.get("status") in ("written", "created", "deleted")]
    found = blast_radius(view, [_entry_path(e) for e in applied])
    for entry in applied:
        entry["dependents"] = found[_entry_path(entry)]
    payload["graph"] = view.note([_entry_path(e) for e in applied])
    notify_written(context, payload["results"])
    return payload
