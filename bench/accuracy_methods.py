"""Member, function and type `callers` against a type-aware reference, on a real checkout.

    python bench/accuracy_methods.py java CHECKOUT SOURCE_DIR[,MORE_DIRS] [--kind all] [--sample 150] [--classpath JARS]
    python bench/accuracy_methods.py go CHECKOUT [FOLDER] [--kind all] [--sample 150]
    python bench/accuracy_methods.py python CHECKOUT PACKAGE_DIR [--sample 40] [--kind method|function]
    python bench/accuracy_methods.py typescript CHECKOUT SOURCE_DIRS [--sample 150] [--kind mixed|function|class|method]
        [--typescript /tmp/tsref]

Konstruct indexes the whole checkout (the `konstruct index` pipeline, cache in the user cache dir)
and answers `callers` for a deterministic sample of symbols (every k-th by path and name).
The reference is a type checker's "find references" (bench/references):
- Java: javac itself (JavaReferences.java): every source dir is parsed and attributed (compile
  errors, e.g. a missing test library, are ignored), and each identifier, member select, `new` and
  method reference is bound to its element. A method's callers are the files where javac's
  overload resolution picked that declaration: an inherited method called on a subclass counts
  for the class declaring it, a call through an interface for the interface's method (not for an
  implementation), a call of an override for the override. The symbols sampled are the non-private
  types, methods and fields of the first source dir; callers are compared in every source dir.
- Go: go/types (references/go/main.go, stdlib only): every package of the checkout type-checked
  from source with its tests; Info.Uses binds identifiers to objects (a promoted method to the
  embedded type's method, an interface call to the interface's method).
- Python: Jedi's `get_references` (offline, on the checkout as a project): the files, other than
  the defining one, where a reference to the method's definition appears.
- TypeScript: the LanguageService's `findReferences` (bench/ts_references.js, typescript from an npm
  install in --typescript), the program being every TS/JS file of the checkout with the root
  tsconfig's options: the files, other than the defining one, holding a reference that is not a
  definition. Questions are exported symbols under SOURCE_DIRS (comma separated): top-level functions
  and classes with `export`, and the public methods of exported classes, mixed (--kind).

Printed per question: reference size, resolved hits, status; then micro precision, recall and F1
of the files of `resolved` callers per kind and overall, how many answers were `undeterminable`,
and how many said `no_references` while the reference has callers (the failure this exists to
prevent).
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


def sample(items: list, size: int) -> list:
    if len(items) <= size:
        return items
    step = len(items) / size
    return [items[int(i * step)] for i in range(size)]


def our_index(root: Path) -> tuple[GraphQuery, object]:
    workspace = Workspace(root)
    snapshot, _ = build_index(workspace)
    return GraphQuery(lambda: snapshot, Freshness(workspace)), snapshot


# --- Java and Go: a compiler's "find references" ----------------------------------------------

_REFERENCES = Path(__file__).parent / "references"
_JAVA_TYPES = frozenset({"class", "interface", "enum", "record", "annotation"})
_KINDS = {  # --kind -> our symbol kinds
    "java": {"type": _JAVA_TYPES, "method": {"method"}, "field": {"field", "constant"}},
    "go": {"type": {"struct", "interface", "type"}, "method": {"method"}, "function": {"function"},
           "var": {"var", "const", "constant", "variable"}},
}


def reference_rows(language: str, root: Path, source_dirs: list[str], classpath: str | None, keep: str | None
                   ) -> tuple[dict[tuple[str, str], set[str]], set[str]]:
    """({(declaring file, symbol name): {using files}}, every file the reference read), from
    bench/references: javac's attributed trees for Java, go/types for Go."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(keep) if keep else Path(scratch, "refs.tsv")
        if language == "java":
            files = sorted(str(p) for d in source_dirs for p in (root / d).rglob("*.java") if p.name != "module-info.java")
            command = ["java", str(_REFERENCES / "JavaReferences.java"), str(out),
                       *(["-cp", classpath] if classpath else []), *files]
            seen = {str(Path(f).relative_to(root)) for f in files}
        else:
            command = ["go", "run", str(_REFERENCES / "go" / "main.go"), str(root), str(out)]
            seen = {str(p.relative_to(root)) for p in root.rglob("*.go")
                    if not {"vendor", "testdata"} & set(p.relative_to(root).parts)
                    and not any(part.startswith(".") for part in p.relative_to(root).parts)}
        if not (keep and out.exists()):  # --keep-reference: a reference kept from an earlier run
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode != 0 or not out.exists():
                raise SystemExit(f"{language} reference failed:\n" + "\n".join(done.stderr.splitlines()[-15:]))
            print(done.stderr.strip().splitlines()[-1], file=sys.stderr)
        rows: dict[tuple[str, str], set[str]] = defaultdict(set)
        for line in out.read_text("utf-8").splitlines():
            declared, name, _, using = line.split("\t")
            if language == "java":
                declared, using = str(Path(declared).relative_to(root)), str(Path(using).relative_to(root))
            if using != declared:
                rows[(declared, name)].add(using)
    return rows, seen


