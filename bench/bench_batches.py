"""Batch overhead: read_code and write_code on 8 files (~2k lines) against plain file I/O, and the
cost of the write-ahead journal against the code before it.

Part 1 baselines: `open().read()` of the same 8 files, and `open('w').write()` of the same new
contents (plus, for honesty about durability, the same write done safely: temp + fsync + rename).

Part 2 (`--journal`, or `--baseline DIR`): `apply_edits` with the undo journal, a 200-file batch and a
one-file edit, run in subprocesses against this tree and against DIR's `konstruct_tui` (default
/work/main, the code before the write-ahead journal), alternating, so both see the same machine.
The journal now makes the pre-images durable before the first file is touched and the batch's end
before the result; the old one wrote its pre-images after the batch, without fsync.

Prints medians over many rounds and the ratios; the machine is shared and noisy, so read ratios.

    python bench/bench_batches.py [--rounds 200] [--journal] [--baseline /work/main]
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
    parser.add_argument("--journal", action="store_true", help="only part 2: the journal against the baseline")
    parser.add_argument("--baseline", default="/work/main", metavar="DIR", help="a checkout whose konstruct_tui is the baseline")
    parser.add_argument("--worker", choices=("200", "1"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        journal_worker(int(args.worker), args.rounds)
        return
    if args.journal:
        compare_journal(args.baseline, args.rounds)
        return
    rounds = args.rounds
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
    compare_journal(args.baseline, rounds)


def journal_worker(files: int, rounds: int) -> None:
    """In a subprocess: median seconds of `apply_edits` (with the journal) on `files` files."""
    import hashlib
    import json
    import sys

    from konstruct_tui.workspace import EditRequest, EditRun, Workspace, WriteJournal, apply_edits

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_DATA_HOME"] = str(Path(tmp) / "data")
        root = Path(tmp) / "project"
        contents = {}
        for n in range(files):
            path = f"pkg{n % 4}/m{n:03}.py"
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            contents[path] = f"VALUE = {n}\n" + "".join(f"def f{i}(v):\n    return v + {i}\n\n" for i in range(40))
            (root / path).write_text(contents[path])
        workspace = Workspace(root)
        journal = WriteJournal(root)
        samples = []
        for k in range(rounds):
            requests = []
            for path, text in contents.items():
                old = text.splitlines(keepends=True)[0]
                new = f"VALUE = {k}\n"
                requests.append(EditRequest(path, "replace", "sha256:" + hashlib.sha256(text.encode()).hexdigest(), replacements=((old, new),)))
                contents[path] = text.replace(old, new, 1)
            start = time.perf_counter()
            result = apply_edits(workspace, requests, run=EditRun(), journal=journal)
            samples.append(time.perf_counter() - start)
            assert all(e["status"] == "written" for e in result["results"]), result["results"][0]
        workspace.close()
    json.dump({"median_s": statistics.median(samples)}, sys.stdout)


def fsync_ms(rounds: int = 30) -> float:
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as tmp:
        samples = []
        for n in range(rounds):
            start = time.perf_counter()
            fd = os.open(Path(tmp) / f"f{n}", os.O_WRONLY | os.O_CREAT, 0o600)
            os.write(fd, b"x" * 4096)
            os.fsync(fd)
            os.close(fd)
            samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e3


def compare_journal(baseline: str, rounds: int) -> None:
    import json
    import subprocess
    import sys

    here = str(Path(__file__).resolve().parents[1])
    trees = {"before (baseline)": baseline, "write-ahead journal": here}
    plans = {"200": max(10, rounds // 10), "1": max(50, rounds)}
    medians: dict[tuple[str, str], list[float]] = {}
    for _ in range(3):  # alternate, so a busy moment of the machine hits both sides
        for files, count in plans.items():
            for name, tree in trees.items():
                env = {**os.environ, "PYTHONPATH": tree}
                out = subprocess.run([sys.executable, __file__, "--worker", files, "--rounds", str(count)],
                                     env=env, capture_output=True, text=True, check=True).stdout
                medians.setdefault((files, name), []).append(json.loads(out)["median_s"])
    print(f"apply_edits with the undo journal; medians of 3 alternating runs (baseline: {baseline})")
    print(f"one fsync of a new 4 KiB file on this disk: {fsync_ms():.2f} ms (the journal adds 2 file and 3-4 folder fsyncs per batch)")
    for files in plans:
        old = statistics.median(medians[(files, "before (baseline)")]) * 1e3
        new = statistics.median(medians[(files, "write-ahead journal")]) * 1e3
        label = "200-file batch" if files == "200" else "one-file edit "
        print(f"{label}  before {old:8.2f} ms   journal {new:8.2f} ms   ratio {new / old:5.2f}x   difference {new - old:+6.2f} ms")


if __name__ == "__main__":
    main()
