"""Are `unreferenced` and `callers` answers byte-identical between two copies of the code?

`export_identity.py` proves the file graph did not move; the entry points, loaders, names written as
text and supertypes that keep these two answers honest live in the language plugins
(`SUPPORT.unimported`, `SUPPORT.supertypes`), and this script proves moving them changed no answer.
It asks `konstruct tool traverse_graph` a fixed list of questions per corpus checkout (by its folder
name: rich, click, zod, gson, fiber, gin, anyhow) with PYTHONPATH set to the code under test, one
fresh XDG cache per repository, and writes each JSON answer to OUT/<repo>.<n>.<mode>.json. With
--compare DIR it prints sha256 before/after per answer and exits 1 on any difference.

    python bench/answers_identity.py --code /work/main --out /tmp/answers-before /tmp/corpus/*
    python bench/answers_identity.py --code $PWD --out /tmp/answers-after \
        --compare /tmp/answers-before /tmp/corpus/*
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from export_identity import fresh_environment, identity_run  # the same fresh run of a copy of the code, the same comparison

# (mode, folder for unreferenced ("" = the root) or symbol for callers), per corpus.
QUESTIONS = {
    "rich": [("unreferenced", ""), ("unreferenced", "rich"), ("unreferenced", "tests"), ("callers", "Console.print"),
             ("callers", "render"), ("callers", "__rich_console__"), ("callers", "Segment")],
    "click": [("unreferenced", ""), ("unreferenced", "src/click"), ("callers", "Command.invoke"), ("callers", "echo"),
              ("callers", "get_help")],
    "zod": [("unreferenced", ""), ("unreferenced", "packages"), ("callers", "parse"), ("callers", "ZodType"),
            ("callers", "_parse")],
    "gson": [("unreferenced", ""), ("callers", "toJson"), ("callers", "TypeAdapter.write"), ("callers", "read")],
    "fiber": [("unreferenced", ""), ("callers", "New"), ("callers", "Ctx.JSON"), ("callers", "init")],
    "gin": [("unreferenced", ""), ("callers", "Context.JSON"), ("callers", "New"), ("callers", "String")],
    "anyhow": [("unreferenced", ""), ("callers", "context"), ("callers", "Error.new")],
}


def answers(code: Path, repo: Path) -> list[tuple[str, bytes]]:
    found = []
    with tempfile.TemporaryDirectory(prefix="answers-identity-") as home:
        env = fresh_environment(code, home)
        for number, (mode, asked) in enumerate(QUESTIONS.get(repo.name, [])):
            body = {"mode": mode, "target": asked or None} if mode == "unreferenced" else {"mode": mode, "symbol": asked}
            done = subprocess.run(
                [sys.executable, "-m", "konstruct_tui", "tool", "--root", str(repo), "--json", json.dumps(body),
                 "traverse_graph"], env=env, capture_output=True, check=False, cwd=home)
            if done.returncode != 0:
                raise SystemExit(f"{repo.name} {mode} {asked}: exit {done.returncode}: {done.stderr.decode()[-500:]}")
            found.append((f"{repo.name}.{number}.{mode}.json", done.stdout))
    return found


def main() -> int:
    return identity_run(__doc__.splitlines()[0], answers, "answers")


if __name__ == "__main__":
    raise SystemExit(main())