def typed_questions(language: str, root: Path, source_dirs: list[str], snapshot, size: int, kind: str,
                    classpath: str | None, keep: str | None = None
                    ) -> tuple[list[tuple[str, str, str, set[str]]], set[str]]:
    """(path, symbol, kind, reference callers) for a deterministic sample of the symbols the
    first source dir declares (Java: not private; Go: outside tests), and the files compared."""
    reference, seen = reference_rows(language, root, source_dirs, classpath, keep)
    kinds = _KINDS[language]
    wanted = {k: v for k, v in kinds.items() if kind in ("all", k)}
    scope = source_dirs[0].rstrip("/") + "/" if source_dirs[0] not in ("", ".") else ""
    candidates = []
    for path in sorted(p for p in snapshot.files if p in seen and p.startswith(scope)):
        if path.endswith("_test.go"):
            continue
        symbols = snapshot.files[path].symbols()
        types = {s.name for s in symbols if s.kind in kinds["type"]}
        lines = (root / path).read_text("utf-8", "replace").splitlines() if language == "java" else []
        for symbol in symbols:
            group = next((k for k, v in wanted.items() if symbol.kind in v), None)
            owner = symbol.name.rpartition(".")[0]
            # Members of local and anonymous classes have no name another file could use.
            if group is None or (owner and owner not in types) or symbol.name.rsplit(".", 1)[-1] == "_":
                continue
            if language == "java" and _private(lines, symbol):
                continue
            candidates.append((path, symbol.name, group, reference.get((path, symbol.name), set())))
    unique = {(q[0], q[1]): q for q in candidates}  # overloads are one symbol name
    return sample([unique[k] for k in sorted(unique)], size), seen


def _private(lines: list[str], symbol) -> bool:
    """Whether the declaration's lines up to its name say `private` (annotations come first)."""
    short = symbol.name.rsplit(".", 1)[-1]
    for line in lines[symbol.start_line - 1:symbol.end_line]:
        if re.search(r"\bprivate\b", line):
            return True
        if re.search(rf"\b{re.escape(short)}\b", line):
            return False
    return False


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


_TS_SOURCE = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def typescript_questions(root: Path, source_dirs: str, snapshot, size: int, kind: str, tool: Path
                         ) -> list[tuple[str, str, set[str]]]:
    prefixes = tuple("" if d in ("", ".") else d.rstrip("/") + "/" for d in source_dirs.split(","))
    kinds = {"mixed": ("function", "class", "method"), "all": ("function", "class", "method")}.get(kind, (kind,))
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


