"""Files in the workspace that programs outside the sandbox run: held read-only to commands.

A confined command may write the workspace, but some files there are run later by something that
is not confined: the person's own shell, their `git status`, the next konstruct start. Writing one
is an escape that waits (issue 31):
- a virtualenv (any folder with `pyvenv.cfg`): `.venv/lib/python3.X/site-packages/zz.pth` runs at
  the next start of every Python of that environment, konstruct's own when it is installed there;
- git's include files (`include.path`, `includeIf.*.path`) and whatever file git reports reading
  configuration from: a line planted there (`core.fsmonitor`, a textconv, a filter) runs with the
  person's `git status`, like one planted in `.git/config` (which is read-only already);
- a configured hooks folder (`core.hooksPath = .githooks`) and any path git's configuration names
  as a program (`filter.x.clean = ./tools/clean.sh`, `alias.t = !./t.sh`, `core.fsmonitor = ...`).
Each is bound read-only over itself in the command's mount namespace, as `.git` is. An include
file or hooks folder git is told to use but that does not exist yet is made (empty) first, so it
can be held: otherwise the command could create it.

git's configuration is read with our hardened git (reading configuration runs nothing), cached
until one of the files it read changes.
"""

from __future__ import annotations

import os
import shlex
import sys
import threading
from pathlib import Path

from ..workspace import config_entries, files_key, names_program

_SKIP = frozenset({".git", "node_modules", ".hg", ".svn"})
_cache: dict[str, tuple[tuple, tuple[str, ...]]] = {}
_lock = threading.Lock()


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def virtualenvs(root: str) -> list[str]:
    """Folders with a `pyvenv.cfg` at the root or two levels down (`.venv`, `venv`, `.tox/py311`,
    `.nox/tests`), plus konstruct's own environment and $VIRTUAL_ENV when they lie in the workspace."""
    found: list[str] = []
    for first in _folders(root):
        found.extend(p for p in (first, *_folders(first)) if os.path.isfile(os.path.join(p, "pyvenv.cfg")))
    for prefix in (sys.prefix, os.environ.get("VIRTUAL_ENV", "")):
        real = os.path.realpath(prefix) if prefix else ""
        if real and real != root and _within(real, root):
            found.append(real)
    return found


def _folders(folder: str) -> list[str]:
    try:
        with os.scandir(folder) as entries:
            return [e.path for e in entries if e.name not in _SKIP and e.is_dir(follow_symlinks=False)]
    except OSError:
        return []


def git_code(root: str) -> list[str]:
    """Paths inside `root` that git's configuration reads or runs (see the module's docstring)."""
    if not os.path.lexists(os.path.join(root, ".git")):
        return []
    with _lock:
        cached = _cache.get(root)
    if cached is not None and files_key([p for p, *_ in cached[0]]) == cached[0]:
        return list(cached[1])
    found_config = config_entries(root, system=True, timeout=30)  # the person's own git reads /etc/gitconfig too
    if found_config is None:
        return []
    origins, entries = found_config
    out: list[str] = []
    for source, key, value in entries:
        if source:
            out.append(source)
        lowered = key.lower()
        if lowered == "include.path" or (lowered.startswith("includeif.") and lowered.endswith(".path")):
            if source:
                out.append(_made(os.path.join(os.path.dirname(source), os.path.expanduser(value)), root, folder=False))
        elif lowered == "core.hookspath":
            out.append(_made(os.path.join(root, os.path.expanduser(value)), root, folder=True))
        elif names_program(key) or (lowered.startswith("alias.") and value.startswith("!")):
            program = _first_word(value.removeprefix("!"))
            if "/" in program:
                out.append(os.path.join(root, os.path.expanduser(program)))
    found = [os.path.realpath(p) for p in out if p]
    found = list(dict.fromkeys(p for p in found if _within(p, root) and os.path.lexists(p)))
    with _lock:
        _cache[root] = (files_key(sorted(origins)), tuple(found))
    return found


def _made(path: str, root: str, folder: bool) -> str:
    """`path`, made empty when it is inside the workspace and missing (so it can be held read-only)."""
    real = os.path.realpath(path)
    if _within(real, root) and not os.path.lexists(real) and not _within(real, os.path.join(root, ".git")):
        try:
            if folder:
                os.makedirs(real, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(real), exist_ok=True)
                with open(real, "a", encoding="utf-8"):
                    pass
        except OSError:
            return ""
    return real


def _first_word(value: str) -> str:
    try:
        words = shlex.split(value)
    except ValueError:
        words = value.split()
    return words[0] if words else ""


def held_read_only(root: str | os.PathLike[str]) -> list[str]:
    """Everything in the workspace a confined command must not write besides `.git` itself."""
    real = os.path.realpath(os.fspath(root))
    git_dir = os.path.join(real, ".git")
    return [p for p in dict.fromkeys([*virtualenvs(real), *git_code(real)])
            if p != real and not _within(p, git_dir)]


def own_environment_inside(root: str | os.PathLike[str]) -> str | None:
    """The virtualenv konstruct itself runs from, when it lies inside the workspace (then the
    person should know: before issue 31 a command could plant code konstruct would run)."""
    real = os.path.realpath(os.fspath(root))
    prefix = os.path.realpath(sys.prefix)
    if prefix != real and _within(prefix, real):
        return str(Path(prefix).relative_to(real))
    return None
