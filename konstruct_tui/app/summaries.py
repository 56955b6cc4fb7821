"""One-line words for tool calls and batch entries. Plain Python (no Textual), so it is tested alone
and every pane says the same thing the same way."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..agent import ToolFinished
from .command_report import command_report

# Which theme token colors each per-entry status (DESIGN.md §4 words). Unknown words get the
# "rejected" color: a status the UI has never heard of deserves attention, not a calm green.
STATUS_TOKENS: dict[str, str] = {
    "ok": "status-ok",
    "written": "status-ok",
    "created": "status-ok",
    "deleted": "status-ok",
    "conflict": "status-conflict",
    "skipped": "status-skipped",
    "binary": "status-skipped",
    "too_large": "status-skipped",
    "not_found": "status-rejected",
    "refused": "status-rejected",
    "rejected": "status-rejected",
    "error": "status-rejected",
    "rolled_back": "status-rolled-back",
}


def status_token(status: str) -> str:
    return STATUS_TOKENS.get(status, "status-rejected")


def describe_call(tool: str, arguments: dict[str, Any], width: int = 60) -> str:
    """What a call is about, in a few words: its paths, its query, its command."""
    subject = _subject(tool, arguments)
    return _clip(subject, width) if subject else ""


def _subject(tool: str, arguments: dict[str, Any]) -> str:
    if "paths" in arguments:
        return ", ".join(_path_of(entry) for entry in arguments.get("paths") or [])
    if "edits" in arguments:
        return ", ".join(_path_of(entry) for entry in arguments.get("edits") or [])
    if "query" in arguments:
        return f"{arguments.get('match', 'text')} {arguments['query']!r}"
    if "script" in arguments and isinstance(arguments["script"], str):
        return f"script {arguments['script']}"
    if "command" in arguments:
        return str(arguments["command"])
    if "mode" in arguments:
        target = arguments.get("symbol") or arguments.get("target") or ""
        return f"{arguments['mode']} {target}".strip()
    if "collection" in arguments:
        return str(arguments["collection"])
    if "summary" in arguments:
        return str(arguments["summary"])
    if "verdict" in arguments:
        return str(arguments["verdict"])
    if "id" in arguments:
        return f"{arguments['id']} {arguments.get('status', '')}".strip()
    return ""


def _path_of(entry: Any) -> str:
    if isinstance(entry, dict):
        return str(entry.get("path", "?"))
    return str(entry)


# Entry statuses that mean "this part did what was asked" (DESIGN.md §4 words). Everything else is a
# part that did not: a batch with both is partly done (◐), with none of these it failed (✗).
DONE_STATUSES = frozenset({"ok", "written", "created", "deleted", "unchanged", "no_references"})
# Whole-call statuses that mean it failed: the call's ✗ whatever else the result says.
FAILED_STATUSES = frozenset({
    "failed", "refused", "rejected", "conflict", "killed", "timeout", "not_found", "needs_grant",
    "denied", "error", "rolled_back",
})

# What a tool's count counts, where its result does not say (`search 7 matches`, not `search 7`).
_COUNTED = {"search": "match", "traverse_graph": "node"}


def verdict(event: ToolFinished) -> str:
    """`ok` (✓: every part did what was asked), `partial` (◐: some did, or the answer is not a
    whole one), `failed` (✗: refused, failed, conflict, killed, rejected, or no part did)."""
    if not event.ok:
        return "failed"
    statuses = entry_statuses(event)
    if statuses:
        done = sum(1 for status in statuses if status in DONE_STATUSES)
        return "ok" if done == len(statuses) else "partial" if done else "failed"
    status = event.result.get("status")
    if not isinstance(status, str) or status in DONE_STATUSES:
        return "ok"
    return "failed" if status in FAILED_STATUSES else "partial"


def entry_statuses(event: ToolFinished) -> tuple[str, ...]:
    """The statuses of a batch's entries. The loop notes one for every entry of `results`, "" where
    the entry has none (a search match, a graph node: a list, not a batch), and sessions keep them
    so: those are counted by `_count`, never read as entries that did not do what was asked."""
    return tuple(status for status in event.statuses if status)


def describe_outcome(event: ToolFinished) -> str:
    """`2 ok, 1 not_found` for a batch; `7 matches`; `refused: <why>`; the error for a failed call."""
    if not event.ok:
        return _clip(_model_advice_cut(event.error or str(event.result.get("error", "failed"))), 100)
    statuses = entry_statuses(event)
    if statuses:
        counts = Counter(statuses)
        return ", ".join(f"{count} {status}" for status, count in counts.items())
    if event.tool == "run_command":
        return _command_outcome(event.result)
    status = event.result.get("status")
    text = str(status) if isinstance(status, str) else "done"
    reason = event.result.get("reason")
    if text not in DONE_STATUSES and text != "done" and isinstance(reason, str) and reason:
        return _clip(f"{text}: {reason}", 100)
    return _count(event.tool, event.result) or text


def _command_outcome(result: dict[str, Any]) -> str:
    """`ok · workspace-write · Landlock 7 · network blocked · 0.3 s`; a command that did not end
    well says why first: `failed (exit 2): the sandbox blocked the network · …`, `refused: …`."""
    report = command_report(result)
    how = f" · {report.confinement}" if report.confinement else ""
    took = f" · {report.duration_s:g} s" if report.duration_s is not None and report.ran else ""
    if report.status == "ok":
        return f"ok{how}{took}"
    ending = report.ending()
    head = f"{report.status} ({ending})" if report.ran and ending != report.status else report.status
    why = report.blocked or report.reason
    if not report.blocked and report.reason.startswith(("exited with status", "died of signal")):
        why = ""  # the head already says it
    elif not report.blocked and report.status in ("killed", "timeout"):
        why = report.reason.split(":", 1)[0]  # `cancelled`, `still running after 600 s`: the rest is in the block
    return _clip(f"{head}: {why}" if why else head, 110) + how + took


def _count(tool: str, result: dict[str, Any]) -> str:
    """`7 matches`, `40 files` (traverse_graph counts in its bounds' unit), `12 of 80 symbols`."""
    results = result.get("results")
    if tool == "git_diff" and isinstance(result.get("files"), list):
        files = len(result["files"])
        return f"{files} {_plural('file', files)} changed" if files else str(result.get("reason") or "no changes")
    if not isinstance(results, list):
        return ""
    shown = len(results)
    if tool == "enumerate" and isinstance(result.get("collection"), str):
        unit = str(result["collection"]).removesuffix("s").removesuffix("ie") or "item"
        unit = "directory" if unit == "director" else unit
        total = result.get("total")
        if isinstance(total, int) and total > shown:
            return f"{shown} of {total} {_plural(unit, total)}"
        return f"{shown} {_plural(unit, shown)}"
    counted = _COUNTED.get(tool)
    bounds = result.get("bounds")
    if isinstance(bounds, dict) and isinstance(bounds.get("limit_unit"), str) and bounds["limit_unit"]:
        counted = str(bounds["limit_unit"]).removesuffix("s")
    if counted is None:
        return ""
    unit = counted
    more = " (more cut)" if result.get("truncated") else ""
    return f"{shown} {_plural(unit, shown)}{more}"


def _plural(unit: str, count: int) -> str:
    if count == 1:
        return unit
    if unit.endswith("y"):
        return unit[:-1] + "ies"
    return unit + ("es" if unit.endswith(("ch", "sh", "x")) else "s")


def _model_advice_cut(error: str) -> str:
    # A denial's text goes on to advise the model ("Do not retry..."); the person needs the why.
    return error.split(" Do not retry", 1)[0]


def path_tail(path: str, width: int) -> str:
    """A path that fits `width` cells, cut at its start at a `/` (`…/core/calc.py`), never mid-word
    unless its last part alone is too long (then that part keeps its end: `…alculator.py`)."""
    if len(path) <= width:
        return path
    if width <= 1:
        return "…"[:max(width, 0)]
    kept = ""
    for part in reversed(path.split("/")):
        candidate = f"{part}/{kept}" if kept else part
        if len(candidate) + 2 > width:
            break
        kept = candidate
    return f"…/{kept}" if kept else "…" + path[-(width - 1):]


def cut_paths(text: str, width: int) -> str:
    """`text` with every word longer than `width` that is a path cut at its start (`path_tail`):
    a line that wraps at spaces then never breaks a path mid-word (`change src/…/deep.py, x.py`).
    A comma after a path stays after it."""
    def cut(word: str) -> str:
        if len(word) <= width or "/" not in word:
            return word
        tail = "," if word.endswith(",") else ""
        return path_tail(word.removesuffix(","), max(width - len(tail), 2)) + tail
    return " ".join(cut(word) for word in text.split(" "))


def batch_rows(event: ToolFinished) -> list[tuple[str, str, str]]:
    """(path, status, reason) for each entry of a batch result, in order."""
    rows: list[tuple[str, str, str]] = []
    for entry in event.result.get("results") or []:
        if not isinstance(entry, dict) or "status" not in entry:
            continue
        path = str(entry.get("path") or entry.get("name") or "")
        rows.append((path, str(entry["status"]), str(entry.get("reason") or "")))
    return rows


def diffs_of(result: dict[str, Any]) -> list[tuple[str, str]]:
    """(path, unified diff) for every entry of a write result that carries one."""
    return [
        (str(entry.get("path", "")), entry["diff"])
        for entry in result.get("results") or []
        if isinstance(entry, dict) and isinstance(entry.get("diff"), str) and entry["diff"]
    ]


def _clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
