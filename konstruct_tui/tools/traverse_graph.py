"""traverse_graph: structural questions about files, folders and symbols, one `mode` each.

The walk itself is the graph's query facade; this module picks the facade call and the bounds from
the mode table, checks the input, and shapes the answer. Every answer has `mode`, `status`,
`results`, `bounds`, `truncated`, `stale`, `ahead_of_index` (and `reason` when it helps)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar, Literal

from pydantic import Field

from ..graph import BY_NAME, NO_REFERENCES, OK, RESOLVED, UNDETERMINABLE, GraphAnswer, is_test_file, reach
from ..workspace import Workspace
from .base import Tool, ToolContext, ToolError, ToolInput, ToolResult
from .blind_spots import mark_unreadable
from .graph_access import GraphAccess, graph_of, not_ready_reason
from .paths import relative_target
from .traverse_modes import MODE_NAMES, MODES, Mode

ModeName = Literal[
    "impact", "directory_impact", "rename_symbol", "rename_file", "move_directory", "dependents",
    "dependencies", "transitive_dependencies", "callers", "definition", "path", "cycles", "neighborhood",
    "unreferenced", "tests",
]
assert set(ModeName.__args__) == set(MODE_NAMES)  # type: ignore[attr-defined]  # one table, one list


class TraverseGraphInput(ToolInput):
    mode: ModeName = Field(description="the question: " + "; ".join(f"{m.name}: {m.question}" for m in MODES.values()))
    target: str | None = Field(default=None, description="a workspace-relative file or folder (for symbol modes: "
                               "the file that defines the symbol, when the name is ambiguous)")
    symbol: str | None = Field(default=None, description="a symbol name (callers, definition, rename_symbol; impact, tests)")
    source: str | None = Field(default=None, description="mode path: the file or folder the chain starts from")


class TraverseGraph(Tool[TraverseGraphInput]):
    name: ClassVar[str] = "traverse_graph"
    description: ClassVar[str] = (
        "Ask the code graph a structural question (imports and references between files). Modes: "
        + ", ".join(MODE_NAMES)
        + ". Each answer has status (ok, no_references, not_indexed, undeterminable, unsupported_language), "
        "results nearest first, the bounds it searched within, and stale / ahead_of_index files to re-read. "
        "Symbol answers (callers, rename_symbol, impact) mark each result's evidence: resolved (proven) or "
        "by_name (the name used on a receiver whose type could not be proven), with call-site lines; "
        "undeterminable means only by-name candidates exist: draw no conclusion."
    )
    mutating: ClassVar[bool] = False

    def run(self, params: TraverseGraphInput, context: ToolContext) -> ToolResult:
        mode = MODES[params.mode]
        _check(params, mode)
        graph = graph_of(context, structural=True, members=_reads_members(mode, params))
        if graph.snapshot is None:
            found = GraphAnswer(UNDETERMINABLE, reason=not_ready_reason(graph))
        else:
            found = _ask(graph, mode, params, context.workspace)
        payload: dict[str, Any] = {"mode": mode.name}
        for key in ("target", "symbol", "source"):
            value = getattr(params, key)
            if value is not None:
                payload[key] = value
        payload.update(found.to_json())
        payload["bounds"] = mode.bounds()
        return ToolResult(self.name, mark_unreadable(payload, context.workspace))


def _reads_members(mode: Mode, params: TraverseGraphInput) -> bool:
    """Whether the answer reads member evidence (who calls a method, what is dead), so a headless
    call must have the index's member tier built first."""
    if mode.name == "definition":
        return False
    return mode.name == "unreferenced" or bool(params.symbol)


def _check(params: TraverseGraphInput, mode: Mode) -> None:
    for key in ("target", "source"):
        if getattr(params, key) is not None:
            relative_target(getattr(params, key), key)
    if mode.needs == "symbol" and not params.symbol:
        raise ToolError(f"mode {mode.name} needs a symbol (and a target file when the name is ambiguous)")
    if mode.needs == "source_target" and not (params.source and params.target):
        raise ToolError("mode path needs a source and a target (files or folders)")
    if mode.needs == "target" and not params.target and not (mode.name in ("impact", "tests") and params.symbol):
        if mode.name in ("unreferenced", "cycles", "neighborhood"):
            return  # these read the whole project when no target is given
        raise ToolError(f"mode {mode.name} needs a target (a workspace-relative file or folder)")


