"""What the graph-accuracy scripts (bench/accuracy_<language>.py) share: Konstruct's edges for a
checkout, read the way the indexer reads it or taken from `konstruct graph export`, and the scoring
and printing of a comparison against a reference tool's edges.

The scripts run as `python bench/accuracy_<language>.py`, so this module is imported from the
script's own folder (`from accuracy_common import ...`).
"""

from __future__ import annotations

import argparse
import json
import subprocess
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from konstruct_tui.graph.facts import Edge, FileFacts, LanguageSupport
from konstruct_tui.graph.snapshot import SIDE_KINDS

FileEdge = tuple[str, str]


class CheckoutProject:
    """The resolver's view of a checkout (a `ProjectView`): its file listing, the facts extracted
    so far, and config files read straight from disk (no workspace layer: this is a benchmark)."""

    def __init__(self, root: Path, paths: list[str]) -> None:
        self.root = root
        self._paths = paths
        self.facts: dict[str, FileFacts] = {}

    def paths(self) -> list[str]:
        return self._paths

    def facts_of(self, path: str) -> FileFacts | None:
        return self.facts.get(path)

    def read_text(self, path: str) -> str | None:
        try:
            return (self.root / path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None


def checkout_files(root: Path) -> list[str]:
    """`git ls-files` of the checkout, or every file under it when it is not a git tree (the
    `git archive` unpacks in /tmp/repos are not)."""
    listed = subprocess.run(["git", "ls-files"], check=False, cwd=root, capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout:
        return sorted(listed.stdout.split())
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and ".git" not in p.parts)


def resolved_edges(
    root: Path,
    support: LanguageSupport,
    paths: list[str] | None = None,
    resolve_from: Callable[[str], bool] = lambda path: True,
) -> Iterator[Edge]:
    """Konstruct's file edges for the checkout, from the language's `extract` and `resolver` (the
    code the indexer runs). `paths` is what the resolver sees (default: `checkout_files`); every
    one with the language's extension is extracted, matched as the indexer does (any case), and
    the edges of those `resolve_from` accepts are resolved."""
    project = CheckoutProject(root, checkout_files(root) if paths is None else paths)
    for path in project.paths():
        if path.lower().endswith(support.extensions) and (root / path).is_file():
            project.facts[path] = support.extract(path, (root / path).read_bytes())
    resolver = support.resolver(project)
    for facts in project.facts.values():
        if resolve_from(facts.path):
            yield from resolver.resolve(facts)


def konstruct_edges(root: Path, support: LanguageSupport, paths: list[str] | None = None) -> set[FileEdge]:
    """Both edge kinds, as `konstruct graph export` lists them (member evidence rides beside
    the file graph, never in it)."""
    return {(edge.source, edge.target) for edge in resolved_edges(root, support, paths) if edge.kind not in SIDE_KINDS}


def export_file_edges(path: Path) -> set[FileEdge]:
    """The edges of a saved `konstruct graph export --format json`."""
    return {(a, b) for a, b in json.loads(path.read_text())["edges"]}


def exported_edges(root: Path, level: str) -> set[FileEdge]:
    """The edges `konstruct index` + `konstruct graph export` give (the end-to-end path)."""
    indexed = subprocess.run(["konstruct", "index", "--root", str(root)], check=False, capture_output=True, text=True)
    if indexed.returncode != 0:
        raise SystemExit(f"konstruct index failed: {indexed.stderr[-2000:]}")
    done = subprocess.run(
        ["konstruct", "graph", "export", "--root", str(root), "--level", level, "--format", "json"],
        check=True, capture_output=True, text=True,
    )
    return {(a, b) for a, b in json.loads(done.stdout)["edges"]}


def within(edges: Iterable[FileEdge], nodes: set[str]) -> set[FileEdge]:
    """The edges whose two ends are both nodes the reference tool knows."""
    return {(a, b) for a, b in edges if a in nodes and b in nodes}


@dataclass(frozen=True)
class Score:
    ours: int
    expected: int
    hits: int
    precision: float
    recall: float
    f1: float


def score(ours: set[FileEdge], expected: set[FileEdge]) -> Score:
    """Precision and recall of our edges against the reference's; an empty side counts as 1.0 (nothing
    claimed is nothing wrong, nothing expected is nothing missed)."""
    hits = len(ours & expected)
    precision = hits / len(ours) if ours else 1.0
    recall = hits / len(expected) if expected else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Score(len(ours), len(expected), hits, precision, recall, f1)


def print_score(result: Score, *, unit: str, units: int, reference: str) -> None:
    """`files=N grimp_edges=N konstruct_edges=N common=N` and the precision/recall/F1 line.
    `unit` names what the nodes are (files, packages); `reference` is the edge-count key's prefix."""
    print(f"{unit}={units} {reference}_edges={result.expected} konstruct_edges={result.ours} common={result.hits}")
    print(f"precision={result.precision:.4f} recall={result.recall:.4f} F1={result.f1:.4f}")


def print_differences(ours: set[FileEdge], expected: set[FileEdge], *, reference: str, show: int) -> None:
    """How many edges only one side has, and the first `show` of each, sorted."""
    for label, edges in (("extra (konstruct only)", ours - expected), (f"missed ({reference} only)", expected - ours)):
        print(f"{label}: {len(edges)}")
        for a, b in sorted(edges)[:show]:
            print(f"  {a} -> {b}")


def add_show_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--show", type=int, default=15, help="mismatches to print")


def add_export_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--export", type=Path, help="read our edges from `konstruct graph export` JSON instead")


def add_via_cli_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--via-cli", action="store_true", help="take Konstruct's edges from `konstruct graph export`")
