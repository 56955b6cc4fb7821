"""Programs the workbench runs unconfined (git, rg) are found outside the workspace.

Why: a confined command may write anywhere in the workspace and set the executable bit (Landlock
does not govern chmod). When the person's PATH names a folder inside the project (an activated
`.venv/bin`, `node_modules/.bin`, `.`), a `git` or `rg` planted there would be what a bare name
finds, and the workbench would run it outside the sandbox. So the name is looked up on PATH with
every folder inside the workspace (and every relative entry) left out, once per call.
"""

from __future__ import annotations

import os
import shutil


def inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def outside_path(root: str | os.PathLike[str], path: str | None = None) -> str:
    """PATH (or `path`) without relative entries and without folders inside `root`."""
    real_root = os.path.realpath(os.fspath(root))
    kept = []
    for entry in (os.environ.get("PATH", os.defpath) if path is None else path).split(os.pathsep):
        if not entry or not os.path.isabs(entry):
            continue
        if inside(os.path.realpath(entry), real_root):
            continue
        kept.append(entry)
    return os.pathsep.join(kept)


def program_outside(name: str, root: str | os.PathLike[str]) -> str | None:
    """The absolute path of `name` on PATH outside `root`, resolved through links: None when only the
    workspace has one (a link from PATH into the workspace counts as inside)."""
    found = shutil.which(name, path=outside_path(root))
    if found is None:
        return None
    real_root = os.path.realpath(os.fspath(root))
    return None if inside(os.path.realpath(found), real_root) else found


def is_outside(candidate: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    return not inside(os.path.realpath(os.fspath(candidate)), os.path.realpath(os.fspath(root)))


__all__ = ["is_outside", "outside_path", "program_outside"]
