"""Where Konstruct keeps its own files: per-user directories (platformdirs), one folder per workspace."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import platformdirs

APP = "konstruct"


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
