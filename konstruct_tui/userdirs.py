"""Where Konstruct keeps its own files: per-user directories (platformdirs), one folder per
workspace, and `JsonFile`, the one way a per-user JSON file is written."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

APP = "konstruct"
T = TypeVar("T")


def data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir(APP, appauthor=False))


def config_dir() -> Path:
    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def workspace_key(root: str | os.PathLike[str]) -> str:
    """A stable folder name for a workspace: its real path hashed, with its base name for people."""
    real = os.path.realpath(os.fspath(root))
    digest = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in os.path.basename(real))[:40] or "root"
    return f"{name}-{digest}"


def private_dir(path: Path) -> Path:
    """Create `path` (and parents) readable by this user only."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


class StoreProblem(RuntimeError):
    """A file of ours that cannot be used as it is — held by another process, unwritable,
    unreadable — and that we will not treat as damaged. `str()` is one line naming the file and
    what to do; the CLI prints it and exits 2. Nothing was moved or changed."""


class StoreBusy(StoreProblem):
    """Another process held the file's lock for longer than `lock_wait_s()`."""


class StoreWaiting(UserWarning):
    """Another process holds a store's lock: we wait, bounded, and say so once."""


def lock_wait_s() -> float:
    """How long a busy store is waited for ($KONSTRUCT_LOCK_WAIT_S, default 10 s)."""
    try:
        value = float(os.environ.get("KONSTRUCT_LOCK_WAIT_S", "10"))
    except ValueError:
        return 10.0
    return value if value >= 0 else 10.0


def lock_holders(*paths: str | os.PathLike[str]) -> list[int]:
    """The other processes holding a lock on any of `paths` (flock or POSIX, from /proc/locks): a
    lock is not damage, and the person is told whom they wait for. [] where /proc says nothing."""
    inodes = set()
    for path in paths:
        with contextlib.suppress(OSError):
            st = os.stat(path)
            inodes.add(f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}")
    holders: list[int] = []
    with contextlib.suppress(OSError):
        with open("/proc/locks", encoding="ascii", errors="replace") as table:
            for line in table:
                fields = line.split()
                # "1: POSIX ADVISORY WRITE 1234 08:01:5678 0 EOF" (a "->" marks a waiter, not a holder)
                if len(fields) >= 6 and fields[1] != "->" and fields[5] in inodes and fields[4].isdigit():
                    pid = int(fields[4])
                    if pid != os.getpid() and pid not in holders:
                        holders.append(pid)
    return holders


def held_by(*paths: str | os.PathLike[str]) -> str:
    """" (pid 1234)" naming who holds `paths`, or "" when that cannot be told."""
    pids = lock_holders(*paths)
    return f" (pid {', '.join(map(str, pids))})" if pids else ""


