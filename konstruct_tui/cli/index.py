"""`konstruct index [--root DIR]`: build or refresh the code graph's index, with a progress bar on
stderr and a summary on stdout (files per language, edges, neighborhoods, seconds)."""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from ..graph import Progress as ProgressCallback, build_index
from .common import add_root, open_workspace

_PHASES = {"reading": "Reading and parsing", "resolving": "Resolving imports"}


def register(commands: Any) -> None:
    index = commands.add_parser("index", help="build or refresh the code graph index, with a progress bar")
    add_root(index)
    index.set_defaults(handler=run_index)


def run_index(args: argparse.Namespace) -> int:
    workspace = open_workspace(args.root)
    with workspace, progress_bar() as progress:
        snapshot, report = build_index(workspace, progress=progress)
    edges = Counter(e.kind for edges in snapshot.out_edges.values() for e in edges)
    hoods = snapshot.neighborhoods
    total = sum(report.files.values())
    how = "cold build" if report.cold else f"{report.parsed} re-parsed, {len(snapshot.files) - report.parsed} unchanged"
    lines = [f"Indexed {total} files in {report.seconds:.2f} s ({how})"]
    for language, count in sorted(report.files.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"  {language:<12} {count:>7}")
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(edges.items())) or "none"
    lines.append(f"Edges: {sum(edges.values())} ({kinds})")
    lines.append(f"Neighborhoods: {len(hoods)}")
    print("\n".join(lines))
    return 0


@contextmanager
def progress_bar() -> Iterator[ProgressCallback]:
    """A rich progress bar on stderr, driven by the indexer's (phase, done, total) callbacks."""
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
