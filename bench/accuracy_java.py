"""File-level dependency graph of a Java checkout: Konstruct's resolver against jdeps.

    python bench/accuracy_java.py CHECKOUT SOURCE_DIR [SOURCE_DIR ...] [--classpath JARS]
                                  [--release N] [--exclude PATH_PART]... [--show N]

The SOURCE_DIRs (e.g. src/main/java) are compiled with javac into a temporary folder; jdeps
-verbose:class -filter:none lists class -> class dependencies, same-package ones included; each
class maps to its source file through javap's `Compiled from` line. Konstruct indexes every .java
file of the checkout (as `konstruct index` would); both edge sets are reduced to compiled files and
compared: precision, recall, F1. Edges of both kinds (imports, references) count.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
from pathlib import Path

import accuracy_common as common

from konstruct_tui.graph.languages.java import SUPPORT

_JDEPS_LINE = re.compile(r"^\s+(\S+)\s+->\s+(\S+)\s+(\S+)\s*$")
_COMPILED_FROM = re.compile(r'^Compiled from "([^"]+)"')
_CLASS_HEADER = re.compile(r"\b(?:class|interface|enum|record)\s+([\w.$]+)")


def java_files(root: Path) -> list[str]:
    """Every .java file under the checkout, whether or not git tracks it."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.java"))


def class_sources(out: Path, classes: list[str], root: Path, source_dirs: list[str]) -> dict[str, str]:
    """Binary class name -> checkout-relative source file, from javap's `Compiled from`."""
    sources: dict[str, str] = {}
    for start in range(0, len(classes), 400):
        listing = subprocess.run(
            ["javap", "-cp", str(out), *classes[start : start + 400]], capture_output=True, text=True, check=True
        ).stdout
        source_name = None
        for line in listing.splitlines():
            if match := _COMPILED_FROM.match(line):
                source_name = match.group(1)
            elif source_name and (header := _CLASS_HEADER.search(line.split("{")[0].split("<")[0])):
                binary = header.group(1)
                package_dir = binary.rsplit(".", 1)[0].replace(".", "/") if "." in binary else ""
                for source_dir in source_dirs:
                    candidate = Path(source_dir, package_dir, source_name)
                    if (root / candidate).exists():
                        sources[binary] = str(candidate)
                        break
                source_name = None
    return sources


def jdeps_edges(
    root: Path, source_dirs: list[str], classpath: str | None, exclude: list[str], release: str | None = None
) -> tuple[set[str], set[tuple[str, str]]]:
    files = sorted(
        str(p) for d in source_dirs for p in (root / d).rglob("*.java") if not any(x in str(p) for x in exclude)
    )
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch, "classes")
        javac = ["javac", "-d", str(out), "-encoding", "UTF-8", "-nowarn", "-proc:none", "-Xlint:none"]
        if classpath:
            javac += ["-cp", classpath]
        if release:
            javac += ["--release", release]
        compiled = subprocess.run([*javac, *files], check=False, capture_output=True, text=True)
        if compiled.returncode != 0:
            raise SystemExit("javac failed:\n" + "\n".join(compiled.stderr.splitlines()[-15:]))
        jdeps = subprocess.run(
            ["jdeps", "-verbose:class", "-filter:none", *(["-cp", classpath] if classpath else []), str(out)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        pairs = [(m.group(1), m.group(2)) for line in jdeps.splitlines() if (m := _JDEPS_LINE.match(line))]
        classes = sorted(str(p.relative_to(out))[:-6].replace("/", ".") for p in out.rglob("*.class"))
        sources = class_sources(out, classes, root, source_dirs)
    nodes = set(sources.values())
    edges = {(sources[a], sources[b]) for a, b in pairs if a in sources and b in sources}
    return nodes, {(a, b) for a, b in edges if a != b}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("checkout", type=Path)
    parser.add_argument("source_dirs", nargs="+", help="source roots to compile, relative to CHECKOUT")
    parser.add_argument("--classpath", help="jars the sources need (kept out of the comparison)")
    parser.add_argument("--release", help="javac --release N, for sources that need an older JDK API")
    parser.add_argument("--exclude", action="append", default=[], help="skip sources whose path contains this")
    common.add_export_argument(parser)
    common.add_show_argument(parser)
    args = parser.parse_args()
    nodes, expected = jdeps_edges(args.checkout, args.source_dirs, args.classpath, args.exclude, args.release)
    if args.export:
        exported = common.export_file_edges(args.export)
    else:
        exported = common.konstruct_edges(args.checkout, SUPPORT, java_files(args.checkout))
    ours = common.within(exported, nodes)
    common.print_score(common.score(ours, expected), unit="files", units=len(nodes), reference="jdeps")
    common.print_differences(ours, expected, reference="jdeps", show=args.show)


if __name__ == "__main__":
    main()
