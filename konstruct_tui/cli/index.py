"""`konstruct index [--root DIR] [--members]`: build or refresh the code graph's index, with a
progress bar on stderr and a summary on stdout (files per language, edges, neighborhoods, member
uses, seconds).

A cold build makes the file graph (files, symbols, imports, references, neighborhoods) and leaves
the member tier (who calls `recv.method()`, resolved from the receiver's stated type) to the first
question that needs it: `--members` builds it now. An index that has it keeps it current.

When nothing changed since the last run the summary comes from the store after one stat walk
(`graph.warm_start`): no grammar, no indexer, no clustering is even imported. A person runs this a
hundred times a day; the common case must cost what Python's start does, not what a build does.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import UsageError, add_root, open_workspace

if TYPE_CHECKING:
    from ..graph import Progress as ProgressCallback

_PHASES = {"reading": "Reading and parsing", "resolving": "Resolving imports"}
_MEMBERS_PENDING = "not indexed yet (built by the first symbol question; `konstruct index --members` builds them now)"


def register(commands: Any) -> None:
    index = commands.add_parser("index", help="build or refresh the code graph index, with a progress bar")
    add_root(index)
    index.add_argument("--members", action="store_true",
                       help="also build the member tier now (method callers), instead of on the first symbol question")
    index.set_defaults(handler=run_index)


def run_index(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    root = Path(args.root)
    if not root.is_dir():
        raise UsageError(f"--root {args.root!r} is not a directory")
    from ..graph import unchanged

    members = bool(getattr(args, "members", False))
    warm = unchanged(root.resolve())
    if warm is not None and warm.summary is not None and (warm.members or not members):
        total = sum(warm.files.values())
        summary: Mapping[str, Any] = {**warm.summary, "files": warm.files, "members": warm.members,
                                      "unreadable": _unreadable(root)}
        print(_summary(summary, time.perf_counter() - started, f"0 re-parsed, {total} unchanged"))
        return 0
    from ..graph import build_index

    # One build, then the process ends: the cycle collector would only walk the growing heap of
    # facts and edges (seconds on a big tree) for cycles a build does not make.
    collecting = gc.isenabled()
    gc.disable()
    workspace = open_workspace(args.root)
    with workspace, progress_bar() as progress:
        snapshot, report = build_index(workspace, progress=progress, neighborhoods=True, members=members)
    summary = {
        "files": report.files,
        "edges": _edge_kinds(snapshot),
        "neighborhoods": len(snapshot.neighborhoods),
        "members": snapshot.side.complete,
        "unreadable": _unreadable(root),
    }
    how = "cold build" if report.cold else f"{report.parsed} re-parsed, {len(snapshot.files) - report.parsed} unchanged"
    if report.member_seconds:
        how += f"; member uses indexed in {report.member_seconds:.2f} s"
    if report.replaced:
        how += "; the stored index was written by another version of Konstruct and was rebuilt"
    print(_summary(summary, time.perf_counter() - started, how))
    # The process ends next, and Python's shutdown runs one last collection over every object the
    # build left (0.1-0.2 s on the stdlib, after the summary is printed, before the shell prompt):
    # frozen objects are skipped, and the operating system takes the memory back anyway. (Called
    # in-process, as tests do, the collector is back on for what comes next.)
    gc.freeze()
    if collecting:
        gc.enable()
    return 0


def _edge_kinds(snapshot: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for edges in snapshot.out_edges.values():
        for edge in edges:
            counts[edge.kind] = counts.get(edge.kind, 0) + 1
    return counts


def _unreadable(root: Path) -> tuple[str, ...]:
    """The folders the listing just made could not read (the build's or the warm start's)."""
    from ..workspace import unreadable_folders

    return unreadable_folders(root.resolve())


def _summary(summary: Mapping[str, Any], seconds: float, how: str) -> str:
    files: Mapping[str, int] = summary["files"]
    edges: Mapping[str, int] = summary["edges"]
    lines = [f"Indexed {sum(files.values())} files in {seconds:.2f} s ({how})"]
    for language, count in sorted(files.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"  {language:<12} {count:>7}")
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(edges.items())) or "none"
    lines.append(f"Edges: {sum(edges.values())} ({kinds})")
    lines.append(f"Neighborhoods: {summary['neighborhoods']}")
    lines.append(f"Member uses: {'indexed' if summary.get('members', True) else _MEMBERS_PENDING}")
    unreadable = summary.get("unreadable") or ()
    if unreadable:  # their files are missing from the index; graph answers say so too (`unreadable`)
        lines.append(f"Not readable (no permission; not indexed, answers may miss files there): {', '.join(unreadable)}")
    return "\n".join(lines)


@contextmanager
def progress_bar() -> Iterator[ProgressCallback]:
    """A rich progress bar on stderr, driven by the indexer's (phase, done, total) callbacks; none
    (and no rich imported) when stderr is not a terminal, as in a script or a pipe."""
    if not sys.stderr.isatty():
        yield lambda phase, done, total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, transient=True, disable=not console.is_terminal,
    ) as bar:
        tasks: dict[str, Any] = {}

        def update(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = bar.add_task(_PHASES.get(phase, phase), total=total or None)
            bar.update(tasks[phase], completed=done, total=total or None)

        yield update
