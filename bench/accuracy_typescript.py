"""File-level import graph of a TypeScript/JavaScript checkout: Konstruct's resolver against
dependency-cruiser.

    python bench/accuracy_typescript.py CHECKOUT [--depcruise DIR] [--tsconfig PATH] [--per-config]
        [--all-modules] [--imports-only] [--via-cli] [--show N] [DIRS...]

DIR holds an npm install of `dependency-cruiser` and `typescript@5` (default /tmp/depcruise).
dependency-cruiser runs from CHECKOUT over DIRS (default `.`), with the checkout's root tsconfig
(--per-config: each folder holding a tsconfig.json is cruised with its own, as tsc would),
type-only (pre-compilation) dependencies included and node_modules not followed. Its internal
dependencies (resolved to a checkout file, not core, not node_modules) are the expected edges.
Konstruct indexes every TS/JS file of the checkout, as `konstruct index` would; both edge sets are
reduced to the TS/JS files dependency-cruiser knows (the graph's nodes; --all-modules keeps its
CSS/JSON/asset modules too), then compared: precision, recall, F1. Edges of both
kinds (imports, references) count, as `konstruct graph export` lists them, unless --imports-only.
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import subprocess
import tempfile
from pathlib import Path

import accuracy_common as common

from konstruct_tui.graph.languages.typescript.config import parse_lenient
from konstruct_tui.graph.languages.typescript import SUPPORT

_CONFIG = """module.exports = {
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/" },
    tsPreCompilationDeps: true,
    tsConfig: %s,
  },
};
"""


def konstruct_edges(root: Path, imports_only: bool) -> set[tuple[str, str]]:
    return {
        (e.source, e.target)
        for e in common.resolved_edges(root, SUPPORT)
        if not imports_only or e.kind == "imports"
    }


def standalone_tsconfig(root: Path, tsconfig: str) -> str:
    """A copy of the tsconfig beside it without `extends` of packages or of missing (generated)
    files: tsc would refuse the config; relative `extends` that exist stay."""
    data = parse_lenient((root / tsconfig).read_text())
    parents = data.get("extends")
    parents = [parents] if isinstance(parents, str) else parents or []
    here = (root / tsconfig).parent
    kept = [p for p in parents if p.startswith(".") and ((here / p).is_file() or (here / f"{p}.json").is_file())]
    data.pop("extends", None)
    if kept:
        data["extends"] = kept
    copy = (root / tsconfig).with_name(".tsconfig.depcruise.json")
    copy.write_text(json.dumps(data))
    return str(copy.relative_to(root))


def depcruise_edges(
    root: Path, tool: Path, tsconfig: str | None, dirs: list[str], base: str = "."
) -> tuple[set[str], set[tuple[str, str]]]:
    """dependency-cruiser run from `root/base` (tsc reads `include` relative to where it runs);
    paths come back relative to `root`."""
    copy = standalone_tsconfig(root, tsconfig) if tsconfig else None
    cwd = root / base
    try:
        with tempfile.TemporaryDirectory() as tmp:
            config = Path(tmp) / "depcruise.cjs"
            name = os.path.relpath(root / copy, cwd) if copy else None
            config.write_text(_CONFIG % (json.dumps({"fileName": name}) if name else "undefined"))
            done = subprocess.run(
                [str(tool / "node_modules/.bin/depcruise"), "-c", str(config), "-T", "json", *dirs],
                cwd=cwd, capture_output=True, text=True,
            )
    finally:
        if copy:
            (root / copy).unlink()
    if not done.stdout:
        raise RuntimeError(f"dependency-cruiser failed: {done.stderr[-2000:]}")
    report = json.loads(done.stdout)

    def in_root(path: str) -> str:
        return posixpath.normpath(posixpath.join(base, path))

    nodes: set[str] = set()
    edges: set[tuple[str, str]] = set()
    for module in report["modules"]:
        source = module["source"]
        if module.get("coreModule") or "node_modules/" in source or module.get("couldNotResolve"):
            continue
        nodes.add(in_root(source))
        for dep in module.get("dependencies", ()):
            target = dep["resolved"]
            if dep.get("couldNotResolve") or dep.get("coreModule") or "node_modules/" in target:
                continue
            if target != source:
                edges.add((in_root(source), in_root(target)))
    return nodes, edges


def depcruise_per_config(root: Path, tool: Path) -> tuple[set[str], set[tuple[str, str]]]:
    """Each folder with its own tsconfig.json cruised with that config (as tsc would compile it),
    the root one over the rest: a file's edges come from its nearest config that cruised it."""
    listed = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True).stdout.split()
    config_dirs = sorted(
        {str(Path(p).parent) for p in listed if Path(p).name == "tsconfig.json" and "node_modules/" not in p},
        key=lambda d: (d.count("/"), d),
    )
    nodes, edges = depcruise_edges(root, tool, "tsconfig.json" if "." in config_dirs else None, ["."])
    for directory in (d for d in config_dirs if d != "."):
        try:
            inner_nodes, inner_edges = depcruise_edges(root, tool, f"{directory}/tsconfig.json", ["."], base=directory)
        except RuntimeError as failed:
            print(f"note: {directory} kept the root config's edges ({str(failed).splitlines()[-1][:120]})")
            continue
        prefix = directory + "/"
        edges = {(a, b) for a, b in edges if not a.startswith(prefix)} | {
            (a, b) for a, b in inner_edges if a.startswith(prefix)
        }
        nodes |= inner_nodes
    return nodes, edges


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("checkout", type=Path)
    parser.add_argument("dirs", nargs="*", default=["."])
    parser.add_argument("--depcruise", type=Path, default=Path("/tmp/depcruise"))
    parser.add_argument("--tsconfig", default=None, help="relative to the checkout (default: tsconfig.json if present)")
    parser.add_argument("--imports-only", action="store_true")
    parser.add_argument(
        "--all-modules", action="store_true",
        help="keep dependency-cruiser's non-code modules (CSS, JSON, images, .vue) instead of TS/JS files only",
    )
    parser.add_argument(
        "--per-config", action="store_true",
        help="cruise each folder that has a tsconfig.json with its own config (default: the root config for all)",
    )
    common.add_via_cli_argument(parser)
    common.add_show_argument(parser)
    args = parser.parse_args()
    tsconfig = args.tsconfig or ("tsconfig.json" if (args.checkout / "tsconfig.json").exists() else None)
    if args.per_config:
        nodes, expected = depcruise_per_config(args.checkout, args.depcruise)
    else:
        nodes, expected = depcruise_edges(args.checkout, args.depcruise, tsconfig, args.dirs)
    if not args.all_modules:  # the graph's nodes are code files; assets are not nodes of it
        nodes = {n for n in nodes if n.lower().endswith(SUPPORT.extensions)}
    expected = common.within(expected, nodes)
    if args.via_cli:
        found = common.exported_edges(args.checkout, "file")
    else:
        found = konstruct_edges(args.checkout, args.imports_only)
    ours = common.within(found, nodes)
    common.print_score(common.score(ours, expected), unit="files", units=len(nodes), reference="depcruise")
    common.print_differences(ours, expected, reference="depcruise", show=args.show)


if __name__ == "__main__":
    main()
