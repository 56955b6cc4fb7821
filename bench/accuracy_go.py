"""Package-level import graph of a Go checkout: Konstruct's file edges lifted to directories, against
`go list`.

    python bench/accuracy_go.py CHECKOUT [--no-tests] [--imports-field-only] [--via-cli] [--show N]

`go list -e -json ./...` runs offline (GOPROXY=off, GOFLAGS=-mod=mod) in the checkout's root
module; `-e` keeps packages whose external dependencies are not downloaded, their `Imports` are
still read from source. A go.mod whose `go`/`toolchain`/`tool` lines an older Go rejects is given
to it as a cleaned copy through `-modfile` (the checkout is not touched). Expected edges: each
package's directory to the directory of every imported package of the listing (internal imports),
including `TestImports` and `XTestImports` unless --no-tests (then Konstruct's edges from
`_test.go` files are dropped too; --imports-field-only drops them on the go list side only).
Konstruct indexes every .go file (as `konstruct index` would; --via-cli: takes the directory-level
`konstruct graph export`); its file edges, both kinds, are lifted to directories, self-loops
dropped, and reduced to directories go list knows.
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import re
import subprocess
import tempfile
from pathlib import Path

import accuracy_common as common

from konstruct_tui.graph.languages.go import SUPPORT


def konstruct_edges(root: Path, tests: bool) -> set[tuple[str, str]]:
    """Our file edges lifted to the folders of their two files, self-loops dropped; without
    `tests`, edges from `_test.go` files are left out (those files are still indexed)."""
    edges: set[tuple[str, str]] = set()
    for edge in common.resolved_edges(root, SUPPORT, resolve_from=lambda path: tests or not path.endswith("_test.go")):
        source, target = posixpath.dirname(edge.source), posixpath.dirname(edge.target)
        if source != target:
            edges.add((source, target))
    return edges


def go_list(root: Path) -> list[dict]:
    env = {**os.environ, "GOPROXY": "off", "GOFLAGS": "-mod=mod", "GOWORK": "off"}
    with tempfile.TemporaryDirectory() as tmp:
        args = ["go", "list", "-e", "-json"]
        modfile = _cleaned_modfile(root, Path(tmp))
        if modfile:
            args.append(f"-modfile={modfile}")
        done = subprocess.run([*args, "./..."], cwd=root, capture_output=True, text=True, env=env)
    decoder, text, at, packages = json.JSONDecoder(), done.stdout, 0, []
    while at < len(text):
        while at < len(text) and text[at].isspace():
            at += 1
        if at < len(text):
            package, at = decoder.raw_decode(text, at)
            packages.append(package)
    if not packages:
        raise SystemExit(f"go list failed: {done.stderr[-2000:]}")
    return packages


def _cleaned_modfile(root: Path, tmp: Path) -> str | None:
    text = (root / "go.mod").read_text()
    # Directives newer than the local Go: toolchain, tool and godebug (single lines or blocks).
    cleaned = re.sub(r"^(tool|godebug)\s*\((.|\n)*?^\)", "", text, flags=re.MULTILINE)
    cleaned = re.sub(r"^(toolchain|tool|godebug)\s.*$", "", cleaned, flags=re.MULTILINE)
    cleaned = re.sub(r"^go \d+\.\d+(\.\d+)?\s*$", "go 1.19", cleaned, flags=re.MULTILINE)
    if cleaned == text:
        return None
    (tmp / "go.mod").write_text(cleaned)
    if (root / "go.sum").exists():
        (tmp / "go.sum").write_text((root / "go.sum").read_text())
    return str(tmp / "go.mod")


def _relative_dir(directory: str, root: Path) -> str:
    relative = os.path.relpath(directory, root.resolve())
    return "" if relative == "." else relative


def go_list_edges(root: Path, tests: bool) -> tuple[set[str], set[tuple[str, str]]]:
    packages = [p for p in go_list(root) if p.get("Dir", "").startswith(str(root.resolve()))]
    dirs = {p["ImportPath"]: _relative_dir(p["Dir"], root) for p in packages}
    edges: set[tuple[str, str]] = set()
    for package in packages:
        imported = list(package.get("Imports", ()))
        if tests:
            imported += package.get("TestImports", []) + package.get("XTestImports", [])
        for path in imported:
            if path in dirs and dirs[path] != dirs[package["ImportPath"]]:
                edges.add((dirs[package["ImportPath"]], dirs[path]))
    return set(dirs.values()), edges


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("checkout", type=Path)
    parser.add_argument("--no-tests", action="store_true", help="compare Imports only, without test files")
    parser.add_argument(
        "--imports-field-only", action="store_true",
        help="go list side: Imports only (no TestImports/XTestImports) while Konstruct keeps its test files",
    )
    common.add_via_cli_argument(parser)
    common.add_show_argument(parser)
    args = parser.parse_args()
    tests = not args.no_tests
    nodes, expected = go_list_edges(args.checkout, tests and not args.imports_field_only)
    if args.via_cli:  # the export names the root folder "."
        exported = common.exported_edges(args.checkout, "directory")
        found = {tuple("" if d == "." else d for d in pair) for pair in exported}
    else:
        found = konstruct_edges(args.checkout, tests)
    ours = common.within(found, nodes)
    common.print_score(common.score(ours, expected), unit="packages", units=len(nodes), reference="go_list")
    common.print_differences(ours, expected, reference="go list", show=args.show)


if __name__ == "__main__":
    main()
