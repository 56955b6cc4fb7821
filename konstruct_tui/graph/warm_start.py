"""The warm start: is the stored index still the whole truth about the tree?

One listing with stats (`workspace.listing.stat_files`: a scandir walk, or `git ls-files` and one
lstat per file) against one query of every stored (path, size, mtime_ns, inode), plus the fingerprint of
the extraction code and the HEAD commit. When all agree nothing is parsed, resolved or clustered,
and nothing heavier than sqlite3 is imported: no grammar, no igraph, no indexer. Anything else —
a file added, removed or touched, a new commit, an interrupted or foreign index — answers None, and
the caller runs the indexer, which sorts out what moved.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from ..workspace import stat_files
from . import gitstate
from .store import extraction_fingerprint, index_path


@dataclass(frozen=True)
class WarmIndex:
    """A stored index that matches the tree."""

    path: Path  # the SQLite file
    files: Counter[str]  # language -> files
    summary: dict[str, object] | None  # what the last `konstruct index` printed, while still true
    members: bool = True  # the member tier is built (see `Indexer.complete_members`)

    def snapshot(self):  # -> GraphSnapshot (imported here: the summary alone needs none of it)
        from .snapshot import GraphSnapshot
        from .store import IndexStore

        store = IndexStore(self.path, extraction_fingerprint())
        try:
            return GraphSnapshot.build(store.entries(), store.edges(), commit=store.meta("commit"),
                                       members=self.members)
        finally:
            store.close()


def unchanged(root: Path) -> WarmIndex | None:
    """The stored index of the built-in languages when nothing moved since it was written, else None."""
    path = index_path(root)
    if not path.exists():
        return None
    try:
        db = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)  # read only: a check changes nothing
    except sqlite3.Error:
        return None
    try:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("complete") != "1" or meta.get("fingerprint") != extraction_fingerprint():
            return None
        stored = db.execute("SELECT path, size, mtime_ns, inode, language FROM files").fetchall()
    except sqlite3.Error:  # damaged, or written by another schema: the indexer deals with it
        return None
    finally:
        db.close()
    listed = stat_files(root)
    if len(listed) != len(stored):
        return None
    files: Counter[str] = Counter()
    for name, size, mtime_ns, inode, language in stored:
        if listed.get(name) != (size, mtime_ns, inode):
            return None
        files[language] += 1
    # Always asked, as the indexer asks: a folder inside a work tree has a HEAD without a .git.
    if gitstate.head(root) != meta.get("commit"):
        return None
    summary = meta.get("summary")
    return WarmIndex(path, files, json.loads(summary) if summary else None, meta.get("members") == "1")
