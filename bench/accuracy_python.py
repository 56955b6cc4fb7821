"""File-level import graph of a Python checkout: Konstruct's resolver against grimp.

    python bench/accuracy_python.py CHECKOUT PACKAGE[=ROOT] [...] [--show N]

Konstruct indexes every .py/.pyi file of the checkout (as `konstruct index` would); grimp builds
the graph of the named top-level packages (ROOT: the folder holding the package, default the
checkout). Both edge sets are reduced to files grimp knows, then compared: precision, recall, F1.
Edges of both kinds (imports, references) count, as `konstruct graph export` lists them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from konstruct_tui.graph.facts import FileFacts
from konstruct_tui.graph.languages.python import SUPPORT

_GRIMP_SCRIPT = """
import sys, grimp
graph = grimp.build_graph(*sys.argv[1:], cache_dir=None)
for module in sorted(graph.modules):
    for imported in sorted(graph.find_modules_directly_imported_by(module)):
        print(module, imported)
    print(module, "-")
"""


class CheckoutProject:
    def __init__(self, root: Path) -> None:
        self.root = root
        listed = subprocess.run(["git", "ls-files"], check=False, cwd=root, capture_output=True, text=True)
        names = listed.stdout.split() if listed.returncode == 0 and listed.stdout else None
        if names is None:
            names = [str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and ".git" not in p.parts]
        self._paths = sorted(names)
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


def konstruct_edges(root: Path) -> set[tuple[str, str]]:
    project = CheckoutProject(root)
    for path in project.paths():
        if path.endswith(SUPPORT.extensions):
            project.facts[path] = SUPPORT.extract(path, (root / path).read_bytes())
    resolver = SUPPORT.resolver(project)
    return {(e.source, e.target) for facts in project.facts.values() for e in resolver.resolve(facts)}


def module_file(root: Path, module: str, package_roots: dict[str, str]) -> str:
    base = package_roots[module.split(".")[0]]
    rel = "/".join(p for p in (base, module.replace(".", "/")) if p)
    return f"{rel}/__init__.py" if (root / rel / "__init__.py").exists() else f"{rel}.py"


def grimp_edges(root: Path, package_roots: dict[str, str]) -> tuple[set[str], set[tuple[str, str]]]:
    sys_path = sorted({str(root / base) for base in package_roots.values()})
    env_path = ":".join(sys_path)
    done = subprocess.run(
        [sys.executable, "-c", _GRIMP_SCRIPT, *package_roots],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
    )
    nodes: set[str] = set()
    edges: set[tuple[str, str]] = set()
    for line in done.stdout.splitlines():
        importer, imported = line.split()
        nodes.add(module_file(root, importer, package_roots))
        if imported != "-" and imported != importer:  # a graph has no self-edges
            edges.add((module_file(root, importer, package_roots), module_file(root, imported, package_roots)))
    return nodes, edges


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("checkout", type=Path)
    parser.add_argument("packages", nargs="+", help="PACKAGE or PACKAGE=ROOT (folder holding it)")
    parser.add_argument("--export", type=Path, help="read our edges from `konstruct graph export` JSON instead")
    parser.add_argument("--show", type=int, default=15, help="mismatches to print")
    args = parser.parse_args()
    package_roots = dict(p.split("=", 1) if "=" in p else (p, "") for p in args.packages)
    nodes, expected = grimp_edges(args.checkout, package_roots)
    if args.export:
        exported = {tuple(edge) for edge in json.loads(args.export.read_text())["edges"]}
    else:
        exported = konstruct_edges(args.checkout)
    ours = {(a, b) for a, b in exported if a in nodes and b in nodes}
    hits = len(ours & expected)
    precision = hits / len(ours) if ours else 1.0
    recall = hits / len(expected) if expected else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    print(f"files={len(nodes)} grimp_edges={len(expected)} konstruct_edges={len(ours)} common={hits}")
    print(f"precision={precision:.4f} recall={recall:.4f} F1={f1:.4f}")
    for label, edges in (("extra (konstruct only)", ours - expected), ("missed (grimp only)", expected - ours)):
        print(f"{label}: {len(edges)}")
        for a, b in sorted(edges)[: args.show]:
            print(f"  {a} -> {b}")


if __name__ == "__main__":
    main()
