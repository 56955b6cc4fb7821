"""enumerate: list one collection of the project — files, directories, symbols (of a file or
folder), neighborhoods, languages, or the project's own runnable scripts."""

from __future__ import annotations

from collections import Counter
from pathlib import PurePosixPath
from typing import Any, Literal

from pydantic import Field

from ..graph import (
    NOT_INDEXED,
    NO_REFERENCES,
    OK,
    TEXT,
    UNDETERMINABLE,
    UNSUPPORTED_LANGUAGE,
    GraphSnapshot,
)
from ..graph.languages import language_for
from ..workspace import unreadable_folders
from .base import Tool, ToolContext, ToolInput, ToolResult
from .globs import path_filter
from .graph_access import graph_of, not_ready_reason
from .paths import relative_target

MAX_LIMIT = 10_000


class EnumerateInput(ToolInput):
    collection: Literal["files", "directories", "symbols", "neighborhoods", "languages", "scripts"]
    target: str | None = Field(default=None, description="a folder (files, directories, symbols, languages) or a "
                               "file (symbols, neighborhoods); default: the whole project")
    glob: str | None = Field(default=None, description="only paths matching this glob, e.g. '**/*.py'")
    limit: int = Field(default=1000, ge=1, le=MAX_LIMIT)


class Enumerate(Tool[EnumerateInput], name="enumerate", mutating=False):
    """List a collection: files (target folder, glob), directories (with file counts), symbols (of a
    file or folder, from the code graph), neighborhoods (clusters of files that depend on each
    other), languages (files per language), scripts (the project's runnable scripts for
    run_command)."""

    def run(self, params: EnumerateInput, context: ToolContext) -> ToolResult:
        target = relative_target(params.target)
        listing = {
            "files": _files, "directories": _directories, "languages": _languages,
            "symbols": _symbols, "neighborhoods": _neighborhoods, "scripts": _scripts,
        }[params.collection]
        items, extra = listing(context, target, params)
        payload: dict[str, Any] = {"collection": params.collection}
        if params.target is not None:
            payload["target"] = target or "."
        if params.glob:
            payload["glob"] = params.glob
        payload.update({"status": OK, **extra})
        payload["results"] = items[: params.limit]
        payload["total"] = len(items)
        payload["truncated"] = len(items) > params.limit
        return ToolResult(self.name, payload)


def _chosen_files(context: ToolContext, target: str, glob: str | None) -> list[str]:
    files = context.workspace.files()
    if target:
        if target in files:
            files = [target]
        else:
            files = [p for p in files if p.startswith(target + "/")]
    if glob:
        keep = path_filter(glob)
        files = [p for p in files if keep(p)]
    return files


def _files(context: ToolContext, target: str, params: EnumerateInput) -> tuple[list[Any], dict[str, Any]]:
    files = _chosen_files(context, target, params.glob)
    if target and not files and target not in context.workspace.files():
        return [], _missing(context, target)
    return [{"path": p, "language": _language(p)} for p in files], {}


def _directories(context: ToolContext, target: str, params: EnumerateInput) -> tuple[list[Any], dict[str, Any]]:
    counts: Counter[str] = Counter()
    for path in _chosen_files(context, target, params.glob):
        parent = PurePosixPath(path).parent
        folder = parent.as_posix()
        while folder not in (".", "") and (not target or folder == target or folder.startswith(target + "/")):
            counts[folder] += 1
            parent = parent.parent
            folder = parent.as_posix()
    if target and not counts:
        return [], _missing(context, target)
    return [{"path": d, "files": n} for d, n in sorted(counts.items()) if d != target], {}


def _languages(context: ToolContext, target: str, params: EnumerateInput) -> tuple[list[Any], dict[str, Any]]:
    counts = Counter(_language(p) for p in _chosen_files(context, target, params.glob))
    items = [{"language": name, "files": n, "structural": name != TEXT} for name, n in counts.most_common()]
    return items, {}


def _language(path: str) -> str:
    support = language_for(path)
    return support.name if support is not None else TEXT


def _missing(context: ToolContext, target: str) -> dict[str, Any]:
    return {"status": NOT_INDEXED, "reason": f"{target} is not a file or folder of this workspace (or it is ignored)"}


def _symbols(context: ToolContext, target: str, params: EnumerateInput) -> tuple[list[Any], dict[str, Any]]:
    graph = graph_of(context, structural=True)
    snapshot = graph.snapshot
    if snapshot is None:
        return [], {"status": UNDETERMINABLE, "reason": not_ready_reason(graph)}
    files, refusal = _graph_files(snapshot, target)
    if refusal:
        return [], refusal
    if params.glob:
        keep = path_filter(params.glob)
        files = [p for p in files if keep(p)]
    items = [
        {"path": p, "symbol": s.name, "kind": s.kind, "start_line": s.start_line, "end_line": s.end_line}
        for p in files for s in snapshot.files[p].symbols()
    ]
    extra: dict[str, Any] = {"stale": list(graph.freshness.stale(snapshot, files)),
                             "ahead_of_index": list(graph.freshness.ahead_of_index(snapshot, files))}
    folders = unreadable_folders(context.workspace.root)
    if folders:  # the index cannot see in there (see blind_spots)
        extra["unreadable"] = list(folders)
    if not items:
        extra.update(status=NO_REFERENCES, reason=f"{target or '.'} defines no symbols")
    return items, extra


def _neighborhoods(context: ToolContext, target: str, params: EnumerateInput) -> tuple[list[Any], dict[str, Any]]:
    graph = graph_of(context, structural=True)
    snapshot = graph.snapshot
    if snapshot is None:
        return [], {"status": UNDETERMINABLE, "reason": not_ready_reason(graph)}
    hoods = snapshot.neighborhoods
    chosen = list(hoods.items)
    if target:
        files, refusal = _graph_files(snapshot, target)
        if refusal:
            return [], refusal
        wanted = {hoods.by_file[f] for f in files if f in hoods.by_file}
        chosen = [h for h in chosen if h.id in wanted]
    items = [h.to_json(limit=100) for h in chosen]
    if not items:
        return [], {"status": NO_REFERENCES, "reason": "no file here depends on another, so there are no neighborhoods"}
    return items, {}


def _scripts(context: ToolContext, target: str, params: EnumerateInput) -> tuple[list[Any], dict[str, Any]]:
    from ..commands import discover_scripts

    return [s.to_json() for s in discover_scripts(context.workspace)], {}


def _graph_files(snapshot: GraphSnapshot, target: str) -> tuple[list[str], dict[str, Any] | None]:
    """The indexed files a target names, or why there are none (the statuses of the query facade)."""
    entry = snapshot.files.get(target) if target else None
    if entry is not None:
        if entry.language == TEXT:
            return [], {"status": UNSUPPORTED_LANGUAGE, "reason": f"{target} is indexed as text only"}
        return [target], None
    files = [p for p in snapshot.files_under(target) if snapshot.files[p].structural]
    if files:
        return files, None
    if snapshot.files_under(target):
        return [], {"status": UNSUPPORTED_LANGUAGE, "reason": f"{target} holds no file in a supported language"}
    return [], {"status": NOT_INDEXED, "reason": f"{target or '.'} is not in the index (new, ignored or missing)"}
