"""Where Konstruct keeps its own files: per-user directories (platformdirs), one folder per
workspace, and `JsonFile`, the one way a per-user JSON file is written."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import tempfile
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
        private_dir(self.path.parent)
        fd = os.open(f"{self.path}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
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
        """Replace the file atomically (callers hold the lock)."""
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