def hold_lock(fd: int, path: Path, what: str) -> None:
    """Take an exclusive flock on `fd` (the lock file beside `path`). Held by another process: say
    so once (a StoreWaiting warning), wait up to `lock_wait_s()`, then raise StoreBusy naming the
    holder — never block without a word, never wait for ever."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    bound = lock_wait_s()
    warnings.warn(f"another konstruct{held_by(f'{path}.lock')} is writing {what} {path}; waiting up to {bound:g} s",
                  StoreWaiting, stacklevel=3)
    deadline = time.monotonic() + bound
    while True:
        time.sleep(0.05)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise StoreBusy(f"{what} {path} is held by another konstruct{held_by(f'{path}.lock')}; waited {bound:g} s: "
                                "try again when it has finished (nothing was changed)") from None


# SQLite's primary result codes (error.sqlite_errorcode & 0xff) that mean "not now" or "not
# allowed", never "damaged": a store failing with one of these is left exactly where it is.
SQLITE_BUSY_CODES = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED
SQLITE_ACCESS_CODES = {3, 8, 10, 13, 14, 23}  # PERM, READONLY, IOERR, FULL, CANTOPEN, AUTH


def sqlite_code(error: BaseException) -> int:
    return int(getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF


def sqlite_problem(path: Path, what: str, error: BaseException, fix: str) -> StoreProblem | None:
    """The one line for a SQLite error that is a lock or an access problem (None: it may be damage)."""
    import sqlite3  # here: most users of this module never open a database

    code = sqlite_code(error)
    if code in SQLITE_BUSY_CODES:
        return StoreBusy(f"{what} {path} is held by another konstruct{held_by(path, f'{path}-shm', f'{path}-wal')}; "
                         f"waited {lock_wait_s():g} s: try again when it has finished (nothing was changed)")
    if code in SQLITE_ACCESS_CODES or (isinstance(error, sqlite3.OperationalError) and "unable to open" in str(error)):
        kind = "is not a file" if os.path.isdir(path) else f"cannot be opened ({error})"
        return StoreProblem(f"{what} {path} {kind}: {fix} (nothing was changed)")
    return None


def integrity_ok(path: Path) -> bool | None:
    """`PRAGMA integrity_check` on a read-only connection: True sound, False damaged, None when it
    cannot be told (the file is locked or cannot be opened). Nothing is moved aside unless False."""
    import sqlite3

    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=lock_wait_s())
    except sqlite3.Error:
        return None
    try:
        rows = [row[0] for row in db.execute("PRAGMA integrity_check")]
        return rows == ["ok"]
    except sqlite3.DatabaseError as error:
        code = sqlite_code(error)
        return None if code in SQLITE_BUSY_CODES | SQLITE_ACCESS_CODES else False
    finally:
        db.close()


class FileDamaged(ValueError):
    """A per-user JSON file that does not parse or has the wrong shape; the message says why."""


def _an_object(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError("it is not a JSON object")
    return data


class JsonFile:
    """One per-user JSON file (the trust store, the sandbox settings): the one way such a file is
    written. Every change is a read-modify-write under an exclusive `flock` on `FILE.lock`, written
    to a temp file in the same folder (mode 0600, in a 0700 folder), fsynced and renamed over the
    old one, and the folder fsynced: two processes changing it at once both land, and a reader,
    which takes no lock, never sees half a file. `parse` validates what was read (raising
    ValueError); what a damaged file means is the caller's to decide (`on_damage`).
    """

    def __init__(self, path: Path, parse: Callable[[Any], dict[str, Any]] = _an_object) -> None:
        self.path = path
        self._parse = parse

    def read(self) -> dict[str, Any]:
        """The file's content, validated; {} when there is no file yet. Raises FileDamaged."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as error:
            raise FileDamaged(f"cannot read it: {getattr(error, 'strerror', None) or error}") from None
        try:
            return self._parse(json.loads(text))
        except ValueError as problem:  # a JSONDecodeError is one too
            raise FileDamaged(str(problem)) from None
        except RecursionError:  # `[[[[...` nested past the parser's depth: damaged, not a crash of every run
            raise FileDamaged("it is nested too deeply to be one of ours") from None

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        try:
            private_dir(self.path.parent)
            fd = os.open(f"{self.path}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as error:
            raise StoreProblem(f"cannot lock {self.path} ({error.strerror or error}): make its folder writable and run "
                               "the command again; the file was not changed") from None
        try:
            hold_lock(fd, self.path, "the file")
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def update(self, change: Callable[[dict[str, Any]], T], on_damage: Callable[[FileDamaged], dict[str, Any]]) -> T:
        """Apply `change` to the content under the lock and write the result. A damaged file is
        handed to `on_damage` (still under the lock), which says what content to start from."""
        with self.locked():
            try:
                data = self.read()
            except FileDamaged as damage:
                data = on_damage(damage)
            result = change(data)
            self.write(data)
            return result

    def move_aside(self) -> Path:
        """Keep a damaged file for the person to look at, under a name nobody reads (under the lock)."""
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        os.replace(self.path, aside)
        return aside

    def write(self, data: dict[str, Any]) -> None:
        """Replace the file atomically (callers hold the lock). A file or folder we cannot write
        (read-only, immutable, a full disk) is one line, the old file untouched."""
        try:
            self._write(data)
        except OSError as error:
            raise StoreProblem(f"cannot write {self.path} ({error.strerror or error}): make it and its folder writable "
                               "(or free some space) and run the command again; the file was not changed") from None

    def _write(self, data: dict[str, Any]) -> None:
        directory = self.path.parent
        private_dir(directory)
        fd, temp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=directory)
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=2, sort_keys=True)
                out.write("\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
            raise
        dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)  # the rename itself survives a crash
        finally:
            os.close(dir_fd)


def projects_table(version: int, check: Callable[[str, Any], None] | None = None) -> Callable[[Any], dict[str, Any]]:
    """A `parse` for the usual shape, `{"version": N, "projects": {real root: entry}}`: checks the
    version and each entry (`check` raises ValueError)."""

    def parse(data: Any) -> dict[str, Any]:
        if not isinstance(data, dict) or not isinstance(data.get("projects"), dict):
            raise ValueError("it has no projects table")
        if data.get("version", version) != version:
            raise ValueError(f"unknown version {data.get('version')!r}")
        for key, entry in data["projects"].items():
            if check is not None:
                check(key, entry)
        return data

    return parse
