"""Forgetting Python's cached bytecode of files a batch changed.

Python (and pytest's assertion rewriting) trusts a `__pycache__` entry whose recorded source time and
size match the source: a file rewritten in the same second with the same size (`a - b` -> `a + b`,
which is how an agent edits and then runs the tests) would run its old code. Every applied batch
(`batch.apply_edits`, whichever tool made it) and every undo therefore drops the changed files'
entries in the `__pycache__` beside them, reached through the containment walk (a `__pycache__`
that is a link is never followed).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from .containment import PathMissing, PathRefused
from .handle import Workspace

_SOURCES = (".py", ".pyw")


def forget_bytecode(workspace: Workspace, paths: Iterable[str]) -> None:
    """Best effort: a cache that cannot be read or changed is left as it is."""
    by_folder: dict[str, set[str]] = {}
    for path in paths:
        folder, _, name = path.rpartition("/")
        stem, dot, suffix = name.rpartition(".")
        if dot and f".{suffix}" in _SOURCES and stem:
            by_folder.setdefault(folder, set()).add(stem + ".")
    for folder, prefixes in by_folder.items():
        cache = f"{folder}/__pycache__" if folder else "__pycache__"
        try:
            with workspace.locate(cache, follow_last=False) as where:
                if not where.exists or not where.name:
                    continue
                fd = os.open(where.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=where.parent_fd)
                try:
                    for entry in os.listdir(fd):
                        # `calc.cpython-311.pyc`, `calc.cpython-311.opt-1.pyc`, `test_x.cpython-311-pytest-8.3.pyc`
                        if entry.endswith(".pyc") and entry.startswith(tuple(prefixes)):
                            os.unlink(entry, dir_fd=fd)
                finally:
                    os.close(fd)
        except (OSError, PathMissing, PathRefused):
            continue
