"""Races: a symlink swapped in mid-batch never yields outside bytes, and an external writer's work is
never clobbered by an edit built on a revision."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import ReadRequest, Workspace, read_batch

_libc = ctypes.CDLL(None, use_errno=True)


def _exchange(folder: Path, a: str, b: str) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        _libc.renameat2(fd, a.encode(), fd, b.encode(), 2)  # RENAME_EXCHANGE
    finally:
        os.close(fd)


def test_symlink_swapped_in_during_a_batch_never_yields_outside_bytes(project: Path, outside: Path) -> None:
    (project / "d").mkdir()
    (project / "d" / "secret.txt").write_text("inside\n")
    os.symlink(outside, project / "d_link")  # outside/secret.txt says TOP-SECRET-OUTSIDE
    stop = threading.Event()

    def flip() -> None:
        while not stop.is_set():
            _exchange(project, "d", "d_link")  # 'd' is now the outside symlink, then the dir again

    seen: set[str] = set()
    flipper = threading.Thread(target=flip, daemon=True)
    flipper.start()
    try:
        with Workspace(project) as ws:
            for _ in range(10):
                result = read_batch(ws, [ReadRequest("d/secret.txt")] * 200, max_bytes=1 << 20)
                for entry in result["results"]:
                    assert "TOP-SECRET" not in entry.get("content", "")
                    seen.add(entry["status"])
                if {"ok", "refused"} <= seen:
                    break
    finally:
        stop.set()
        flipper.join()
    assert seen <= {"ok", "refused", "not_found"}
    assert {"ok", "refused"} <= seen, f"the swap never raced the reads: {seen}"


_WRITER = textwrap.dedent(
    """
    import os, random, sys, time
    path, stop = sys.argv[1], sys.argv[2]
    last, clobbered, writes = 0, 0, 0
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not os.path.exists(stop):
        text = open(path).read()
        counter = int(text.split("counter=")[1].split("\\n")[0])
        if counter < last:
            # Our latest write is not there. Gone for good, or a refused swap being undone?
            time.sleep(0.005)
            text = open(path).read()
            if int(text.split("counter=")[1].split("\\n")[0]) < last:
                clobbered += 1
        tool_line = text.split("tool=")[1].split("\\n")[0]
        last += 1
        body = f"counter={last}\\n" + "".join(f"filler line {i}\\n" for i in range(40)) + f"tool={tool_line}\\n"
        tmp = path + ".w"
        with open(tmp, "w") as f:
            f.write(body)
        os.replace(tmp, path)
        writes += 1
        time.sleep(random.uniform(0, 0.001))  # leave the tool windows to win some races
    print(clobbered, writes)
    """
)


def test_external_writer_hammer_never_sees_a_clobbered_write(project: Path) -> None:
    target = project / "shared.txt"
    target.write_text("counter=0\n" + "".join(f"filler line {i}\n" for i in range(40)) + "tool=0\n")
    stop = project.parent / "stop-writer"
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(target), str(stop)], stdout=subprocess.PIPE, text=True)
    statuses: dict[str, int] = {}
    deadline = time.monotonic() + 20
    with Workspace(project) as ws:
        context = ToolContext(ws)
        # Race until both outcomes have happened often enough to mean something (a busy machine
        # just takes longer), then stop the writer.
        while writer.poll() is None and time.monotonic() < deadline:
            if statuses.get("written", 0) >= 60 and statuses.get("conflict", 0) >= 60:
                break
            try:
                snapshot = ws.read("shared.txt")
            except Exception:
                continue
            text = snapshot.data.decode()
            tool_value = text.split("tool=")[1].split("\n")[0]
            result = call(
                "write_code",
                {"edits": [{"path": "shared.txt", "revision": snapshot.revision,
                            "replacements": [{"old": f"tool={tool_value}\n", "new": f"tool={int(tool_value) + 1}\n"}]}]},
                context,
            ).payload["results"][0]
            statuses[result["status"]] = statuses.get(result["status"], 0) + 1
            time.sleep(0.0005)
    stop.touch()
    clobbered, writes = map(int, writer.communicate()[0].split())
    assert writes >= 20
    assert statuses.get("written", 0) >= 20, statuses
    assert statuses.get("conflict", 0) >= 20, statuses
    assert clobbered == 0, f"{clobbered} of the writer's {writes} writes were clobbered ({statuses})"
    assert not [p for p in project.iterdir() if p.name.startswith(".konstruct-")], "temp files left behind"
