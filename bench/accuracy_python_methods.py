"""Python `callers` against Jedi on a real checkout: functions, classes and methods mixed.

    python bench/accuracy_python_methods.py CHECKOUT PACKAGE_DIR [--kind all|method|function|class]
        [--sample 150] [--confirm] [--jedi-limits] [--no-cache] [--jedi-env VENV]

Konstruct indexes the whole checkout (`accuracy_methods.our_index`) and answers `callers` for a
deterministic sample of public symbols under PACKAGE_DIR (`--kind all`: top-level functions and
classes and the methods of top-level classes, the held-out suite's mix). The reference is Jedi's
`get_references` (offline, the checkout as the project, `src/` first on its path): the files, other
than the defining one, holding a reference that is not a definition (so `from m import name` lines
do not count). Jedi's answers are cached per checkout (paths and sizes of its .py files) in the
temp folder (`--no-cache` asks again). Jedi stops after the first 30 files containing the name
(`_PARSED_FILE_LIMIT`), which loses most references of a popular name (click's `command`): the
limit is lifted unless `--jedi-limits` keeps Jedi's defaults. With `--confirm`, every resolved
caller Jedi's references leave out is put to Jedi's own `goto` at our call-site lines: when it lands
on the definition (or on the same module and name in an installed copy of the package), the
caller is real (Jedi's references miss properties, for one). `--jedi-env VENV` runs Jedi on that
interpreter's path (a bare venv): where the benchmark's own environment has the checked-out
package installed (attrs), Jedi would otherwise resolve the checkout's imports to the installed copy.

Printed per question: status, reference size, resolved hits, candidates; then micro precision,
recall and F1 of the files of `resolved` callers per kind and overall, how many answers were
`undeterminable` (and honest: every reference caller among the resolved callers and candidates),
and how many said `no_references` while the reference has callers.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from accuracy_methods import CallerTally, our_index, sample  # noqa: E402


_KINDS = {"all": ("function", "class", "method")}


def python_questions(root: Path, package_dir: str, snapshot, size: int, kind: str, cache: bool,
                     jedi_limits: bool) -> list[tuple[str, str, set[str]]]:
    if not jedi_limits:
        from jedi.inference import references

        references._PARSED_FILE_LIMIT = references._OPENED_FILE_LIMIT = 1_000_000
    kinds = _KINDS.get(kind, (kind,))
    candidates = []
    for path in sorted(p for p in snapshot.files if p.startswith(package_dir.rstrip("/") + "/") and p.endswith(".py")):
        for symbol in snapshot.files[path].symbols():
            short = symbol.name.rsplit(".", 1)[-1]
            if symbol.kind not in kinds or short.startswith("_") or symbol.name.count(".") > (symbol.kind == "method"):
                continue
            candidates.append((path, symbol))
    stored = _jedi_cache(root, jedi_limits, package_dir.startswith("src/")) if cache else None
    known = json.loads(stored.read_text()) if cache and stored.exists() else {}
    questions = []
    for path, symbol in sample(candidates, size):
        key = f"{path}::{symbol.name}::{symbol.start_line}"
        if key not in known:
            try:
                known[key] = _jedi_references(root, package_dir, path, symbol)
            except (RecursionError, KeyError, AttributeError) as error:  # Jedi's own failures on some code
                print(f"reference failed (Jedi {type(error).__name__}), question left out: {key}", file=sys.stderr)
                known[key] = None
        if known[key] is not None:
            questions.append((path, symbol.name, set(known[key])))
    if cache:
        stored.write_text(json.dumps(known))
    return questions


def _jedi_cache(root: Path, jedi_limits: bool, source_first: bool) -> Path:
    """A cache file named after the checkout's Python sources (paths and sizes): a new snapshot
    of the repository asks Jedi again."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(f"{path.relative_to(root)}:{path.stat().st_size}\n".encode())
    limited = ("-limited" if jedi_limits else "") + ("-env-" + Path(_JEDI_ENV[0]).name if _JEDI_ENV else "")
    limited += "-srcfirst" if source_first else ""
    return Path(tempfile.gettempdir(), f"konstruct-jedi-{root.name}-{digest.hexdigest()[:12]}{limited}.json")


_PROJECTS: dict[str, object] = {}
_JEDI_ENV: list[str] = []  # --jedi-env: the interpreter folder Jedi infers against


def _jedi_project(root: Path, package_dir: str):
    import jedi

    if str(root) not in _PROJECTS:
        # A `src/` layout must come first on the path, or `import pkg` finds an installed copy
        # instead (Jedi puts `added_sys_path` after site-packages: click's tests then resolved to
        # the installed click, and their references to the checkout's code went missing).
        environment = jedi.create_environment(_JEDI_ENV[0]) if _JEDI_ENV else jedi.get_default_environment()
        path = [p for p in environment.get_sys_path() if p]
        if package_dir.startswith("src/"):
            path = [str(root / "src"), *path]
        _PROJECTS[str(root)] = jedi.Project(str(root), sys_path=path, smart_sys_path=True,
                                            environment_path=_JEDI_ENV[0] if _JEDI_ENV else None)
    return _PROJECTS[str(root)]