def _ask(graph: GraphAccess, mode: Mode, params: TraverseGraphInput, workspace: Workspace) -> GraphAnswer:
    query = graph.query
    target = relative_target(params.target) or "."
    name = mode.name
    if name in ("impact", "directory_impact", "rename_file", "move_directory", "dependents", "tests"):
        if name == "impact" and params.symbol:
            return _symbol_impact(graph, mode, params.symbol, _file(params))
        if name == "tests" and params.symbol:
            return _symbol_tests(graph, mode, params.symbol, _file(params))
        if name == "tests":
            # not deepened: a level with no test file in it says nothing about the next one
            return query.tests_reaching(target, depth=mode.depth or 5, limit=mode.limit)
        return _deepening(lambda d: query.dependents(target, depth=d, limit=mode.limit, kinds=mode.kinds), mode.depth)
    if name in ("dependencies", "transitive_dependencies"):
        return _deepening(lambda d: query.dependencies(target, depth=d, limit=mode.limit, kinds=mode.kinds), mode.depth)
    if name == "callers":
        return _nearest_first(query.references(params.symbol or "", file=_file(params), limit=mode.limit,
                                               uses_only=True))
    if name == "definition":
        return query.definitions(params.symbol or "", file=_file(params), limit=mode.limit)
    if name == "rename_symbol":
        return _rename_symbol(graph, mode, params.symbol or "", _file(params), workspace)
    if name == "path":
        source = relative_target(params.source, "source") or "."
        return query.shortest_paths(source, target, depth=mode.depth or 12, limit=mode.limit, kinds=mode.kinds)
    if name == "cycles":
        return query.cycles(target, depth=mode.depth or 8, limit=mode.limit, kinds=mode.kinds)
    if name == "neighborhood":
        return query.neighborhood(target, limit=mode.limit)
    return query.unreferenced(target, limit=mode.limit)


def _file(params: TraverseGraphInput) -> str | None:
    """The file (or folder) that narrows a symbol question, normalized; None when not given."""
    return relative_target(params.target) or None if params.target is not None else None


def _nearest_first(found: GraphAnswer) -> GraphAnswer:
    """Callers ranked by evidence (resolved before by-name candidates), then by proximity: a
    candidate's graph distance, a resolved caller's folder hops to the file it uses, then path."""
    def rank(r: dict[str, Any]) -> tuple[bool, int, int, str]:
        hops = min(_hops(r["path"], t) for t in r["targets"] or [""])
        return r.get("evidence") == BY_NAME, r.get("distance", 0), hops, r["path"]

    return replace(found, results=tuple(sorted(found.results, key=rank)))


def _hops(a: str, b: str) -> int:
    left, right = a.split("/")[:-1], b.split("/")[:-1]
    shared = 0
    for x, y in zip(left, right, strict=False):
        if x != y:
            break
        shared += 1
    return len(left) + len(right) - 2 * shared


def _deepening(walk: Callable[[int], GraphAnswer], depth: int | None) -> GraphAnswer:
    """The walk at depth 1, 2, ... until it overflows its limit, stops growing, or reaches `depth`.

    Results are ranked by distance, so once a shallower walk overflows the limit, the deeper walk
    would return the same first `limit` files (and truncated): a hub file imported by half the
    project answers after one hop instead of after walking the whole graph."""
    if depth is None:
        return walk(depth)  # type: ignore[arg-type]
    answer = walk(1)
    for level in range(2, depth + 1):
        if answer.truncated or answer.status != OK:
            return answer
        deeper = walk(level)
        if len(deeper.results) == len(answer.results) and not deeper.truncated:
            return deeper  # nothing new at this distance: nothing further either
        answer = deeper
    return answer


def _symbol_impact(graph: GraphAccess, mode: Mode, symbol: str, file: str | None) -> GraphAnswer:
    """The symbol's callers (distance 1), then whatever reaches them, up to the mode's depth."""
    callers = graph.query.references(symbol, file=file, limit=10_000)
    if callers.status != OK:
        return _nearest_first(callers)  # undeterminable answers keep their by-name candidates
    snapshot = graph.snapshot
    assert snapshot is not None
    proven = [r for r in callers.results if r.get("evidence", RESOLVED) == RESOLVED]
    candidates = [r for r in callers.results if r.get("evidence") == BY_NAME]
    first = [r["path"] for r in proven]
    results: list[dict[str, Any]] = [
        {"path": r["path"], "distance": 1, "via": (r["targets"] or [""])[0], "kinds": r["kinds"], "names": [symbol],
         "evidence": RESOLVED, "lines": r.get("lines")}
        for r in proven
    ]
    defining = {t for r in callers.results for t in r["targets"]}
    further = reach(snapshot, first, inbound=True, kinds=mode.kinds, depth=(mode.depth or 3) - 1)
    results += [
        {"path": r.path, "distance": r.distance + 1, "via": r.via, "kinds": list(r.kinds), "names": list(r.names[:20]),
         "evidence": RESOLVED}
        for r in further if r.path not in defining
    ]
    seen = {r["path"] for r in results}
    results += [
        {"path": r["path"], "distance": 1, "via": (r["targets"] or [""])[0], "kinds": [], "names": [symbol],
         "evidence": BY_NAME, "lines": r.get("lines"), **_build_marks(r)}
        for r in candidates if r["path"] not in seen
    ]
    shown = results[: mode.limit]
    files = sorted({r["path"] for r in shown} | defining)
    return GraphAnswer(OK, tuple(shown), graph.freshness.stale(snapshot, files),
                       graph.freshness.ahead_of_index(snapshot, files), len(results) > mode.limit)


