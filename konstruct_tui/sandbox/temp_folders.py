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
import contextlib
import os
import queue
import tempfile
import threading
from collections.abc import Callable

PREFIX = "konstruct-sandbox-"
MAX_ENTRIES = 1_000_000  # removed per folder at most; what is left waits for the next try (or exit)
_FLAT = ".konstruct-flat-"


def remove_tree(folder: str, budget: int = MAX_ENTRIES) -> bool:
    """Remove `folder` and all it holds without recursion and with two descriptors at most, so a
    command's 3,000-deep chain of folders (deeper than Python's recursion limit, longer than
    PATH_MAX as a path) goes like any other (issue 31): every sub-folder is renamed up into
    `folder` itself before it is emptied, so nothing is ever more than two levels down. Never
    follows a link; folders a command made unreadable are opened up first. False when `budget`
    entries were not enough (the rest stays)."""
    try:
        top = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    counter = 0
    taken: set[str] = set()  # names in the folder itself: a rename must never land on one
    try:
        pending: list[str | None] = [None]  # None: the folder itself; names: its direct sub-folders
        while pending:
            name = pending.pop()
            here = top if name is None else _open_folder(top, name)
            try:
                with os.scandir(here) as entries:
                    listing = [(e.name, e.is_dir(follow_symlinks=False)) for e in entries]
                for child, is_folder in listing:
                    budget -= 1
                    if budget < 0:
                        return False
                    if not is_folder:
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(child, dir_fd=here)
                    elif name is None:
                        pending.append(child)
                        taken.add(child)
                    else:
                        counter += 1
                        while f"{_FLAT}{counter}" in taken:
                            counter += 1
                        os.rename(child, f"{_FLAT}{counter}", src_dir_fd=here, dst_dir_fd=top)  # up into the top folder
                        pending.append(f"{_FLAT}{counter}")
            finally:
                if here != top:
                    os.close(here)
            if name is not None:
                os.rmdir(name, dir_fd=top)
    except OSError:
        return False
    finally:
        os.close(top)
    try:
        os.rmdir(folder)
    except FileNotFoundError:
        pass
    except OSError:
        return False
    return True


def _open_folder(top: int, name: str) -> int:
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        found = os.open(name, flags, dir_fd=top)
    except PermissionError:  # a command's `chmod 000` (root is never refused): opened up, never through a link
        handle = os.open(name, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=top)
        try:
            os.chmod(f"/proc/self/fd/{handle}", 0o700)
        finally:
            os.close(handle)
        found = os.open(name, flags, dir_fd=top)
    if os.geteuid() != 0:
        os.fchmod(found, 0o700)  # a folder without the write bit keeps its entries from anyone but root
    return found


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
            remove_tree(folder)
            return
        BACKGROUND.post(lambda: self._remove(folder))
        BACKGROUND.post(self._refill)

    def _remove(self, folder: str) -> None:
        remove_tree(folder)
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
            remove_tree(folder)

    def _remove_all(self) -> None:
        if self._owner != os.getpid():
            return  # a forked child does not own the parent's folders
        with self._lock:
            self._closed = True
            folders = self._ready + list(self._pending)
            self._ready, self._pending = [], set()
        for folder in folders:
            remove_tree(folder)


TEMP_FOLDERS = TempFolders()