def _jedi_references(root: Path, package_dir: str, path: str, symbol) -> list[str] | None:
    import jedi

    short = symbol.name.rsplit(".", 1)[-1]
    keyword = "class" if symbol.kind == "class" else "def"
    lines = (root / path).read_text("utf-8", "replace").splitlines()
    line = next((i for i in range(symbol.start_line - 1, min(symbol.end_line, len(lines)))
                 if re.search(rf"\b{keyword}\s+{re.escape(short)}\b", lines[i])), None)
    if line is None:
        return None
    column = lines[line].index(short, lines[line].index(keyword))
    script = jedi.Script(path=str(root / path), project=_jedi_project(root, package_dir))
    expected = set()
    for ref in script.get_references(line + 1, column, scope="project"):
        if ref.module_path is None or ref.is_definition():
            continue
        relative = str(Path(ref.module_path).resolve().relative_to(root.resolve())) \
            if str(ref.module_path).startswith(str(root.resolve())) else None
        if relative and relative != path:
            expected.add(relative)
    return sorted(expected)


def goto_confirms(root: Path, package_dir: str, path: str, spans: list[tuple[int, int]], short: str, caller: str,
                  lines: list[int]) -> bool:
    """Whether Jedi's own goto, asked at one of our call-site lines in `caller`, lands on the
    definition: a reference its `get_references` left out (a property, an overloaded decorator)."""
    import jedi

    text = (root / caller).read_text("utf-8", "replace").splitlines()
    script = jedi.Script(path=str(root / caller), project=_jedi_project(root, package_dir))
    target = str((root / path).resolve())
    # Jedi may land on an installed copy of the same package (site-packages/attr/validators.py for
    # the checkout's src/attr/validators.py, found first through a stub): the same definition,
    # matched by module path and name since the installed version's lines differ.
    installed = "/" + path[len(package_dir.rsplit("/", 1)[0]) + 1:] if "/" in package_dir else "/" + path
    for line in lines[:12]:
        for match in re.finditer(rf"(?<![\w]){re.escape(short)}(?!\w)", text[line - 1] if line <= len(text) else ""):
            try:
                found = script.goto(line, match.start(), follow_imports=True)
            except Exception:  # noqa: BLE001 - Jedi fails on some code; that is not a confirmation
                continue
            if any(d.module_path and str(Path(d.module_path).resolve()) == target and d.line is not None
                   and any(a <= d.line <= b for a, b in spans) for d in found):
                return True
            if any(d.module_path and not str(Path(d.module_path).resolve()).startswith(str(root.resolve()) + "/")
                   and str(d.module_path).endswith(installed) and d.name == short for d in found):
                return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("source_dir", help="the package folder (`src/click`, `rich`)")
    parser.add_argument("--sample", type=int, default=150)
    parser.add_argument("--kind", default="all", help="method, function, class or all (mixed)")
    parser.add_argument("--no-cache", action="store_true", help="Python: ask Jedi again")
    parser.add_argument("--jedi-limits", action="store_true", help="Python: keep Jedi's 30-file search limit")
    parser.add_argument("--show", type=int, default=60)
    parser.add_argument("--jedi-env", help="Python: a venv whose interpreter Jedi infers against")
    parser.add_argument("--confirm", action="store_true",
                        help="Python: ask Jedi's goto at our call sites whether an extra caller is real")
    args = parser.parse_args()
    root = args.checkout.resolve()
    if args.jedi_env:
        _JEDI_ENV.append(args.jedi_env)
    query, snapshot = our_index(root)
    questions = python_questions(root, args.source_dir, snapshot, args.sample, args.kind, not args.no_cache,
                                 args.jedi_limits)
    scope = ""
    tally = CallerTally()
    checked = [0, 0]  # extra resolved callers, of which Jedi's goto confirms
    for shown, (path, name, expected) in enumerate(questions):
        kind = next((s.kind for s in snapshot.files[path].symbols() if s.name == name), "?")
        answer = query.references(name, file=path, limit=10_000, uses_only=True)  # as `callers` asks
        resolved = {r["path"] for r in answer.results if r.get("evidence") == "resolved" and r["path"].startswith(scope)}
        candidates = {r["path"] for r in answer.results if r.get("evidence") == "by_name"}
        tally.add(kind, answer.status, expected, resolved, candidates)
        confirmed = set()
        if args.confirm:
            lines = {r["path"]: r.get("lines") or [] for r in answer.results}
            spans = [(s.start_line, s.end_line) for s in snapshot.files[path].symbols() if s.name == name]
            confirmed = {extra for extra in resolved - expected
                         if goto_confirms(root, args.source_dir, path, spans, name.rsplit(".", 1)[-1], extra, lines.get(extra, []))}
            checked[0] += len(resolved - expected)
            checked[1] += len(confirmed)
        if shown < args.show:
            missed, extra = sorted(expected - resolved)[:6], sorted(resolved - expected)[:6]
            print(f"{answer.status:15} ref {len(expected):3}  resolved {len(resolved):3}  hit {len(resolved & expected):3}"
                  f"  cand {len(candidates):3}  {kind[:5]:5} {path}::{name}" + (f"  missed {missed}" if missed else "")
                  + (f"  extra {extra}" if extra else "") + (f"  goto-confirmed {sorted(confirmed)}" if confirmed else ""))
    print(f"\n{len(questions)} questions (python, {args.checkout.name}); statuses {dict(tally.statuses)}")
    tally.print_scores()
    if args.confirm:
        hits, resolved_total, expected_total = tally.kinds["all"]
        precision = (hits + checked[1]) / resolved_total if resolved_total else 1.0
        print(f"extra resolved callers: {checked[0]}, of which Jedi's goto at our call site lands on the definition: "
              f"{checked[1]} -> precision against references + goto-confirmed {precision:.3f}")
    tally.print_honesty()


if __name__ == "__main__":
    main()
