"""`konstruct graph export [--root DIR] [--level file|directory] --format json`: the file graph (or
its folder projection) as `{"nodes": [...], "edges": [[from, to], ...]}`, workspace-relative. The
index is built or refreshed first, so the export always matches the files on disk."""

from __future__ import annotations

import argparse
from typing import Any

from ..graph import LEVELS, export_graph
from .common import UsageError, add_root, open_workspace, print_json

FORMATS = ("json",)


def register(commands: Any) -> None:
    graph = commands.add_parser("graph", help="the code graph: export it")
    actions = graph.add_subparsers(dest="graph_command", metavar="ACTION", parser_class=type(graph))
    export = actions.add_parser("export", help="print the file or folder graph as JSON")
    add_root(export)
    export.add_argument("--level", default="file", metavar="LEVEL", help="file (default) or directory")
    export.add_argument("--format", default="json", metavar="FORMAT", help="json")
    export.set_defaults(handler=run_export)
    graph.set_defaults(handler=_missing_action)


def run_export(args: argparse.Namespace) -> int:
    if args.format not in FORMATS:
        raise UsageError(f"--format {args.format!r} is not supported; use: {', '.join(FORMATS)}")
    if args.level not in LEVELS:
        raise UsageError(f"--level {args.level!r} is not known; use one of: {', '.join(LEVELS)}")
    from ..graph import build_index

    workspace = open_workspace(args.root)
    with workspace:
        snapshot, _ = build_index(workspace, members=False)  # the export is the file graph
        print_json(export_graph(snapshot, args.level))
    return 0


def _missing_action(args: argparse.Namespace) -> int:
    raise UsageError("graph needs an action: export")