def _symbol_tests(graph: GraphAccess, mode: Mode, symbol: str, file: str | None) -> GraphAnswer:
    """The tests to run first after changing a symbol: test files that call it (resolved, then
    by-name candidates, with their lines), then the other test files that reach its file."""
    defined = graph.query.definitions(symbol, file=file, limit=10_000)
    if defined.status != OK:
        return defined  # not found, ambiguous, not indexed
    defining = sorted({r["path"] for r in defined.results})
    callers = _nearest_first(graph.query.references(symbol, file=file, limit=10_000))
    results: list[dict[str, Any]] = [
        {"path": r["path"], "distance": 1, "via": (r["targets"] or [""])[0], "kinds": r["kinds"], "names": [symbol],
         "evidence": r["evidence"], "lines": r.get("lines")}
        for r in callers.results if is_test_file(r["path"])
    ]
    seen = {r["path"] for r in results}
    reaching: dict[str, dict[str, Any]] = {}
    for path in defining:
        for r in graph.query.tests_reaching(path, depth=mode.depth or 5, limit=mode.limit).results:
            if r["path"] not in seen and (r["path"] not in reaching or r["distance"] < reaching[r["path"]]["distance"]):
                reaching[r["path"]] = r
    results += sorted(reaching.values(), key=lambda r: (r["distance"], r["path"]))
    snapshot = graph.snapshot
    assert snapshot is not None
    shown = results[: mode.limit]
    files = sorted({r["path"] for r in shown} | set(defining))
    stale, ahead = graph.freshness.stale(snapshot, files), graph.freshness.ahead_of_index(snapshot, files)
    if not results:
        return GraphAnswer(NO_REFERENCES, (), stale, ahead,
                           reason=f"no test file calls {symbol} or reaches {', '.join(defining)}")
    return GraphAnswer(OK, tuple(shown), stale, ahead, len(results) > mode.limit)


def _rename_symbol(graph: GraphAccess, mode: Mode, symbol: str, file: str | None, workspace: Workspace
                   ) -> GraphAnswer:
    """Definitions and referring files, each with the lines that spell the name (read through the
    workspace), so a rename can be planned as one write_code batch."""
    defined = graph.query.definitions(symbol, file=file, limit=mode.limit)
    if defined.status != OK:
        return defined
    used = graph.query.references(symbol, file=file, limit=mode.limit)
    short = symbol.rsplit(".", 1)[-1]
    word = re.compile(rf"(?<![\w$]){re.escape(short)}(?![\w$])")
    results: list[dict[str, Any]] = []
    for d in defined.results:
        results.append({"path": d["path"], "role": "definition", "symbol": d["symbol"], "kind": d["kind"],
                        "start_line": d["start_line"], "lines": _lines_naming(workspace, d["path"], word)})
    for r in used.results:
        if r.get("evidence") == BY_NAME:  # may be a use: only the member spellings are listed
            results.append({"path": r["path"], "role": "candidate", "targets": r["targets"], "kinds": r["kinds"],
                            "evidence": BY_NAME, "lines": r.get("lines"), **_build_marks(r)})
            continue
        results.append({"path": r["path"], "role": "reference", "targets": r["targets"], "kinds": r["kinds"],
                        "evidence": RESOLVED, "lines": _lines_naming(workspace, r["path"], word)})
    shown = results[: mode.limit]
    if used.status == UNDETERMINABLE:  # by-name users, a run-time lookup or a protocol the rename would break
        reason = f"{used.reason.removesuffix('; draw no conclusion')}: check each before renaming"
    elif not used.results:
        reason = f"{symbol} is named only where it is defined"
    else:
        reason = ""
    return GraphAnswer(OK, tuple(shown), tuple(sorted(set(defined.stale) | set(used.stale))),
                       tuple(sorted(set(defined.ahead_of_index) | set(used.ahead_of_index))),
                       len(results) > mode.limit or used.truncated, reason)


def _build_marks(result: dict[str, Any]) -> dict[str, Any]:
    """A Go candidate's build constraint (`built_with`) and where the default build binds it."""
    return {key: result[key] for key in ("built_with", "binds_by_default") if key in result}


def _lines_naming(workspace: Workspace, path: str, word: re.Pattern[str]) -> list[int] | None:
    try:
        text = workspace.read(path).data.decode("utf-8", "replace")
    except Exception:  # gone or refused since it was indexed: the file is still named, lines unknown
        return None
    return [i for i, line in enumerate(text.splitlines(), 1) if word.search(line)]
