"""Method-level `callers` against a type-aware reference, on a real checkout.

    python bench/accuracy_methods.py java CHECKOUT SOURCE_DIR [--sample 40] [--classpath JARS]
    python bench/accuracy_methods.py python CHECKOUT PACKAGE_DIR [--sample 40] [--kind method|function]
    python bench/accuracy_methods.py typescript CHECKOUT SOURCE_DIRS [--sample 150] [--kind mixed|function|class|method]
        [--typescript /tmp/tsref]

Konstruct indexes the whole checkout (the `konstruct index` pipeline, cache in the user cache dir)
and answers `callers` for a deterministic sample of public methods (every k-th by path and name).
The reference:
- Java: the compiler. SOURCE_DIR is compiled with javac; `javap -c -p` lists every invocation
  (`invokevirtual Owner.name`) in each class; the callers of `C.m` are the source files of classes
  invoking `m` on `C` or on a project subtype of `C` (javac names the receiver's static type).
  Only callers inside SOURCE_DIR are compared (what compiles without third-party jars).
- Python: Jedi's `get_references` (offline, on the checkout as a project): the files, other than
  the defining one, where a reference to the method's definition appears.
- TypeScript: the LanguageService's `findReferences` (bench/ts_references.js, typescript from an npm
  install in --typescript), the program being every TS/JS file of the checkout with the root
  tsconfig's options: the files, other than the defining one, holding a reference that is not a
  definition. Questions are exported symbols under SOURCE_DIRS (comma separated): top-level functions
  and classes with `export`, and the public methods of exported classes, mixed (--kind).

Printed per question: reference size, resolved hits, status; then micro precision and recall of
the `resolved` callers, how many answers were `undeterminable`, and how many said `no_references`
while the reference has callers (the failure this exists to prevent).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from konstruct_tui.graph.code_graph import build_index
from konstruct_tui.graph.freshness import Freshness
from konstruct_tui.graph.query import GraphQuery
from konstruct_tui.workspace import Workspace

sys.path.insert(0, str(Path(__file__).parent))
from accuracy_java import class_sources

_INVOKE = re.compile(r"//\s*(?:Method|InterfaceMethod)\s+([\w/$]+)\.([\w$<>]+):")
_HEADER = re.compile(r"^(?:[\w\s]*?)(?:class|interface|enum|record)\s+([\w.$]+)(?:<[^{]*?>)?"
                     r"(?:\s+extends\s+([\w.$<>,\s?]+?))?(?:\s+implements\s+([\w.$<>,\s?]+?))?\s*\{")
_OBJECT_METHODS = {"toString", "equals", "hashCode", "clone", "finalize", "getClass", "main"}


def sample(items: list, size: int) -> list:
    if len(items) <= size:
        return items
    step = len(items) / size
    return [items[int(i * step)] for i in range(size)]


def our_index(root: Path) -> tuple[GraphQuery, object]:
    workspace = Workspace(root)
    snapshot, _ = build_index(workspace)
    return GraphQuery(lambda: snapshot, Freshness(workspace)), snapshot


# --- Java ---------------------------------------------------------------------------------------

def javac_callers(root: Path, source_dir: str, classpath: str | None
                  ) -> tuple[dict[tuple[str, str], set[str]], dict[str, str]]:
    """({(binary class, method): {caller source files}}, {binary class: source file})."""
    files = sorted(str(p) for d in source_dir.split(",") for p in (root / d).rglob("*.java")
                   if p.name != "module-info.java")
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch, "classes")
        javac = ["javac", "-d", str(out), "-encoding", "UTF-8", "-nowarn", "-proc:none", "-Xlint:none",
                 *(["-cp", classpath] if classpath else []), *files]
        done = subprocess.run(javac, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit("javac failed:\n" + "\n".join(done.stderr.splitlines()[-15:]))
        classes = sorted(str(p.relative_to(out))[:-6].replace("/", ".") for p in out.rglob("*.class"))
        sources = class_sources(out, classes, root, source_dir.split(","))
        invoked: dict[tuple[str, str], set[str]] = defaultdict(set)
        supertypes: dict[str, set[str]] = defaultdict(set)
        for start in range(0, len(classes), 200):
            listing = subprocess.run(["javap", "-c", "-p", "-cp", str(out), *classes[start:start + 200]],
                                     capture_output=True, text=True, check=True).stdout
            current = None
            for line in listing.splitlines():
                header = _HEADER.match(line.strip()) if not line.startswith(" ") else None
                if header:
                    current = header.group(1)
                    for group in (header.group(2), header.group(3)):
                        for written in (group or "").split(","):
                            written = written.split("<")[0].strip()
                            if written:
                                supertypes[current].add(written)
                    continue
                match = _INVOKE.search(line)
                if match and current:
                    owner = match.group(1).replace("/", ".")
                    invoked[(owner, match.group(2))].add(current.split("$")[0])
    # A call through a subtype (javac records the receiver's static type) is a call of the method.
    subtypes: dict[str, set[str]] = defaultdict(set)
    for cls in list(supertypes):
        frontier, seen = [cls], set()
        while frontier:
            current = frontier.pop()
            for parent in supertypes.get(current, ()):
                if parent not in seen:
                    seen.add(parent)
                    subtypes[parent].add(cls)
                    frontier.append(parent)
    callers: dict[tuple[str, str], set[str]] = defaultdict(set)
    for (owner, name), users in invoked.items():
        for declaring in {owner, *(p for p, subs in subtypes.items() if owner in subs)}:
            callers[(declaring, name)] |= {sources[u] for u in users if u in sources}
    return callers, sources


def java_questions(root: Path, source_dir: str, snapshot, size: int, classpath: str | None
                   ) -> list[tuple[str, str, set[str]]]:
    reference, sources = javac_callers(root, source_dir, classpath)
    source_dir = source_dir.split(",")[0]
    by_source = defaultdict(list)
    for binary, path in sources.items():
        by_source[path].append(binary)
    questions = []
    for path in sorted(p for p in snapshot.files if p.startswith(source_dir.rstrip("/") + "/") and p.endswith(".java")):
        package = next(iter(by_source.get(path, ())), "").rpartition(".")[0]
        text = (root / path).read_text("utf-8", "replace").splitlines()
        for symbol in snapshot.files[path].symbols():
            if symbol.kind != "method" or symbol.name.rsplit(".", 1)[-1] in _OBJECT_METHODS:
                continue
            if "public" not in " ".join(text[symbol.start_line - 1:symbol.start_line + 1]):
                continue
            owner, _, name = symbol.name.rpartition(".")
            binary = f"{package}.{owner.replace('.', '$')}" if package else owner.replace(".", "$")
            expected = {f for f in reference.get((binary, name), set()) if f != path}
            questions.append((path, symbol.name, expected))
    return sample(questions, size)


# --- Python -------------------------------------------------------------------------------------

def python_questions(root: Path, package_dir: str, snapshot, size: int, kind: str) -> list[tuple[str, str, set[str]]]:
    import jedi

    # A `src/` layout must come first on the path, or `import pkg` finds an installed copy instead.
    roots = [str(root / package_dir.split("/")[0])] if package_dir.startswith("src/") else []
    project = jedi.Project(str(root), added_sys_path=roots, smart_sys_path=True)
    candidates = []
    for path in sorted(p for p in snapshot.files if p.startswith(package_dir.rstrip("/") + "/") and p.endswith(".py")):
        for symbol in snapshot.files[path].symbols():
            short = symbol.name.rsplit(".", 1)[-1]
            if symbol.kind != kind or short.startswith("_") or symbol.name.count(".") > (1 if kind == "method" else 0):
                continue
            candidates.append((path, symbol))
    questions = []
    for path, symbol in sample(candidates, size):
        short = symbol.name.rsplit(".", 1)[-1]
        lines = (root / path).read_text("utf-8", "replace").splitlines()
        line = next((i for i in range(symbol.start_line - 1, min(symbol.end_line, len(lines)))
                     if re.search(rf"\bdef\s+{re.escape(short)}\b", lines[i])), None)
        if line is None:
            continue
        column = lines[line].index(short, lines[line].index("def"))
        script = jedi.Script(path=str(root / path), project=project)
        found = script.get_references(line + 1, column, scope="project")
        expected = set()
        for ref in found:
            if ref.module_path is None or ref.is_definition():
                continue
            relative = str(Path(ref.module_path).resolve().relative_to(root.resolve())) \
                if str(ref.module_path).startswith(str(root.resolve())) else None
            if relative and relative != path:
                expected.add(relative)
        questions.append((path, symbol.name, expected))
    return questions


# --- TypeScript ---------------------------------------------------------------------------------

_TS_SOURCE = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def typescript_questions(root: Path, source_dirs: str, snapshot, size: int, kind: str, tool: Path
                         ) -> list[tuple[str, str, set[str]]]:
    prefixes = tuple(d.rstrip("/") + "/" for d in source_dirs.split(","))
    kinds = {"mixed": ("function", "class", "method")}.get(kind, (kind,))
    candidates = []
    seen: set[tuple[str, str]] = set()
    for path in sorted(p for p in snapshot.files if p.startswith(prefixes) and p.endswith(_TS_SOURCE)
                       and not p.endswith((".d.ts", ".d.mts", ".d.cts"))):
        lines = (root / path).read_text("utf-8", "replace").splitlines()
        symbols = snapshot.files[path].symbols()
        exported = {s.name for s in symbols if "." not in s.name
                    and re.match(r"\s*export\b", lines[s.start_line - 1] if s.start_line <= len(lines) else "")}
        for listed in re.findall(r"^\s*export\s*\{([^}]*)\}\s*;?\s*$", "\n".join(lines), re.MULTILINE):  # export {a, b as c}
            exported |= {part.split(" as ")[0].strip() for part in listed.split(",")}
        for symbol in symbols:
            if symbol.kind not in kinds:
                continue
            owner, _, short = symbol.name.rpartition(".")
            line = lines[symbol.start_line - 1] if symbol.start_line <= len(lines) else ""
            if symbol.kind == "method":
                if owner not in exported or "." in owner or short in ("constructor",) or short.startswith(("#", "_")) \
                        or re.match(r"\s*(?:private|protected)\b", line):
                    continue
            elif symbol.name not in exported:
                continue
            if (path, symbol.name) not in seen:  # a getter and its setter are one question
                seen.add((path, symbol.name))
                candidates.append((path, symbol))
    chosen = sample(candidates, size)
    with tempfile.TemporaryDirectory() as scratch:
        asked = Path(scratch, "questions.json")
        asked.write_text(json.dumps([{"file": p, "line": s.start_line, "name": s.name} for p, s in chosen]))
        done = subprocess.run(["node", str(Path(__file__).with_name("ts_references.js")), str(tool), str(root), str(asked)],
                              capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit("ts_references.js failed:\n" + done.stderr[-2000:])
    answers = json.loads(done.stdout)
    return [(p, s.name, set(answers[f"{p}::{s.name}"])) for p, s in chosen if answers.get(f"{p}::{s.name}") is not None]


# --- scoring ------------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language", choices=("java", "python", "typescript"))
    parser.add_argument("checkout", type=Path)
    parser.add_argument("source_dir", help="Java: the source root(s) to compile, comma separated, the first one "
                                           "being compared; Python: the package folder")
    parser.add_argument("--sample", type=int, default=None, help="questions (default 40; TypeScript 150)")
    parser.add_argument("--kind", default=None, help="Python: method (default) or function; "
                                                     "TypeScript: mixed (default), function, class or method")
    parser.add_argument("--typescript", type=Path, default=Path("/tmp/tsref"),
                        help="TypeScript: folder of an npm install of typescript")
    parser.add_argument("--show", type=int, default=60)
    parser.add_argument("--dump", type=Path, help="write every question's reference, resolved and candidate "
                                                   "callers to this JSON file (to read the mismatches)")
    parser.add_argument("--classpath", help="Java: jars the sources need to compile (annotations)")
    args = parser.parse_args()
    root = args.checkout.resolve()
    query, snapshot = our_index(root)
    size = args.sample or (150 if args.language == "typescript" else 40)
    scope = ""
    if args.language == "typescript":
        questions = typescript_questions(root, args.source_dir, snapshot, size, args.kind or "mixed", args.typescript)
    elif args.language == "java":
        questions = java_questions(root, args.source_dir, snapshot, size, args.classpath)
        scope = args.source_dir.split(",")[0].rstrip("/") + "/"  # compare only what the reference compiled
    else:
        questions = python_questions(root, args.source_dir, snapshot, size, args.kind or "method")
    hits = resolved_total = expected_total = 0
    statuses: dict[str, int] = defaultdict(int)
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # kind -> hits, resolved, expected
    kinds = {(p, s.name): s.kind for p, entry in snapshot.files.items() for s in entry.symbols()}
    false_none = honest = 0
    dumped = []
    for shown, (path, name, expected) in enumerate(questions):
        answer = query.references(name, file=path, limit=10_000)
        resolved = {r["path"] for r in answer.results if r.get("evidence") == "resolved" and r["path"].startswith(scope)}
        candidates = {r["path"] for r in answer.results if r.get("evidence") == "by_name"}
        statuses[answer.status] += 1
        dumped.append({"path": path, "name": name, "status": answer.status, "expected": sorted(expected),
                       "resolved": sorted(resolved), "candidates": sorted(candidates)})
        hits += len(resolved & expected)
        resolved_total += len(resolved)
        expected_total += len(expected)
        tally = by_kind[kinds.get((path, name), "?")]
        tally[0] += len(resolved & expected)
        tally[1] += len(resolved)
        tally[2] += len(expected)
        if expected and answer.status == "no_references":
            false_none += 1
        if answer.status == "undeterminable" and expected <= resolved | candidates:
            honest += 1
        if shown < args.show:
            missed, extra = sorted(expected - resolved)[:3], sorted(resolved - expected)[:3]
            print(f"{answer.status:15} ref {len(expected):3}  resolved {len(resolved):3}  hit {len(resolved & expected):3}"
                  f"  cand {len(candidates):3}  {path}::{name}" + (f"  missed e.g. {missed}" if missed else "")
                  + (f"  extra e.g. {extra}" if extra else ""))
    if args.dump:
        args.dump.write_text(json.dumps(dumped, indent=1))
    precision = hits / resolved_total if resolved_total else 1.0
    recall = hits / expected_total if expected_total else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    print(f"\n{len(questions)} questions ({args.language}, {args.checkout.name}); statuses {dict(statuses)}")
    print(f"resolved callers (file level, micro): precision {precision:.3f}  recall {recall:.3f}  F1 {f1:.3f}"
          f"  ({hits} hits / {resolved_total} resolved / {expected_total} expected)")
    for kind, (k_hits, k_resolved, k_expected) in sorted(by_kind.items()):
        print(f"  {kind:9} precision {k_hits / k_resolved if k_resolved else 1.0:.3f}"
              f"  recall {k_hits / k_expected if k_expected else 1.0:.3f}  ({k_hits}/{k_resolved}/{k_expected})")
    print(f"undeterminable answers: {statuses['undeterminable']} ({honest} with every reference caller among the "
          f"resolved callers and candidates)")
    print(f"no_references while the reference has callers: {false_none}")


if __name__ == "__main__":
    main()
