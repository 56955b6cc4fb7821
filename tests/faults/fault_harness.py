"""Shared pieces of the fault suite: a 200-file project, a batch over it, the CLI as a subprocess that
is signalled part-way, and a view of the tree that ignores nothing (temp files included)."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
FILES = 200
CREATES = 12  # of the 200 entries, this many make new files in a new folder


def make_project(root: Path) -> None:
    for n in range(FILES - CREATES):
        path = root / f"pkg{n % 4}" / f"m{n:03}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"VALUE = {n}\n" + "".join(f"def f{i}():\n    return {i}\n\n" for i in range(30)))
    (root / "marker.txt").write_text("".join(f"line {n}\n" for n in range(10)) + "state = before\n")


def revision(root: Path, path: str) -> str:
    return "sha256:" + hashlib.sha256((root / path).read_bytes()).hexdigest()


def batch_of_200(root: Path, atomic: bool) -> dict[str, Any]:
    edits: list[dict[str, Any]] = []
    for n in range(FILES - CREATES):
        path = f"pkg{n % 4}/m{n:03}.py"
        edits.append({"path": path, "revision": revision(root, path), "replacements": [{"old": f"VALUE = {n}\n", "new": f"VALUE = {n + 1000}\n"}]})
    for n in range(CREATES):
        edits.append({"path": f"fresh/deep/new_{n}.py", "create": True, "content": f"made = {n}\n"})
    return {"edits": edits, "atomic": atomic}


def tree(root: Path) -> dict[str, bytes]:
    """Every file under root (hidden ones too), by relative path."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def temp_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob(".konstruct-*"))


def changed(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    return {p for p in before.keys() | after.keys() if before.get(p) != after.get(p) and ".konstruct-" not in p}


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def journal_folder() -> Path:
    return Path(os.environ["XDG_DATA_HOME"]) / "konstruct" / "journal"


def landed_so_far() -> int:
    """Entries the batch in flight has logged as landed (-1: no batch open yet)."""
    opened = list(journal_folder().glob("*/*.open"))
    if not opened:
        return -1
    try:
        return (opened[0] / "landed").read_bytes().count(b"\n")
    except OSError:
        return -1


def signalled_batch(root: Path, arguments: dict[str, Any], signum: int, after_landed: int, timeout: float = 60.0,
                    tool: str = "write_code") -> subprocess.CompletedProcess[str]:
    """Run `konstruct tool write_code` (or `tool`) and send `signum` once `after_landed` entries have landed
    (0: as soon as its intent is in the journal). Returns the finished process."""
    process = subprocess.Popen(
        [sys.executable, "-m", "konstruct_tui", "tool", tool, "--root", str(root), "--json", json.dumps(arguments)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(),
    )
    deadline = time.monotonic() + timeout
    while process.poll() is None and time.monotonic() < deadline:
        if landed_so_far() >= after_landed:
            process.send_signal(signum)
            break
        time.sleep(0.001)
    out, err = process.communicate(timeout=timeout)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def apply_in_process(konstruct: Any, root: Path, arguments: dict[str, Any], tool: str = "write_code") -> dict[str, Any]:
    code, payload, err = konstruct("tool", tool, "--root", str(root), "--json", json.dumps(arguments))
    assert code == 0, err
    assert isinstance(payload, dict)
    return payload


SIGNALS = {"KILL": signal.SIGKILL, "INT": signal.SIGINT, "TERM": signal.SIGTERM}
