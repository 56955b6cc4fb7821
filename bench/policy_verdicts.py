"""Every command line the command-policy tests use, with the policy's verdict under several configs.

Why: the command policy's tables were reorganised (one program table, commands/programs/); the
verdicts must not move. `--write FILE` records them (run it with PYTHONPATH pointing at the code
to record, e.g. the main branch), `--check [FILE]` compares the code on PYTHONPATH against a record
(by default bench/policy_verdicts_main.json.gz, made from main before the program table) and prints
how many verdicts are identical; it exits 1 when a verdict differs (a changed argv reading is listed for review). A record is JSON, gzipped when the
name ends in .gz.

    PYTHONPATH=/work/main python bench/policy_verdicts.py --write /tmp/before.json.gz
    PYTHONPATH=$PWD python bench/policy_verdicts.py --check /tmp/before.json.gz
"""

from __future__ import annotations

import argparse
import gzip
import ast
import json
import shlex
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests" / "commands"
ROOT = Path("/tmp/konstruct-policy-verdicts-root")  # a fixed project root: reasons may name places

CONFIGS = {
    "default": {},
    "read_only": {"read_only_sandbox": True},
    "presets": {"presets": ("python", "node", "go", "java"), "read_only_sandbox": True, "chains": True},
    "allow": {"allow": ("rg --pre", "git grep", "make", "git branch", "tar", "uv run", "find -delete", "npx"),
              "chains": True},
}


def command_lines(folder: Path = TESTS) -> list[str]:
    """Every string constant in the test files (the command lines and a little harmless prose)."""
    found: set[str] = set()
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return sorted(found)


def verdicts(lines: list[str]) -> dict[str, list[object]]:
    from konstruct_tui.commands import PolicyConfig, decide

    ROOT.mkdir(parents=True, exist_ok=True)
    out: dict[str, list[object]] = {}
    for name, settings in CONFIGS.items():
        config = PolicyConfig.build(root=ROOT, **settings)  # type: ignore[arg-type]
        for line in lines:
            try:
                d = decide(line, config)
            except Exception as error:  # a crash is recorded as one: a fix shows as a change to review
                out[f"{name}\t{line}"] = ["error", type(error).__name__]
                continue
            out[f"{name}\t{line}"] = [d.decision, d.rule, d.reason, list(d.argv), d.confinement]
    return out


def internals(lines: list[str]) -> dict[str, list[object]]:
    """The tables' answers for each line read as one argv: what is unsafe, what runs inside."""
    from konstruct_tui.commands.embedded import embedded_code
    from konstruct_tui.commands.unsafe_options import unsafe_for

    out: dict[str, list[object]] = {}
    for line in lines:
        try:
            argv = shlex.split(line)
        except ValueError:
            continue
        out[line] = [sorted(unsafe_for(argv)), [[e.code, e.via, e.strict, list(e.argv or ())] for e in embedded_code(argv)]]
    return out


def record() -> dict[str, dict[str, list[object]]]:
    lines = command_lines()
    return {"verdicts": verdicts(lines), "internals": internals(lines)}


def compare(before: dict[str, dict[str, list[object]]], after: dict[str, dict[str, list[object]]]) -> list[str]:
    """Keys whose answer differs (a key only in `after` is a new test's line: not a change). An
    argv reading is shown as the options added to or dropped from its unsafe set."""
    changed = []
    for key, old in before.get("verdicts", {}).items():
        new = after["verdicts"].get(key)
        if new is not None and new != old:
            fixed = old[0] == "error" and new[0] != "error"  # a crash the record kept, now an answer
            changed.append(f"{'fixed crash' if fixed else 'verdict'}: {key!r}: {old} -> {new}")
    for key, old in before.get("internals", {}).items():
        new = after["internals"].get(key)
        if new is None or new == old:
            continue
        added, dropped = sorted(set(new[0]) - set(old[0])), sorted(set(old[0]) - set(new[0]))  # type: ignore[arg-type]
        runs = "" if new[1] == old[1] else f"; code it runs {old[1]} -> {new[1]}"
        changed.append(f"reading: {key!r}: unsafe +{added} -{dropped}{runs}")
    return changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path)
    group.add_argument("--check", type=Path, nargs="?", const=HERE / "policy_verdicts_main.json.gz")
    args = parser.parse_args()
    now = record()
    if args.write:
        text = json.dumps(now, indent=0, sort_keys=True, ensure_ascii=False) + "\n"
        if args.write.suffix == ".gz":
            args.write.write_bytes(gzip.compress(text.encode("utf-8"), 9, mtime=0))
        else:
            args.write.write_text(text, encoding="utf-8")
        print(f"{len(now['verdicts'])} verdicts, {len(now['internals'])} argv readings written to {args.write}")
        return 0
    raw = args.check.read_bytes()
    before = json.loads(gzip.decompress(raw) if args.check.suffix == ".gz" else raw)
    changed = compare(before, now)
    for part, label in (("verdicts", "verdicts"), ("internals", "argv readings")):
        both = [k for k in before[part] if k in now[part]]
        same = sum(1 for k in both if now[part][k] == before[part][k])
        gone = len(before[part]) - len(both)
        print(f"{label} identical: {same}/{len(both)}" + (f" ({gone} recorded lines no longer in the tests)" if gone else ""))
    for line in changed:
        print("CHANGED", line)
    return 1 if any(line.startswith("verdict") for line in changed) else 0


if __name__ == "__main__":
    sys.exit(main())
