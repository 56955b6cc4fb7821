"""search: one tool, five ways to match (text, regex, glob, symbol, meaning). Every hit carries a
suggested line range to read next and its neighborhood; the result names the engine that answered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field

from ..graph import NOT_INDEXED, OK, UNDETERMINABLE, GraphSnapshot, Symbol
from .base import Tool, ToolContext, ToolInput, ToolResult
from .blind_spots import mark_unreadable
from .globs import path_filter
from .graph_access import graph_of, not_ready_reason
from .hits import finish_hits, neighborhoods_at_hand
from .meaning import meaning_index
from .ripgrep import search_lines

MAX_LIMIT = 1000


class SearchInput(ToolInput):
    query: str = Field(min_length=1, description="the text, regex, glob, symbol name or request words")
    match: Literal["text", "regex", "glob", "symbol", "meaning"] = Field(
        default="text",
        description="text: literal; regex: ripgrep regex; glob: file paths; symbol: definitions in the "
        "code graph; meaning: symbols and files ranked by the query's words (BM25)",
    )
    path_glob: str | None = Field(default=None, description="only paths matching this glob, e.g. 'src/**' or '*.py'")
    limit: int = Field(default=50, ge=1, le=MAX_LIMIT)
    ignore_case: bool = Field(default=False, description="text and regex: match case-insensitively")


class Search(Tool[SearchInput], name="search", mutating=False):
    """Find code. match=text (literal) or regex (ripgrep, .gitignore honored), glob (file paths),
    symbol (definitions from the code graph), meaning (symbols and files ranked by your words). Each
    hit has path, line, suggested_range (about 40 lines to read next) and neighborhood."""

    def run(self, params: SearchInput, context: ToolContext) -> ToolResult:
        if params.match in ("text", "regex"):
            payload = self._lines(params, context)
        elif params.match == "glob":
            payload = self._glob(params, context)
        else:
            payload = self._graph(params, context)
        payload = {"query": params.query, "match": params.match, **payload}
        if params.path_glob:
            payload["path_glob"] = params.path_glob
        return ToolResult(self.name, payload)

    def _lines(self, params: SearchInput, context: ToolContext) -> dict[str, Any]:
        globs = [params.path_glob.strip().removeprefix("./")] if params.path_glob else []
        found, truncated = search_lines(
            context.workspace.root, params.query, literal=params.match == "text",
            ignore_case=params.ignore_case, globs=globs, limit=params.limit,
        )
        snapshot = _existing_snapshot(context)
        hits = [{"path": h.path, "line": h.line, "text": h.text} for h in found]
        return {"engine": "ripgrep", "status": OK, "results": finish_hits(hits, context.workspace, snapshot),
                "truncated": truncated}

    def _glob(self, params: SearchInput, context: ToolContext) -> dict[str, Any]:
        wanted = path_filter(params.query)
        scope = path_filter(params.path_glob)
        files = context.workspace.files()
        chosen = [p for p in files if wanted(p) and scope(p)]
        if not chosen and "/" in params.query.strip("/") and not params.query.startswith(("**", "/", "!")):
            # `tools/*.py` is anchored at the root, as in .gitignore; people often mean "any tools/"
            wanted = path_filter("**/" + params.query)
            chosen = [p for p in files if wanted(p) and scope(p)]
        snapshot = _existing_snapshot(context)
        hits = [{"path": p} for p in chosen[: params.limit]]
        return {"engine": "glob", "status": OK, "results": finish_hits(hits, context.workspace, snapshot),
                "truncated": len(chosen) > params.limit}

    def _graph(self, params: SearchInput, context: ToolContext) -> dict[str, Any]:
        graph = graph_of(context, structural=True)
        snapshot = graph.snapshot
        engine = "index" if params.match == "symbol" else "bm25"
        if snapshot is None:
            return {"engine": engine, "status": UNDETERMINABLE, "results": [], "truncated": False,
                    "reason": not_ready_reason(graph)}
        scope = path_filter(params.path_glob)
        if params.match == "symbol":
            hits, total = _symbols(snapshot, params.query, scope, params.limit)
        else:
            hits, total = _meaning(snapshot, context, params.query, scope, params.limit)
        payload: dict[str, Any] = {"engine": engine, "status": OK if hits else NOT_INDEXED,
                                   "results": finish_hits(hits, context.workspace, snapshot),
                                   "truncated": total > params.limit}
        if not hits:
            payload["reason"] = (
                f"no indexed definition is named like {params.query!r}; try match=text"
                if params.match == "symbol" else "no symbol or file shares a word with the query; try match=text"
            )
        paths = sorted({h["path"] for h in payload["results"]})
        payload["stale"] = list(graph.freshness.stale(snapshot, paths))
        payload["ahead_of_index"] = list(graph.freshness.ahead_of_index(snapshot, paths))
        return mark_unreadable(payload, context.workspace)


def _existing_snapshot(context: ToolContext) -> GraphSnapshot | None:
    """Neighborhoods for text and glob hits come from whatever graph is already there; never built
    for them (nor computed on a large project that has none yet)."""
    try:
        return neighborhoods_at_hand(graph_of(context, structural=False).snapshot, structural=False)
    except Exception:  # enrichment is best-effort
        return None


def _symbols(snapshot: GraphSnapshot, query: str, scope: Callable[[str], bool], limit: int
             ) -> tuple[list[dict[str, Any]], int]:
    """Definitions whose name matches, best first: the exact name, any case, a name starting with the
    query, a name containing it, and last a qualified name containing it (`Executor.map` for
    "Executor" ranks below `ThreadPoolExecutor`)."""
    wanted = query.strip()
    low = wanted.lower()
    ranked: list[tuple[int, int, str, int, Symbol]] = []
    seen: set[tuple[str, str, int]] = set()
    for name, places in snapshot.symbol_index.items():
        if low not in name.lower():
            continue
        for path, symbol in places:
            key = (path, symbol.name, symbol.start_line)
            if key in seen or not scope(path):
                continue
            seen.add(key)
            ranked.append((_symbol_rank(symbol.name, wanted, low), len(symbol.name), path, symbol.start_line, symbol))
    ranked.sort(key=lambda r: r[:4])
    hits = [
        {"path": path, "line": line, "end_line": s.end_line, "symbol": s.name, "kind": s.kind}
        for _, _, path, line, s in ranked[:limit]
    ]
    return hits, len(ranked)


def _symbol_rank(full: str, wanted: str, low: str) -> int:
    short = full.rsplit(".", 1)[-1]
    if wanted in (short, full):
        return 0
    if low in (short.lower(), full.lower()):
        return 1
    if short.lower().startswith(low):
        return 2
    return 3 if low in short.lower() else 4


def _meaning(snapshot: GraphSnapshot, context: ToolContext, query: str, scope: Callable[[str], bool],
             limit: int) -> tuple[list[dict[str, Any]], int]:
    index = meaning_index(snapshot, context.workspace)
    ranked = [(d, s) for d, s in index.rank(query, limit * 4 + 1)
              if scope(d.path)]
    hits = []
    for document, score in ranked[:limit]:
        hit: dict[str, Any] = {"path": document.path, "score": score, "kind": document.kind}
        if document.symbol is not None:
            hit.update(line=document.start_line, end_line=document.end_line, symbol=document.symbol)
        hits.append(hit)
    return hits, len(ranked)
