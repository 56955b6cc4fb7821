"""The query facade `traverse_graph` and enrichment build on: every answer is a `GraphAnswer`.

Each method takes one snapshot for its whole answer (never waits for the reconciler), turns the
target into files, and says plainly when it cannot answer: no snapshot yet -> `undeterminable`, a
text-only file -> `unsupported_language`, an unknown file or symbol -> `not_indexed`. Relation
questions with nothing to report answer `no_references`; "find problems" questions (cycles,
unreferenced) with nothing to report answer `ok` with a reason.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from typing import Any

from .answers import (
    NO_REFERENCES,
    NOT_INDEXED,
    OK,
    UNDETERMINABLE,
    UNSUPPORTED_LANGUAGE,
    GraphAnswer,
    answer,
)
from .callers import BY_NAME, find_callers, is_member, shaped
from .dead_code import DeadCode, is_test_file, used_in_text
from .dynamic_lookups import lookup_sites
from .evidence import name_lines
from .facts import BuildVariants, Symbol
from .freshness import Freshness
from .languages import languages
from .protocol_methods import runtime_caller
from .records import TEXT
from .snapshot import KINDS, GraphSnapshot
from .supertypes import supertype_methods
from .traversal import cycles_through, reach, shortest_paths

_NAMES_SHOWN = 20
# An index built by `konstruct index` alone has the file graph and not yet its member tier.
MEMBERS_PENDING = ("member uses are not indexed yet (`konstruct index` builds the file graph alone; the first "
                   "symbol question asked with `konstruct tool`, over MCP or in a session builds them)")
_LOOKUP_SCAN = 5000  # files read for run-time lookups before an answer says "nothing"


class GraphQuery:
    def __init__(self, snapshot: Callable[[], GraphSnapshot | None], freshness: Freshness | None = None,
                 building: Callable[[], str] = lambda: "the code graph is still being built") -> None:
        self._snapshot = snapshot
        self._freshness = freshness
        self._building = building

    # --- file relations ------------------------------------------------------------------------

    def dependents(self, target: str, *, depth: int | None = 1, limit: int = 200,
                   kinds: tuple[str, ...] = KINDS, tests_only: bool = False) -> GraphAnswer:
        """Files that use `target` (a file or a folder: then only files outside it), nearest first."""
        return self._reach(target, inbound=True, depth=depth, limit=limit, kinds=kinds, tests_only=tests_only)

    def dependencies(self, target: str, *, depth: int | None = 1, limit: int = 200,
                     kinds: tuple[str, ...] = KINDS) -> GraphAnswer:
        return self._reach(target, inbound=False, depth=depth, limit=limit, kinds=kinds, tests_only=False)

    def tests_reaching(self, target: str, *, depth: int = 5, limit: int = 100) -> GraphAnswer:
        return self.dependents(target, depth=depth, limit=limit, tests_only=True)

    def _reach(self, target: str, *, inbound: bool, depth: int | None, limit: int,
               kinds: tuple[str, ...], tests_only: bool) -> GraphAnswer:
        snap, files, refusal = self._target(target)
        if refusal:
            return refusal
        found = reach(snap, files, inbound=inbound, kinds=kinds, depth=depth)
        if tests_only:
            found = [r for r in found if is_test_file(r.path)]
        results = [
            {"path": r.path, "distance": r.distance, "via": r.via, "kinds": list(r.kinds),
             "names": list(r.names[:_NAMES_SHOWN])}
            for r in found[:limit]
        ]
        if not results:
            what = "no test reaches it" if tests_only else ("nothing uses it" if inbound else "it uses no indexed file")
            return self._finish(snap, NO_REFERENCES, [], files, reason=f"{_shown(target)}: {what}")
        return self._finish(snap, OK, results, files, truncated=len(found) > limit)

    # --- symbols -------------------------------------------------------------------------------

    def definitions(self, symbol: str, *, file: str | None = None, limit: int = 20) -> GraphAnswer:
        snap, found, refusal = self._definitions(symbol, file)
        if refusal:
            return refusal
        results = [
            {"path": path, "symbol": s.name, "kind": s.kind, "start_line": s.start_line, "end_line": s.end_line}
            for path, s in found[:limit]
        ]
        return self._finish(snap, OK, results, [p for p, _ in found[:limit]], truncated=len(found) > limit)

    def references(self, symbol: str, *, file: str | None = None, limit: int = 200,
                   uses_only: bool = False) -> GraphAnswer:
        """Files that refer to a definition of `symbol` (the callers), each marked with its
        evidence (`resolved` or `by_name`, see `callers.py`) and its call-site lines.

        `uses_only` (the `callers` question): a Python file that only imports the name to pass it
        on (`from .api import get` in `__init__.py`, an unused import kept "for external
        consumers") does not use it; it is listed under `imported_only_by`, and as `via` on the
        callers that reach the name through it. An explicit `name as alias` import is a use of
        `name`, as type-aware references count it. Renames and impact keep every importer."""
        snap, found, refusal = self._definitions(symbol, file)
        if refusal:
            return refusal
        short = symbol.rsplit(".", 1)[-1]
        defining = sorted({path for path, _ in found})
        if not snap.side.complete:
            return self._finish(snap, UNDETERMINABLE, [], defining,
                                reason=f"{symbol} is defined in {', '.join(defining)}; {MEMBERS_PENDING}; "
                                       f"draw no conclusion")
        callers = find_callers(snap, found)
        for base_path, base in supertype_methods(snap, found, self._text):
            callers.add_base_callers(find_callers(snap, [(base_path, base)]), base.name, set(defining))
        builds = _builds_of(snap, found)
        if builds is not None:
            callers.set_apart(builds.other_build_callers(
                snap.files_under, found, sorted(callers.resolved),
                lambda path, name: any(s.name == name for s in snap.files[path].symbols()), self._text))
        passing = self._pass_throughs(snap, callers, short) if uses_only else []
        for path in passing:
            callers.resolved.pop(path)
        extra = {"imported_only_by": passing} if passing else {}
        results = shaped(snap, found, callers, self._text, lines_for=min(limit, 500))
        shown = results[:limit]
        files = [*defining, *(r["path"] for r in shown)]
        if callers.resolved:
            return self._finish(snap, OK, shown, files, truncated=len(results) > limit, extra=extra)
        if callers.candidates:
            return self._finish(
                snap, UNDETERMINABLE, shown, files, truncated=len(results) > limit,
                reason=f"{symbol} is defined in {', '.join(defining)}; no file was proven to use it, but "
                       f"{_candidates_note(callers, short)} (evidence by_name); draw no conclusion",
                extra=extra)
        loaded = self._loaded_by_name(snap, short, defining)
        if loaded:
            sites = [c.pop("site") for c in loaded]
            return self._finish(
                snap, UNDETERMINABLE, loaded[:limit], [*defining, *(c["path"] for c in loaded[:limit])],
                truncated=len(loaded) > limit,
                reason=f"{symbol} is defined in {', '.join(defining)}, which is loaded by name ({sites[0]}); uses "
                       f"through the loaded module cannot be proven (evidence by_name); draw no conclusion")
        lookups = self._run_time_lookups(snap, short, defining, any(is_member(s) for _, s in found))
        if lookups:
            candidates: list[dict[str, Any]] = [{"path": path, "targets": defining, "kinds": [], "evidence": BY_NAME,
                                                 "lines": [line], "lookup": what} for path, line, what in lookups]
            first = lookups[0]
            return self._finish(
                snap, UNDETERMINABLE, candidates[:limit], [*defining, *(path for path, _, _ in lookups[:limit])],
                truncated=len(candidates) > limit,
                reason=f"{symbol} is defined in {', '.join(defining)}; no file was proven to use it, but its name "
                       f"may be looked up at run time ({first[0]}:{first[1]}: {first[2]}; evidence by_name); "
                       f"draw no conclusion")
        protocol = next((why for path, s in found
                         if (why := runtime_caller(snap.files[path].language, s.name, self._text(path), s.start_line))), "")
        if protocol:
            return self._finish(snap, UNDETERMINABLE, [], defining,
                                reason=f"{symbol} is defined in {', '.join(defining)}; no file names it, but {protocol}; "
                                       f"draw no conclusion")
        local = [p for p in defining
                 if short in self._used_in_own_file(p, [s for s in snap.files[p].symbols() if s.name.rsplit(".", 1)[-1] == short], snap)]
        note = f" (used only inside {', '.join(local)})" if local else ""
        where = (f"; none of the {callers.searched} file(s) that can reach it uses .{short} on an untyped receiver"
                 if any("." in s.name for _, s in found) else "")
        told = f"uses it ({', '.join(passing)} only import it to pass it on)" if passing else "refers to it"
        return self._finish(snap, NO_REFERENCES, [], defining, extra=extra,
                            reason=f"{symbol} is defined in {', '.join(defining)}; no other file {told}{note}{where}")

    def _pass_throughs(self, snap: GraphSnapshot, callers: Any, short: str) -> list[str]:
        """Resolved callers that only import `short` (no use, no alias), in a language whose imports
        pass names on (`imports_pass_on`: a Python `__init__.py`)."""
        found = []
        for path, slot in sorted(callers.resolved.items()):
            support = languages().get(snap.files[path].language)
            if slot["kinds"] != {"imports"} or support is None or not support.imports_pass_on:
                continue
            text = self._text(path)
            if text is not None and not re.search(rf"\b{re.escape(short)}\s+as\s+\w", text):
                found.append(path)
        return found

    def _loaded_by_name(self, snap: GraphSnapshot, short: str, defining: list[str]) -> list[dict[str, Any]]:
        """Files that load a defining file by a name (`import_module("pkg.heavy")`,
        `await import('./heavy')` anywhere, a computed loader near it) and mention `short`:
        `mod.Heavy()` there may be a use the graph cannot prove. Read only before a "nothing"."""
        finder = DeadCode(snap, self._text, lambda path, found: set())
        found: dict[str, dict[str, Any]] = {}
        for site in (site for path in defining for site in finder.loaders_of(path)):
            other = site.split(":")[0]
            lines = name_lines(finder.read(other), short)
            if lines and other not in defining and other not in found:
                found[other] = {"path": other, "targets": defining, "kinds": [], "evidence": BY_NAME,
                                "lines": lines, "loads_by_name": True, "site": site}
        return list(found.values())

    def _run_time_lookups(self, snap: GraphSnapshot, short: str, defining: list[str], member: bool
                          ) -> list[tuple[str, int, str]]:
        """Before a confident "nothing": places in the defining files and the files that can reach
        them that may look `short` up by a name made at run time (`dynamic_lookups.py`). A whole
        string counts for members only (`getattr(obj, "handle_click")`): a module's functions are
        imported to be called, and their names as strings are lists of exports (h3's snapshot of
        `Object.keys(await import("../../src"))`), not lookups."""
        reached = reach(snap, defining, inbound=True, kinds=("imports", "references"), depth=None)
        paths = [*defining, *(r.path for r in reached[:_LOOKUP_SCAN])]
        return lookup_sites(short, paths, set(defining), self._text, strings=member)

    def _text(self, path: str) -> str | None:
        """A file's text through the workspace (None without one, or when it is gone)."""
        workspace = getattr(self._freshness, "workspace", None)
        if workspace is None:
            return None
        try:
            return workspace.read(path).data.decode("utf-8", "replace")
        except Exception:  # noqa: BLE001 - gone or refused since it was indexed
            return None

    def _definitions(self, symbol: str, file: str | None
                     ) -> tuple[GraphSnapshot, list[tuple[str, Symbol]], GraphAnswer | None]:
        snap = self._snapshot()
        if snap is None:
            # The answer is set, so callers return it before they read the (absent) snapshot.
            return snap, [], answer(UNDETERMINABLE, self._building())  # type: ignore[return-value]
        scope: set[str] | None = None
        if file:
            _, files, refusal = self._target(file, snap)
            if refusal:
                return snap, [], refusal
            scope = set(files)
        found = list(snap.symbol_index.get(symbol, ()))
        if not found and "." in symbol:  # `pkg.mod.func` or `Class.method` spelled from outside
            short = symbol.rsplit(".", 1)[-1]
            found = [(p, s) for p, s in snap.symbol_index.get(short, ()) if symbol.endswith(s.name)]
        if scope is not None:
            found = [(p, s) for p, s in found if p in scope]
        # `email` names the function `email` when there is one, not also every method `X.email`.
        exact = [(p, s) for p, s in found if s.name == symbol]
        found = exact or found
        if not found:
            where = f" in {_shown(file)}" if file else ""
            return snap, [], answer(NOT_INDEXED, f"no indexed file defines {symbol!r}{where}; try a text search")
        return snap, found, None

    # --- structure -----------------------------------------------------------------------------

    def shortest_paths(self, source: str, target: str, *, depth: int = 12, limit: int = 3,
                       kinds: tuple[str, ...] = KINDS) -> GraphAnswer:
        snap, sources, refusal = self._target(source)
        if refusal:
            return refusal
        _, targets, refusal = self._target(target, snap)
        if refusal:
            return refusal
        paths = shortest_paths(snap, sources, set(targets), kinds=kinds, depth=depth, limit=limit)
        if not paths:
            return self._finish(snap, NO_REFERENCES, [], [*sources, *targets],
                                reason=f"no dependency chain from {_shown(source)} to {_shown(target)} "
                                       f"within {depth} hops")
        results = [{"path": p, "length": len(p) - 1} for p in paths]
        return self._finish(snap, OK, results, [f for p in paths for f in p])

    def cycles(self, target: str, *, depth: int = 8, limit: int = 50,
               kinds: tuple[str, ...] = ("imports",)) -> GraphAnswer:
        snap, files, refusal = self._target(target)
        if refusal:
            return refusal
        found, truncated = cycles_through(snap, files, kinds=kinds, depth=depth, limit=limit)
        results = [{"cycle": c, "length": len(c) - 1} for c in found]
        reason = "" if found else f"no {'/'.join(kinds)} cycle of at most {depth} files goes through {_shown(target)}"
        return self._finish(snap, OK, results, [f for c in found for f in c] or files,
                            truncated=truncated, reason=reason)

    def neighborhood(self, target: str, *, limit: int = 100) -> GraphAnswer:
        snap, files, refusal = self._target(target)
        if refusal:
            return refusal
        hoods = snap.neighborhoods
        chosen = sorted({hoods.by_file[f] for f in files if f in hoods.by_file})
        if not chosen:
            return self._finish(snap, NO_REFERENCES, [], files,
                                reason=f"{_shown(target)} has no edges, so it belongs to no neighborhood")
        results = [hoods.items[i].to_json(limit) for i in chosen]
        shown = [m for r in results for m in r["members"]]
        # A big graph whose links moved answers with its last clusters until they are recomputed.
        extra = {} if snap.neighborhoods_current else {"neighborhoods_as_of": "before the latest edits; recomputing"}
        return self._finish(snap, OK, results, shown, truncated=any(r["truncated"] for r in results), extra=extra)

    def unreferenced(self, target: str = ".", *, limit: int = 200) -> GraphAnswer:
        """Files nothing refers to, and top-level symbols no other file names and their own file does
        not use. Entry points and test files are roots; whatever code loaded by a computed name
        (or used by name on an untyped receiver) may reach is `undeterminable`, never dead."""
        snap, files, refusal = self._target(target)
        if refusal:
            return refusal
        if not snap.side.complete:
            return self._finish(snap, UNDETERMINABLE, [], [], reason=f"{MEMBERS_PENDING}; draw no conclusion")
        finder = DeadCode(snap, self._text, lambda path, found: self._used_in_own_file(path, found, snap))
        found = finder.find(files)
        results = found.dead
        extra: dict[str, Any] = {}
        if found.uncertain:
            extra["undeterminable"] = found.uncertain[:limit]
        if found.roots:
            extra["entry_points"] = found.roots[:limit]
        if not results and found.uncertain:
            first = found.uncertain[0]
            return self._finish(snap, UNDETERMINABLE, [], [u["path"] for u in found.uncertain[:limit]],
                                reason=f"nothing in {_shown(target)} is provably dead: {len(found.uncertain)} "
                                       f"file(s)/symbol(s) may be reached at run time ({first['path']}: "
                                       f"{first['reason']})", extra=extra)
        reason = "" if results else f"everything in {_shown(target)} is referenced or an entry point"
        return self._finish(snap, OK, results[:limit], [r["path"] for r in results[:limit]],
                            truncated=len(results) > limit, reason=reason, extra=extra)

    def _used_in_own_file(self, path: str, candidates: list[Any], snap: GraphSnapshot) -> set[str]:
        """Names among `candidates` that their own file mentions beyond their definitions.

        The extractors' `uses` also hold the name at its definition site, so they cannot tell a
        helper that is called from one that is not; counting the name's occurrences in the file's
        text can. Without the workspace (or the file) at hand, the index's own record is used."""
        if not candidates:
            return set()
        text = self._text(path)
        if text is None:
            return set(snap.files[path].used_here.split())
        return used_in_text(text, candidates, [s.name.rsplit(".", 1)[-1] for s in snap.files[path].symbols()])

    # --- shared --------------------------------------------------------------------------------

    def _target(self, target: str, snap: GraphSnapshot | None = None
                ) -> tuple[GraphSnapshot, list[str], GraphAnswer | None]:
        """The parsed files a target names, or the answer that explains why there are none."""
        snap = snap or self._snapshot()
        if snap is None:
            return snap, [], answer(UNDETERMINABLE, self._building())  # type: ignore[return-value]  # answer set: snap unread
        path = _normal(target)
        entry = snap.files.get(path)
        if entry is not None:
            if entry.language == TEXT:
                return snap, [], answer(UNSUPPORTED_LANGUAGE,
                                        f"{path} is indexed as text only; the graph knows no structure for it")
            if not entry.parsed:
                return snap, [], answer(UNDETERMINABLE, f"{path} was not parsed ({entry.note.replace('_', ' ')})")
            return snap, [path], None
        under = snap.files_under(path)
        if under:
            parsed = [p for p in under if snap.files[p].parsed]
            if parsed:
                return snap, parsed, None
            if all(snap.files[p].language == TEXT for p in under):
                return snap, [], answer(UNSUPPORTED_LANGUAGE, f"{path or '.'} holds no file in a supported language")
            return snap, [], answer(UNDETERMINABLE, f"no file under {path} could be parsed")
        return snap, [], answer(NOT_INDEXED, f"{path or '.'} is not in the index (new, ignored or missing)")

    def _finish(self, snap: GraphSnapshot, status: str, results: list[dict[str, Any]], files: Iterable[str],
                *, truncated: bool = False, reason: str = "", extra: dict[str, Any] | None = None) -> GraphAnswer:
        named = {r["path"] for r in results if isinstance(r.get("path"), str)}
        files = sorted(named | set(files))
        stale = self._freshness.stale(snap, files) if self._freshness else ()
        ahead = self._freshness.ahead_of_index(snap, files) if self._freshness else ()
        return GraphAnswer(status, tuple(results), stale, ahead, truncated, reason, extra or {})


def _builds_of(snap: GraphSnapshot, found: list[tuple[str, Symbol]]) -> BuildVariants | None:
    """The build variants of the declarations' language, when they are all of one that has them."""
    spoken = {snap.files[path].language for path, _ in found}
    support = languages().get(spoken.pop()) if len(spoken) == 1 else None
    return support.builds if support is not None else None


def _normal(target: str) -> str:
    """The index's spelling of a target: `./pkg//a/../b.py` -> `pkg/b.py`, the root -> ""."""
    path = target.strip().replace("\\", "/")
    if not path:
        return ""
    path = posixpath.normpath(path).rstrip("/")
    return "" if path == "." else path


def _shown(target: str | None) -> str:
    return _normal(target or "") or "."


def _candidates_note(callers: Any, short: str) -> str:
    """What the candidates of an `undeterminable` answer do: use the name on untyped receivers,
    call an override in a subclass or the supertype method this one overrides, or call it only
    in another build (Go build constraints)."""
    marked = {**{p: "override" for p in callers.overrides}, **{p: "base" for p in callers.through_base},
              **{p: "build" for p in callers.other_build}}
    plain = sum(1 for path in callers.candidates if path not in marked)
    count = sum(1 for path in callers.candidates if marked.get(path) == "override")
    base = sum(1 for path in callers.candidates if marked.get(path) == "base")
    builds = sorted({(why, twin) for path, (why, twin) in callers.other_build.items() if path in callers.candidates})
    built = sum(1 for path in callers.candidates if marked.get(path) == "build")
    notes = [f"{plain} file(s) that can reach it use .{short} on receivers whose types could not be proven"] if plain else []
    notes += [f"{count} file(s) call an override of it in a subclass"] if count else []
    notes += [f"{base} file(s) call the supertype method it overrides"] if base else []
    if built:
        where = "; ".join(f"{why}" + (f" (the default build binds their calls to {twin})" if twin else "")
                          for why, twin in builds)
        notes.append(f"{built} file(s) call it only when built with {where}")
    return ", ".join(notes)
