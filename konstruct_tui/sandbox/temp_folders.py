"""Private temp folders for confined commands, and the one background thread that makes them
ahead and removes them behind.

Each confined command gets a fresh folder of its own (mode 0700) as TMPDIR: the only place outside
the workspace it may write. Making and removing a folder is cheap on tmpfs but can cost milliseconds
on a busy journaled disk, which would dominate starting a short command; so folders are made in
advance and removed afterwards by one background thread, never while a command is starting. A
folder is never handed out twice; folders made or used but not yet removed at exit are removed then.
"""

from __future__ import annotations

import atexit
import os
import queue
import shutil
import tempfile
import threading
from collections.abc import Callable

PREFIX = "konstruct-sandbox-"


class Background:
    """One daemon thread running small jobs in order (started on first use, and again after a fork)."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def post(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._work, name="konstruct-sandbox-background", daemon=True)
                self._thread.start()
        self._jobs.put(job)

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                job()
            except Exception:  # noqa: BLE001 - a failed background chore must not stop the next one
                continue


BACKGROUND = Background()


class TempFolders:
    def __init__(self, ready: int = 2) -> None:
        self._ready: list[str] = []
        self._pending: set[str] = set()  # handed back, not removed yet
        self._target = ready
        self._lock = threading.Lock()
        self._owner = os.getpid()
        self._closed = False  # at exit: nothing is made any more, everything handed back goes at once
        atexit.register(self._remove_all)

    def take(self) -> str:
        """A new, empty folder that only we can enter."""
        with self._lock:
            folder = self._ready.pop() if self._ready and self._owner == os.getpid() else None
        return folder or tempfile.mkdtemp(prefix=PREFIX)

    def discard(self, folder: str) -> None:
        """Remove a used folder and all it holds, and make the next one, off the caller's path."""
        with self._lock:
            closed = self._closed
            if not closed:
                self._pending.add(folder)
        if closed:
            shutil.rmtree(folder, ignore_errors=True)
            return
        BACKGROUND.post(lambda: self._remove(folder))
        BACKGROUND.post(self._refill)

    def _remove(self, folder: str) -> None:
        shutil.rmtree(folder, ignore_errors=True)
        with self._lock:
            self._pending.discard(folder)

    def _refill(self) -> None:
        with self._lock:
            if len(self._ready) >= self._target or self._closed:
                return
        folder = tempfile.mkdtemp(prefix=PREFIX)
        with self._lock:
            closed = self._closed
            if not closed:
                self._ready.append(folder)
        if closed:  # exit came while we made it
            shutil.rmtree(folder, ignore_errors=True)

    def _remove_all(self) -> None:
        if self._owner != os.getpid():
            return  # a forked child does not own the parent's folders
        with self._lock:
            self._closed = True
            folders = self._ready + list(self._pending)
            self._ready, self._pending = [], set()
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)


TEMP_FOLDERS = TempFolders()
