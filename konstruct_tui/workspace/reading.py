"""`read_code` batches: many files in one call, each entry with its own status, under a byte budget."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .containment import PathMissing, PathRefused
from .handle import NotAFile, Workspace
from .swap import FileTooLarge

DEFAULT_MAX_BYTES = 256 * 1024
MAX_FILE_BYTES = 64 * 1024 * 1024  # beyond this nothing is read at all, even for a line range
_BINARY_SNIFF = 8192


@dataclass(frozen=True)
class ReadRequest:
    path: str
    start_line: int | None = None
    end_line: int | None = None


def read_batch(
    workspace: Workspace,
    requests: list[ReadRequest],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    line_numbers: bool = False,
) -> dict[str, Any]:
    """Read every request in order. Content counts against `max_bytes`; once an entry does not fit,
    it and every later readable entry come back `skipped` (never dropped), so the caller can ask
    again from there. An entry that could never fit in this budget on its own is `too_large`."""
    results: list[dict[str, Any]] = []
    used = 0
    exhausted = False
    for request in requests:
        entry = _read_one(workspace, request, line_numbers)
        if entry["status"] == "ok":
            size = entry.pop("_bytes")
            if size > max_bytes:
                entry = _without_content(entry, "too_large", _too_large_reason(size, max_bytes, request))
            elif exhausted or used + size > max_bytes:
                exhausted = True
                entry = _without_content(
                    entry,
                    "skipped",
                    f"the batch byte budget ({max_bytes} bytes) was used up by earlier entries "
                    f"({used} bytes); read this file in another call",
                )
            else:
                used += size
        results.append(entry)
    return {"results": results, "max_bytes": max_bytes, "bytes_used": used}


def _read_one(workspace: Workspace, request: ReadRequest, line_numbers: bool) -> dict[str, Any]:
    shown = _shown_path(workspace, request.path)
    try:
        snapshot = workspace.read(request.path, limit=MAX_FILE_BYTES)
    except FileTooLarge as too_large:  # decided from the size: nothing read, nothing hashed
        return {"path": shown, "status": "too_large", "revision": None, "size": too_large.size,
                "reason": f"the file is {too_large.size} bytes; the limit is {MAX_FILE_BYTES}, so it was "
                          f"not read (and has no revision)"}
    except PathRefused as refusal:
        return {"path": shown, "status": "refused", "reason": str(refusal)}
    except PathMissing as missing:
        return {"path": shown, "status": "not_found", "reason": str(missing)}
    except NotAFile as not_file:
        return {"path": shown, "status": "not_found", "reason": f"{not_file}; use enumerate to list a folder"}
    base: dict[str, Any] = {"path": shown, "status": "ok", "revision": snapshot.revision, "size": len(snapshot.data)}
    if snapshot.relative != request.path:
        base["resolved"] = snapshot.relative
    if b"\x00" in snapshot.data[:_BINARY_SNIFF]:
        return {**base, "status": "binary", "reason": "the file holds binary data (NUL bytes); its revision is given, its content is not"}
    try:
        text = snapshot.data.decode("utf-8")
    except UnicodeDecodeError as error:
        return {**base, "status": "binary", "reason": f"the file is not UTF-8 text (byte {error.start}); its content is not shown"}
    lines = text.splitlines(keepends=True)
    total = len(lines)
    start = request.start_line or 1
    end = min(request.end_line or total, total)
    chosen = lines[start - 1 : end] if start <= total else []
    content = "".join(chosen)
    entry: dict[str, Any] = {
        **base,
        "status": "ok",
        "content": content,
        "start_line": start if chosen else min(start, total + 1),
        "end_line": end if chosen else min(start, total + 1) - 1,
        "total_lines": total,
        "_bytes": len(content.encode("utf-8")),
    }
    if start > total and total > 0:
        entry["reason"] = f"the file has only {total} lines"
    if line_numbers:
        width = len(str(max(end, 1)))
        entry["numbered"] = "".join(f"{start + i:>{width}}\u2502{line}" for i, line in enumerate(chosen))
    return entry


def _without_content(entry: dict[str, Any], status: str, reason: str) -> dict[str, Any]:
    kept = {k: v for k, v in entry.items() if k not in ("content", "numbered", "_bytes")}
    return {**kept, "status": status, "reason": reason}


def _too_large_reason(size: int, max_bytes: int, request: ReadRequest) -> str:
    what = "the requested lines are" if request.start_line or request.end_line else "the file is"
    return f"{what} {size} bytes, more than the whole batch budget of {max_bytes}; read a line range or raise max_bytes"


def _shown_path(workspace: Workspace, path: object) -> str:
    text = path if isinstance(path, str) else repr(path)
    return workspace.scrub(text.replace("\x00", "\\0"))
