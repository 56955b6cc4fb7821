"""Our own git and rg never hang on a FIFO in the workspace.

git and rg open every ignore file they meet (`.gitignore`, `.ignore`, `.rgignore`, an include
file): a FIFO there, with no writer, blocks that open() until the command's timeout (60 s per
call, issue 31). Confined commands can no longer make one in the workspace (the sandbox grants
`make_fifo` only in a command's own TMPDIR), but one may come from elsewhere: the person, an
unconfined run, an archive. So our programs run here, and while one runs, every 200 ms we look
whether any of its threads (or its children's) sleeps in the kernel's FIFO open
(`wait_for_partner`). If so, each FIFO in the workspace that has a reader waiting is opened for
writing and closed at once: the waiting open() returns and its first read() sees end of file, so
git and rg read it as an empty file and go on. Nothing is looked for while nothing waits.
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
import time
from collections.abc import Mapping, Sequence

_TICK_S = 0.2
_MAX_ENTRIES = 1_000_000  # the walk that looks for FIFOs stops there


def run_unstalled(argv: Sequence[str], *, root: str | os.PathLike[str], timeout: float,
                  env: Mapping[str, str] | None = None, cwd: str | os.PathLike[str] | None = None,
                  ) -> subprocess.CompletedProcess[bytes]:
    """`subprocess.run(argv, capture_output=True, timeout=timeout)` that unblocks the program when
    it waits on a FIFO in `root`. Raises OSError and subprocess.TimeoutExpired like it."""
    deadline = time.monotonic() + timeout
    with subprocess.Popen(list(argv), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=None if env is None else dict(env), cwd=cwd) as process:
        while True:
            left = deadline - time.monotonic()
            try:
                out, err = process.communicate(timeout=max(min(left, _TICK_S), 0.001))
                return subprocess.CompletedProcess(process.args, process.returncode, out, err)
            except subprocess.TimeoutExpired:
                if left <= _TICK_S:
                    process.kill()
                    process.communicate()
                    raise subprocess.TimeoutExpired(process.args, timeout) from None
                if waits_on_a_fifo(process.pid):
                    release_fifos(os.fspath(root))


def waits_on_a_fifo(pid: int) -> bool:
    """Whether a thread of `pid`, or of a process it started, sleeps in a FIFO's open()."""
    seen: set[int] = set()
    queue = [pid]
    while queue and len(seen) < 256:
        current = queue.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            with contextlib.suppress(OSError, ValueError):
                with open(f"/proc/{current}/task/{task}/wchan", encoding="ascii") as handle:
                    if handle.read().strip() == "wait_for_partner":
                        return True
                with open(f"/proc/{current}/task/{task}/children", encoding="ascii") as handle:
                    queue.extend(int(child) for child in handle.read().split())
    return False


def release_fifos(root: str) -> int:
    """Open for writing (and close at once) each FIFO under `root` a reader waits on. Returns how
    many were released. Iterative, bounded, never follows a link."""
    released = 0
    stack = [root]
    budget = _MAX_ENTRIES
    while stack and budget > 0:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            budget -= 1
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                    continue
                if entry.is_file(follow_symlinks=False) or entry.is_symlink():
                    continue
                if not stat.S_ISFIFO(entry.stat(follow_symlinks=False).st_mode):
                    continue
                # Succeeds only while a reader is in open() (else ENXIO): nobody else is disturbed.
                descriptor = os.open(entry.path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW)
            except OSError:
                continue
            os.close(descriptor)
            released += 1
    return released
