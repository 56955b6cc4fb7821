"""A scratch copy of the workspace for the gate's verification: the disk as it is now, except that
the phase's edits to its pinned verification files are reverted (pinning.py says which). Used only
when there is something to revert; otherwise the commands run in the workspace itself.

Why a copy and not the workspace itself with the pinned files swapped back for the run: a run killed
mid-verification would leave the person's tree with the executor's edits silently undone, and the
verification's own droppings (caches, coverage files, snapshots a test rewrites) would show up as
changes of the phase at the next gate. In a copy nothing the verification does reaches the
workspace; under the project's sandbox it cannot even write there.

Copied: every file and folder under the root but version-control folders and tool caches. Linked,
not copied: dependency and build folders (node_modules, .venv, venv, .tox, dist, build, target, ...),
which can be huge and which a verification reads but does not own.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from ..workspace import SKIPPED_DIRS

_NOT_COPIED = frozenset({".git", ".hg", ".svn", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
_LINKED = SKIPPED_DIRS - _NOT_COPIED


class ScratchCopy:
    """`with ScratchCopy(root, revert) as folder:` a private copy; `revert` maps a workspace path to the
    bytes it must hold in the copy (None: it must not exist there)."""

    def __init__(self, root: str | os.PathLike[str], revert: Mapping[str, bytes | None]) -> None:
        self.root = Path(root).resolve()
        self.revert = dict(revert)
        self.folder: Path | None = None
        self._links: list[Path] = []

    def __enter__(self) -> Path:
        self.folder = Path(tempfile.mkdtemp(prefix="konstruct-verify-")).resolve() / "workspace"
        try:
            try:
                shutil.copytree(self.root, self.folder, symlinks=True, ignore=self._ignore, copy_function=shutil.copy2,
                                ignore_dangling_symlinks=True)
            except shutil.Error:
                pass  # files we cannot read (or that vanished meanwhile) are left out; the rest is copied
            for source in self._links:
                link = self.folder / source.relative_to(self.root)
                if link.parent.is_dir() and not link.exists():
                    os.symlink(source, link)
            for path, content in self.revert.items():
                self._put(path, content)
        except BaseException:
            self.__exit__()
            raise
        return self.folder

    def _ignore(self, folder: str, names: list[str]) -> set[str]:
        # Dependency and build folders are linked once the copy stands (unless something in one must
        # differ in the copy: a link would carry the change to the workspace); caches are left out.
        inside = Path(folder).relative_to(self.root)
        differs = {Path(p).parts[len(inside.parts)] for p in self.revert
                   if Path(p).parts[:len(inside.parts)] == inside.parts and len(Path(p).parts) > len(inside.parts)}
        linked = {n for n in names if n in _LINKED and n not in differs and os.path.isdir(os.path.join(folder, n))
                  and not os.path.islink(os.path.join(folder, n))}
        self._links += [Path(folder) / n for n in sorted(linked)]
        return {n for n in names if n in _NOT_COPIED} | linked

    def _put(self, path: str, content: bytes | None) -> None:
        assert self.folder is not None
        target = self.folder / path
        if content is None:
            # The entry itself goes, even a link pointing out of the copy (its parent must be inside).
            if target.parent.resolve().is_relative_to(self.folder) and (target.is_symlink() or target.is_file()):
                target.unlink()
            return
        if not target.resolve().is_relative_to(self.folder):  # a path the snapshot made can never leave; belt and braces
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink():
            target.unlink()
        target.write_bytes(content)

    def __exit__(self, *exc: object) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder.parent, ignore_errors=True)
            self.folder = None
