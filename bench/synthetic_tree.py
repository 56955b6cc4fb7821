"""A synthetic source tree for scale benchmarks (generated under /tmp at run time, never committed).

One small module per file, 3-4 imports each, shaped like real projects: files sit in packages of
`PACKAGE` files, packages in areas of `AREA` packages; an import goes to a sibling 60% of the time,
to the same area 30%, anywhere 10%, and each imported name is used (so `references` edges form too).

    python bench/synthetic_tree.py OUT [--files 100000] [--mix python|mixed] [--seed 1]

`mixed` writes 40% Python, 30% TypeScript, 15% Go (one go.mod), 15% Java (one source root); each
language imports only its own kind, as real code does.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

PACKAGE = 20  # files per package (folder)
AREA = 50  # packages per area (top folder)
MIXES = {"python": (("python", 1.0),),
         "mixed": (("python", 0.40), ("typescript", 0.30), ("go", 0.15), ("java", 0.15))}


def _targets(i: int, count: int, rng: random.Random) -> list[int]:
    """3 or 4 distinct other files for file i: 60% same package, 30% same area, 10% anywhere."""
    wanted = rng.choice((3, 4))
    chosen: list[int] = []
    for _ in range(wanted * 4):
        roll = rng.random()
        if roll < 0.6:
            base, span = i - i % PACKAGE, PACKAGE
        elif roll < 0.9:
            base, span = i - i % (PACKAGE * AREA), PACKAGE * AREA
        else:
            base, span = 0, count
        j = base + rng.randrange(min(span, count - base))
        if j != i and j not in chosen:
            chosen.append(j)
        if len(chosen) == wanted:
            break
    return chosen


def _where(i: int) -> tuple[int, int, int]:
    return i // (PACKAGE * AREA), (i // PACKAGE) % AREA, i % PACKAGE


def python_file(i: int, targets: list[int]) -> tuple[str, str]:
    area, package, k = _where(i)
    lines, calls = [], []
    for j in targets:
        a, p, m = _where(j)
        if (a, p) == (area, package):
            lines.append(f"from . import m{m}")
        else:
            lines.append(f"from a{a}.p{p} import m{m}")
        calls.append(f"m{m}.f{j}(x)")
    body = " + ".join(calls) or "x"
    text = "\n".join(lines) + f"\n\n\nclass C{i}:\n    value = {i}\n\n\ndef f{i}(x):\n    return {body}\n"
    return f"py/a{area}/p{package}/m{k}.py", text


def typescript_file(i: int, targets: list[int]) -> tuple[str, str]:
    area, package, k = _where(i)
    lines, calls = [], []
    for j in targets:
        a, p, m = _where(j)
        where = f"./m{m}" if (a, p) == (area, package) else (f"../p{p}/m{m}" if a == area else f"../../a{a}/p{p}/m{m}")
        lines.append(f'import {{ f{j} }} from "{where}";')
        calls.append(f"f{j}(x)")
    body = " + ".join(calls) or "x"
    text = "\n".join(lines) + f"\n\nexport function f{i}(x: number): number {{\n  return {body};\n}}\n"
    return f"ts/a{area}/p{package}/m{k}.ts", text


def go_file(i: int, targets: list[int]) -> tuple[str, str]:
    area, package, k = _where(i)
    imports, calls = [], []
    for j in targets:
        a, p, _ = _where(j)
        if (a, p) == (area, package):
            calls.append(f"F{j}(x)")
        else:
            alias = f"a{a}p{p}"
            imports.append(f'\t{alias} "example.com/big/go/a{a}/p{p}"')
            calls.append(f"{alias}.F{j}(x)")
    block = "import (\n" + "\n".join(sorted(set(imports))) + "\n)\n\n" if imports else ""
    body = " + ".join(calls) or "x"
    text = f"package p{package}\n\n{block}func F{i}(x int) int {{\n\treturn {body}\n}}\n"
    return f"go/a{area}/p{package}/m{k}.go", text


def java_file(i: int, targets: list[int]) -> tuple[str, str]:
    area, package, k = _where(i)
    imports, calls = [], []
    for j in targets:
        a, p, m = _where(j)
        if (a, p) != (area, package):
            imports.append(f"import com.acme.a{a}.p{p}.M{j};")
        calls.append(f"M{j}.run(x)")
    body = " + ".join(calls) or "x"
    text = (f"package com.acme.a{area}.p{package};\n\n" + "\n".join(sorted(set(imports))) +
            f"\n\npublic class M{i} {{\n    public static int run(int x) {{\n        return {body};\n    }}\n}}\n")
    return f"java/src/main/java/com/acme/a{area}/p{package}/M{i}.java", text


WRITERS = {"python": python_file, "typescript": typescript_file, "go": go_file, "java": java_file}


def generate(out: Path, files: int, mix: str = "python", seed: int = 1) -> dict[str, int]:
    """Write the tree; returns files per language. Each language is numbered on its own, so its
    imports stay inside it."""
    rng = random.Random(seed)
    counts = {name: int(files * share) for name, share in MIXES[mix]}
    first = MIXES[mix][0][0]
    counts[first] += files - sum(counts.values())
    folders: set[Path] = set()
    for language, count in counts.items():
        writer = WRITERS[language]
        for i in range(count):
            relative, text = writer(i, _targets(i, count, rng))
            path = out / relative
            if path.parent not in folders:
                path.parent.mkdir(parents=True, exist_ok=True)
                folders.add(path.parent)
                if language == "python":  # every folder a package, up to the py/ root
                    for parent in (path.parent, path.parent.parent):
                        (parent / "__init__.py").touch()
            path.write_text(text)
    if counts.get("go"):
        (out / "go.mod").write_text("module example.com/big\n\ngo 1.22\n")
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--mix", choices=sorted(MIXES), default="python")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.out.exists() and any(args.out.iterdir()):
        print(f"{args.out} is not empty", file=sys.stderr)
        return 2
    print(generate(args.out, args.files, args.mix, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
