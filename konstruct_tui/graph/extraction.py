"""Reading and extracting files, in worker processes or in-line.

Workers open the workspace themselves (`Workspace.read`, with its containment walk) instead of
receiving bytes from the parent: the parent's only work per file is then a path in and a record out,
which keeps it free to store results while the workers parse. Work goes out in chunks of many files
because one round trip per file costs more than parsing a small file.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..workspace import NotAFile, PathMissing, PathRefused, Workspace
from .facts import LanguageSupport
from .languages import languages
from .records import (
    BINARY,
    PARSE_FAILED,
    TEXT,
    TOO_LARGE,
    UNREADABLE,
    FileEntry,
    FileRecord,
    encode_facts,
    used_here,
)
from .timeline import mark

MAX_PARSE_BYTES = 1 << 20  # larger files are indexed as text-only entries: minified or generated
MAX_HASH_BYTES = 64 << 20  # beyond this not even a hash: the stat alone tells changes apart
_SNIFF = 8192


@dataclass(frozen=True)
class Task:
    """One file to (re)read. `known_hash`: the stored hash, so unchanged bytes skip the parse.
    `members`: extract the member facts too (False only for a language that defers them, while
    the index has no member tier)."""

    path: str
    language: str
    size: int
    mtime_ns: int
    inode: int = 0
    known_hash: str | None = None
    members: bool = True


def read_file(
    workspace: Workspace,
    task: Task,
    supports: dict[str, LanguageSupport],
) -> FileRecord | None:
    """The record for one file, or None when it vanished or is not readable as a regular file."""
    if task.size > MAX_HASH_BYTES:
        return FileRecord(_entry(task, "", _note(task, TOO_LARGE)))
    try:
        snapshot = workspace.read(task.path)
    except (PathMissing, NotAFile, PathRefused):
        return None
    except OSError:
        entry = _entry(task, "", _note(task, UNREADABLE))
        return FileRecord(entry)
    data = snapshot.data
    entry = _entry(task, snapshot.revision)
    if task.known_hash == snapshot.revision:
        return FileRecord(entry, unchanged=True)
    if task.language == TEXT:
        return FileRecord(entry)
    if len(data) > MAX_PARSE_BYTES:
        return FileRecord(_with_note(entry, TOO_LARGE))
    if b"\0" in data[:_SNIFF]:
        return FileRecord(_with_note(entry, BINARY))
    try:
        support = supports[task.language]
        if task.members or not support.defers_members:
            facts = support.extract(task.path, data)
        else:
            facts = support.extract(task.path, data, members=False)
    except Exception:  # a grammar or query bug must not stop the whole index; the file says why
        return FileRecord(_with_note(entry, PARSE_FAILED))
    facts_json, symbols_json = encode_facts(facts)
    entry = FileEntry(entry.path, entry.language, entry.hash, entry.size, entry.mtime_ns, "",
                      symbols_json, used_here(facts), entry.inode)
    return FileRecord(entry, facts, facts_json)


def _note(task: Task, note: str) -> str:
    return note if task.language != TEXT else ""


def _entry(task: Task, revision: str, note: str = "") -> FileEntry:
    return FileEntry(task.path, task.language, revision, task.size, task.mtime_ns, note, inode=task.inode)


def _with_note(entry: FileEntry, note: str) -> FileEntry:
    return FileEntry(entry.path, entry.language, entry.hash, entry.size, entry.mtime_ns, note, inode=entry.inode)


# --- worker processes -------------------------------------------------------------------------

_worker_workspace: Workspace | None = None
_worker_supports: dict[str, LanguageSupport] = {}


def start_worker(
    root: str, low_priority: bool, support_factory: Callable[[], dict[str, LanguageSupport]] | None
) -> None:
    """Process-pool initializer: open the workspace once per worker."""
    global _worker_workspace, _worker_supports
    mark("worker-init")
    # A parse allocates thousands of short-lived objects and almost no cycles: with the collector
    # on, its young-generation passes cost a fifth of a worker's time. It runs once per chunk
    # instead (`read_chunk`), over a heap that starts frozen (what the fork inherited is not ours).
    gc.freeze()
    gc.disable()
    if low_priority:
        try:
            os.nice(10)
        except OSError:
            pass
    _worker_workspace = Workspace(root)
    _worker_supports = support_factory() if support_factory else languages()
    mark("worker-init-end")


def read_chunk(tasks: Sequence[Task]) -> list[FileRecord | Task]:
    """Records for a chunk; a Task comes back in place of a file that could not be read at all."""
    assert _worker_workspace is not None, "start_worker was not run in this process"
    mark("chunk")
    out: list[FileRecord | Task] = []
    for task in tasks:
        record = read_file(_worker_workspace, task, _worker_supports)
        if record is not None and record.facts is not None:
            # Only the JSON crosses the pipe: the parent decodes it (it needs that form for the
            # store anyway), which is cheaper than pickling the objects as well.
            record = FileRecord(record.entry, None, record.facts_json, record.unchanged)
        out.append(task if record is None else record)
    gc.collect()
    mark("chunk-end")
    return out


def chunked(
    tasks: list[Task], workers: int, per_worker: int = 12, min_bytes: int = 256 << 10, max_files: int = 64
) -> list[list[Task]]:
    """Split tasks into chunks of similar byte size, biggest files first so stragglers are small.

    About `per_worker` chunks per process balances the load without a round trip per file; at most
    `max_files` per chunk keeps many small files spread over every worker (and a stop prompt)."""
    if not tasks:
        return []
    ordered = sorted(tasks, key=lambda t: (-min(t.size, MAX_PARSE_BYTES), t.path))
    total = sum(min(t.size, MAX_PARSE_BYTES) + 512 for t in ordered)
    target = max(min_bytes, total // max(1, workers * per_worker))
    chunks: list[list[Task]] = [[]]
    weight = 0
    for task in ordered:
        chunks[-1].append(task)
        weight += min(task.size, MAX_PARSE_BYTES) + 512
        if weight >= target or len(chunks[-1]) >= max_files:
            chunks.append([])
            weight = 0
    return [c for c in chunks if c]
