"""One-line words for tool calls and batch entries. Plain Python (no Textual), so it is tested alone
and every pane says the same thing the same way."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..agent import ToolFinished

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


def describe_outcome(event: ToolFinished) -> str:
    """`2 ok, 1 not_found` for a batch; the error for a failed call; `done` otherwise."""
    if not event.ok:
        return _clip(event.error or str(event.result.get("error", "failed")), 80)
    if event.statuses:
        counts = Counter(event.statuses)
        return ", ".join(f"{count} {status}" for status, count in counts.items())
    status = event.result.get("status")
    text = str(status) if isinstance(status, str) else "done"
    return text + _confinement(event.result.get("sandbox"))


def _confinement(sandbox: Any) -> str:
    """How a command ran: ` · workspace-write · Landlock 7`, or ` · unsandboxed` — never more than
    the tool result says was in force."""
    if not isinstance(sandbox, dict):
        return ""
    mode = str(sandbox.get("mode", "unknown"))
    abi = sandbox.get("abi")
    if mode in ("unsandboxed", "full") or not abi:
        return f" · {mode}"
    network = " · network blocked" if sandbox.get("network") == "blocked" else ""
    return f" · {mode} · Landlock {abi}{network}"


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
