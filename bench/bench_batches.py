"""Batch overhead: read_code and write_code on 8 files (~2k lines) against plain file I/O.

Baselines: `open().read()` of the same 8 files, and `open('w').write()` of the same new contents
(plus, for honesty about durability, the same write done safely: temp + fsync + rename).
Prints medians over many rounds and the ratios; the machine is shared and noisy, so read ratios.

    python bench/bench_batches.py [--rounds 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import Workspace

FILES = 8
LINES = 250


def make_project(root: Path) -> list[str]:
    names = []
    for n in range(FILES):
        name = f"pkg/module_{n}.py"
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("".join(f"def function_{n}_{i}(value):\n    return value + {i}\n" for i in range(LINES // 2)))
        names.append(name)
    return names


def median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def timed(action, rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_DATA_HOME"] = str(Path(tmp) / "data")  # the journal goes here, not to ~
        root = Path(tmp) / "project"
        root.mkdir()
        names = make_project(root)
        size = sum((root / n).stat().st_size for n in names)
        workspace = Workspace(root)
        context = ToolContext(workspace)

        plain_read = timed(lambda: [(root / n).read_bytes() for n in names], rounds)
        batch_read = timed(lambda: call("read_code", {"paths": names}, context), rounds)

        counter = iter(range(10**9))

        def plain_write() -> None:
            k = next(counter)
            for n in names:
                with open(root / n, "r+") as f:
                    text = f.read()
                    f.seek(0)
                    f.write(text.replace("return value + 0\n", f"return value + 0  # {k}\n", 1) if k % 2 else text)

        def safe_write() -> None:
            for n in names:
                data = (root / n).read_bytes()
                tmp_path = root / (n + ".tmp")
                with open(tmp_path, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp_path, root / n)

        state = {"tag": 0}

        def batch_write() -> None:
            revisions = {e["path"]: e["revision"] for e in call("read_code", {"paths": names}, context).payload["results"]}
            old, new = f"return value + 1  # {state['tag']}\n", f"return value + 1  # {state['tag'] + 1}\n"
            if state["tag"] == 0:
                old = "return value + 1\n"
            edits = [{"path": n, "revision": revisions[n], "replacements": [{"old": old, "new": new}]} for n in names]
            result = call("write_code", {"edits": edits}, ToolContext(workspace))
            assert all(e["status"] == "written" for e in result.payload["results"]), result.payload
            state["tag"] += 1

        write_rounds = max(20, rounds // 4)
        plain_w = timed(plain_write, write_rounds)
        safe_w = timed(safe_write, write_rounds)
        read_only = median_us(batch_read)
        batch_w = timed(batch_write, write_rounds)
        workspace.close()

    print(f"8 files, {FILES * LINES} lines, {size / 1024:.0f} KiB; medians over {rounds} (read) / {write_rounds} (write) rounds")
    print(f"read   plain open().read()       {median_us(plain_read):9.0f} us")
    print(f"read   read_code batch           {read_only:9.0f} us   ratio {read_only / median_us(plain_read):6.1f}x plain")
    print(f"write  plain open().write()      {median_us(plain_w):9.0f} us")
    print(f"write  temp+fsync+rename         {median_us(safe_w):9.0f} us")
    write_only = median_us(batch_w) - read_only
    print(f"write  write_code batch (8 edits){write_only:9.0f} us   ratio {write_only / median_us(plain_w):6.1f}x plain, "
          f"{write_only / median_us(safe_w):4.2f}x temp+fsync+rename")


if __name__ == "__main__":
    main()