class CallerTally:
    """One `callers` answer after another against a reference: micro precision, recall and F1 of
    the files of `resolved` callers per kind and overall, the statuses, the `undeterminable`
    answers that are honest (every reference caller among the resolved callers and candidates),
    and the `no_references` answers the reference contradicts."""

    def __init__(self) -> None:
        self.kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # hits, resolved, expected
        self.statuses: dict[str, int] = defaultdict(int)
        self.false_none = self.honest = 0

    def add(self, kind: str, status: str, expected: set[str], resolved: set[str], candidates: set[str]) -> None:
        self.statuses[status] += 1
        for key in (kind, "all"):
            self.kinds[key][0] += len(resolved & expected)
            self.kinds[key][1] += len(resolved)
            self.kinds[key][2] += len(expected)
        self.false_none += bool(expected) and status == "no_references"
        self.honest += status == "undeterminable" and expected <= resolved | candidates

    def print_scores(self) -> None:
        for key, (hits, resolved, expected) in sorted(self.kinds.items(), key=lambda item: item[0] != "all"):
            precision = hits / resolved if resolved else 1.0
            recall = hits / expected if expected else 1.0
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
            print(f"{key:9} resolved callers (file level, micro): precision {precision:.3f}  recall {recall:.3f}  "
                  f"F1 {f1:.3f}  ({hits} hits / {resolved} resolved / {expected} expected)")

    def print_honesty(self) -> None:
        print(f"undeterminable answers: {self.statuses['undeterminable']} ({self.honest} with every reference caller "
              f"among the resolved callers and candidates)")
        print(f"no_references while the reference has callers: {self.false_none}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language", choices=("java", "go", "python", "typescript"))
    parser.add_argument("checkout", type=Path)
    parser.add_argument("source_dir", nargs="?", default=".",
                        help="Java: the source root(s) to compile, comma separated, the first one holding the sampled "
                             "symbols; Go: the folder holding them (default: the whole checkout); Python: the package; "
                             "TypeScript: the source folders, comma separated")
    parser.add_argument("--sample", type=int, default=None, help="questions (default 40; TypeScript 150)")
    parser.add_argument("--kind", default=None,
                        help="Python: method (default) or function; TypeScript: mixed (default), function, class or "
                             "method; Java: all (default), type, method or field; Go: all (default), type, method, "
                             "function or var")
    parser.add_argument("--typescript", type=Path, default=Path("/tmp/tsref"),
                        help="TypeScript: folder of an npm install of typescript")
    parser.add_argument("--show", type=int, default=60)
    parser.add_argument("--dump", type=Path, help="write every question's reference, resolved and candidate "
                                                   "callers to this JSON file (to read the mismatches)")
    parser.add_argument("--classpath", help="Java: jars the sources need to compile (annotations, test libraries)")
    parser.add_argument("--keep-reference", help="Java, Go: keep the reference's rows in this file and reuse them")
    args = parser.parse_args()
    root = args.checkout.resolve()
    query, snapshot = our_index(root)
    size = args.sample or (150 if args.language == "typescript" else 40)
    compared = None  # Java, Go: only files the reference read can be compared (Java: what was compiled)
    if args.language == "python":
        kind = args.kind or "method"
        questions = [(p, n, kind, e) for p, n, e in python_questions(root, args.source_dir, snapshot, size, kind)]
    elif args.language == "typescript":
        kinds = {(p, s.name): s.kind for p, entry in snapshot.files.items() for s in entry.symbols()}
        questions = [(p, n, kinds.get((p, n), "?"), e) for p, n, e in
                     typescript_questions(root, args.source_dir, snapshot, size, args.kind or "mixed", args.typescript)]
    else:
        questions, compared = typed_questions(args.language, root, args.source_dir.split(","), snapshot, size,
                                              args.kind or "all", args.classpath, args.keep_reference)
    tally = CallerTally()
    dumped = []
    for shown, (path, name, kind, expected) in enumerate(questions):
        answer = query.references(name, file=path, limit=10_000, uses_only=True)  # as `callers` asks
        resolved = {r["path"] for r in answer.results if r.get("evidence") == "resolved"
                    and (compared is None or r["path"] in compared)}
        candidates = {r["path"] for r in answer.results if r.get("evidence") == "by_name"}
        tally.add(kind, answer.status, expected, resolved, candidates)
        dumped.append({"path": path, "name": name, "status": answer.status, "expected": sorted(expected),
                       "resolved": sorted(resolved), "candidates": sorted(candidates)})
        if shown < args.show:
            missed, extra = sorted(expected - resolved)[:3], sorted(resolved - expected)[:3]
            print(f"{answer.status:15} ref {len(expected):3}  resolved {len(resolved):3}  hit {len(resolved & expected):3}"
                  f"  cand {len(candidates):3}  {kind:8} {path}::{name}" + (f"  missed e.g. {missed}" if missed else "")
                  + (f"  extra e.g. {extra}" if extra else ""))
    if args.dump:
        args.dump.write_text(json.dumps(dumped, indent=1))
    counts: dict[str, int] = defaultdict(int)
    for question in questions:
        counts[question[2]] += 1
    print(f"\n{len(questions)} questions ({args.language}, {args.checkout.name}, {dict(counts)}); "
          f"statuses {dict(tally.statuses)}")
    tally.print_scores()
    tally.print_honesty()

if __name__ == "__main__":
    main()
