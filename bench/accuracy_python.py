"""File-level import graph of a Python checkout: Konstruct's resolver against grimp.

    python bench/accuracy_python.py CHECKOUT PACKAGE[=ROOT] [...] [--show N]

Konstruct indexes every .py/.pyi file of the checkout (as `konstruct index` would); grimp builds
the graph of the named top-level packages (ROOT: the folder holding the package, default the
checkout). Both edge sets are reduced to files grimp knows, then compared: precision, recall, F1.
Edges of both kinds (imports, references) count, as `konstruct graph export` lists them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import accuracy_common as common

from konstruct_tui.graph.languages.python import SUPPORT

_GRIMP_SCRIPT = """
import sys, grimp
graph = grimp.build_graph(*sys.argv[1:], cache_dir=None)
for module in sorted(graph.modules):
    for imported in sorted(graph.find_modules_directly_imported_by(module)):
        print(module, imported)
    print(module, "-")
"""


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
    common.add_export_argument(parser)
    common.add_show_argument(parser)
    args = parser.parse_args()
    package_roots = dict(p.split("=", 1) if "=" in p else (p, "") for p in args.packages)
    nodes, expected = grimp_edges(args.checkout, package_roots)
    exported = common.export_file_edges(args.export) if args.export else common.konstruct_edges(args.checkout, SUPPORT)
    ours = common.within(exported, nodes)
    common.print_score(common.score(ours, expected), unit="files", units=len(nodes), reference="grimp")
    common.print_differences(ours, expected, reference="grimp", show=args.show)


if __name__ == "__main__":
    main()
