"""The index store: one SQLite file per workspace in the user cache dir (WAL, so readers never wait
for the reconciler's writes).

A change of `SCHEMA_VERSION` or of the extraction fingerprint (the graph code that produces facts and
edges, and the `.scm` queries) drops every table and starts over: facts written by other extraction
code would be wrong, and an honest cold build is cheaper than a subtle mismatch.

Besides files and edges the store keeps what a warm start prints (`summary`, dropped by any write
that moves the graph) and the last neighborhoods with a digest of the file pairs they were computed
from, so neither a warm `konstruct index` nor a new session clusters a graph that did not change.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..userdirs import (SQLITE_BUSY_CODES, StoreProblem, StoreWaiting, cache_dir, held_by, integrity_ok, lock_wait_s,
                        private_dir, sqlite_code, sqlite_problem, workspace_key)
from .facts import Edge, FileFacts, LanguageSupport
from .records import FileEntry, FileRecord, facts_from_json

if TYPE_CHECKING:
    from .neighborhoods import Neighborhoods
    from .snapshot import GraphSnapshot

SCHEMA_VERSION = 5  # 5: files.inode (the warm start compares size, mtime_ns and inode)

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- files keeps its rowid: WITHOUT ROWID suits small rows, and facts run to tens of kilobytes.
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, language TEXT NOT NULL, hash TEXT NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, note TEXT NOT NULL, symbols TEXT NOT NULL, used_here TEXT NOT NULL,
    facts TEXT, inode INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS edges (
    source TEXT NOT NULL, target TEXT NOT NULL, kind TEXT NOT NULL, names TEXT NOT NULL,
    PRIMARY KEY (source, target, kind)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS edges_by_target ON edges (target);
-- members and bridges: paths joined by newlines (a path never holds one in a listing we index).
CREATE TABLE IF NOT EXISTS neighborhoods (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, members TEXT NOT NULL, bridges TEXT NOT NULL
);
"""

_FIX = "remove it (it is a cache: `konstruct index` builds it again from the sources) or fix its permissions"


def index_problem(path: Path, error: sqlite3.DatabaseError) -> StoreProblem:
    """The one line for an index error met after it opened: a lock or access problem as such, else
    damage found mid-way, which the next `konstruct index` repairs (the damaged file is rebuilt)."""
    return sqlite_problem(path, "the code graph index", error, _FIX) or StoreProblem(
        f"the code graph index {path} is damaged ({error}): remove it and run `konstruct index` (it is a cache, built "
        "again from the sources)")


class IndexRebuilt(UserWarning):
    """The index file was damaged and was built again from the sources (it is only a cache)."""


_GRAPH = Path(__file__).parent
# The code whose output the store keeps: facts come from these modules and queries, edges from the
# resolvers. Any change to them (an upgrade of Konstruct) rebuilds the index.
_FACT_CODE = ("facts.py", "records.py", "extraction.py", "resolution.py", "project.py", "treesitter.py")
_BUILT_IN = "konstruct_tui.graph.languages."


def index_path(root: str | Path) -> Path:
    return cache_dir() / "index" / f"{workspace_key(root)}.sqlite"


def extraction_fingerprint(languages: dict[str, LanguageSupport] | None = None) -> str:
    """Changes whenever the code or queries that produce facts and edges change, or the language
    set does. `None` is the built-in set, fingerprinted without importing a grammar (the warm start
    checks the fingerprint before it knows whether anything needs parsing)."""
    digest = hashlib.sha256(f"schema={SCHEMA_VERSION}".encode())
    code = [_GRAPH / name for name in _FACT_CODE]
    plugins = _GRAPH / "languages"  # a plugin is a module or a folder, its queries beside it
    code += sorted(plugins.rglob("*.py")) + sorted(plugins.rglob("*.scm"))
    for path in code:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    if languages is None:
        from .languages import built_in  # not `languages()`: the fingerprint imports no plugin

        names: Iterable[str] = sorted(built_in())
    else:
        names = sorted(languages)
    for name in names:
        digest.update(f"|{name}".encode())
        support = None if languages is None else languages[name]
        if support is not None and not type(support).__module__.startswith(_BUILT_IN):
            digest.update(f":{support.version}".encode())
            module = __import__(type(support).__module__, fromlist=["_"])
            source = getattr(module, "__file__", None)
            if source:
                digest.update(Path(source).read_bytes())
    return digest.hexdigest()[:24]


def pairs_digest(out_edges: Mapping[str, Sequence[Edge]]) -> str:
    """A digest of a graph's unique file pairs (neighborhoods depend on nothing else), from a
    snapshot's `out_edges`. Each file's edges are kept sorted by target, so only the sources need a
    sort. Hashed a file at a time: the same bytes as one newline-joined text of every pair, without
    holding that text (90 MB of strings on a 100,000-file graph, at the build's peak of memory)."""
    digest = hashlib.sha256()
    separator = ""
    for source in sorted(out_edges):
        lines = []
        last = None
        for edge in out_edges[source]:
            if edge.target != last:
                lines.append(f"{source}\0{edge.target}")
                last = edge.target
        if lines:
            digest.update((separator + "\n".join(lines)).encode("utf-8", "surrogateescape"))
            separator = "\n"
    return digest.hexdigest()[:32]


class IndexStore:
    """Rows in, rows out. One connection per store object; give each thread its own store."""

    def __init__(self, path: Path, fingerprint: str) -> None:
        private_dir(path.parent)
        self.path = path
        self.rebuilt = False
        self.replaced = False  # an index written by other extraction code (or schema) was dropped
        try:
            self._db = self._open_waiting(path)
        except sqlite3.DatabaseError as error:
            self._db = self._replace_damaged(path, error)
        try:
            if self.meta("fingerprint") != fingerprint:
                self._reset(fingerprint)
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise sqlite_problem(path, "the code graph index", error, _FIX) or error from None

    @classmethod
    def _open_waiting(cls, path: Path) -> sqlite3.Connection:
        """Open, and when another process holds the file's lock say so and wait, bounded: a lock
        is not damage, and a live index is never deleted for being busy."""
        try:
            return cls._open(path, timeout=0.2)
        except sqlite3.DatabaseError as error:
            if sqlite_code(error) not in SQLITE_BUSY_CODES:
                raise
        warnings.warn(f"another konstruct{held_by(path, f'{path}-shm')} is writing the code graph index {path}; "
                      f"waiting up to {lock_wait_s():g} s", StoreWaiting, stacklevel=4)
        return cls._open(path, timeout=lock_wait_s())

    @classmethod
    def _replace_damaged(cls, path: Path, error: sqlite3.DatabaseError) -> sqlite3.Connection:
        """A damaged cache file is only a cache: deleted and built again from the sources, with a
        note. Only damage: a lock or a permission problem is one line and the file stays, and
        nothing is deleted unless `PRAGMA integrity_check` fails or the file is not ours."""
        problem = sqlite_problem(path, "the code graph index", error, _FIX)
        if problem is not None:
            raise problem from None
        foreign = "no such table" in str(error) or "no such column" in str(error)
        if not foreign and integrity_ok(path) is not False:
            raise StoreProblem(f"the code graph index {path} cannot be read ({error}) but does not check as damaged: "
                               f"{_FIX} (nothing was changed)") from None
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        warnings.warn(f"the code graph index {path} was damaged ({error}): rebuilt from the sources", IndexRebuilt, stacklevel=4)
        return cls._open(path, timeout=lock_wait_s())

    @staticmethod
    def _open(path: Path, timeout: float) -> sqlite3.Connection:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=timeout)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            # No fsync: the index is a cache. A crash can at worst lose or damage it, and a damaged
            # file is replaced above; fsyncs would cost a cold build a second of waiting.
            db.execute("PRAGMA synchronous=OFF")
            db.executescript(_TABLES)
            db.execute("SELECT value FROM meta LIMIT 1").fetchall()
            db.execute(f"PRAGMA busy_timeout={int(lock_wait_s() * 1000)}")  # later writes wait as long, no longer
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    @classmethod
    def for_root(cls, root: str | Path, languages: dict[str, LanguageSupport] | None) -> IndexStore:
        return cls(index_path(root), extraction_fingerprint(languages))

    def close(self) -> None:
        self._db.close()

    def _reset(self, fingerprint: str) -> None:
        self.rebuilt = True
        self.replaced = self.meta("fingerprint") is not None
        with self._transaction():
            self._db.execute("DROP TABLE IF EXISTS files")
            self._db.execute("DROP TABLE IF EXISTS edges")
            self._db.execute("DROP TABLE IF EXISTS neighborhoods")
            self._db.execute("DELETE FROM meta")
        self._db.executescript(_TABLES)
        self.set_meta(fingerprint=fingerprint, schema=str(SCHEMA_VERSION))

    def clear(self) -> None:
        """Forget every file and edge (an interrupted cold build), keeping the fingerprint."""
        with self._transaction():
            self._db.execute("DELETE FROM files")
            self._db.execute("DELETE FROM edges")
            self._db.execute("DELETE FROM neighborhoods")
            self._db.execute("DELETE FROM meta WHERE key NOT IN ('fingerprint', 'schema')")

    def _transaction(self) -> sqlite3.Connection:
        self._db.execute("BEGIN")
        return _Commit(self._db)  # type: ignore[return-value]  # a context manager standing in for the connection

    def meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, **values: str) -> None:
        self._db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", list(values.items()))

    def is_empty(self) -> bool:
        return self._db.execute("SELECT 1 FROM files LIMIT 1").fetchone() is None

    def entries(self) -> dict[str, FileEntry]:
        rows = self._db.execute("SELECT path, language, hash, size, mtime_ns, note, symbols, used_here, inode FROM files")
        return {row[0]: FileEntry(*row) for row in rows}

    def edges(self) -> Iterator[Edge]:
        """Every edge, in (source, target, kind) order."""
        rows = self._db.execute("SELECT source, target, kind, names FROM edges ORDER BY source, target, kind")
        # A few thousand rows at a time: a comprehension per batch is a third faster than a yield
        # per row (700,000 rows at a big tree's session start), and memory stays one batch.
        while batch := rows.fetchmany(4096):
            yield from [Edge(source, target, kind, tuple(names.split()) if names else ())
                        for source, target, kind, names in batch]

    def facts(self, path: str) -> FileFacts | None:
        row = self._db.execute("SELECT facts FROM files WHERE path = ?", (path,)).fetchone()
        return facts_from_json(row[0]) if row and row[0] else None

    def all_facts(self) -> Iterator[FileFacts]:
        for (text,) in self._db.execute("SELECT facts FROM files WHERE facts IS NOT NULL"):
            yield facts_from_json(text)

    def write(
        self,
        records: Iterable[FileRecord] = (),
        removed: Iterable[str] = (),
        edge_sources: Iterable[str] = (),
        edges: Iterable[Edge] = (),
        keep_summary: bool = False,
        **meta: str,
    ) -> None:
        """One transaction: upsert `records`, drop `removed` files, replace every edge leaving
        `edge_sources` with `edges`, set `meta`. A crash leaves the previous state whole.
        `keep_summary`: the file graph did not move (only member rows did)."""
        with self._transaction():
            self.put_records(records)
            gone = [(p,) for p in removed]
            self._db.executemany("DELETE FROM files WHERE path = ?", gone)
            self._db.executemany("DELETE FROM edges WHERE source = ?", gone)
            self._db.executemany("DELETE FROM edges WHERE source = ?", [(p,) for p in edge_sources])
            # A generator, not a list: on a 100,000-file build the rows' tuples and joined names
            # were 80 MB more at the moment the process's memory peaks.
            self._db.executemany(
                "INSERT OR REPLACE INTO edges VALUES (?, ?, ?, ?)",
                ((e.source, e.target, e.kind, " ".join(e.names)) for e in edges),
            )
            self.set_meta(**meta)
            if not keep_summary:  # what a warm start would print no longer holds once files or edges moved
                self._db.execute("DELETE FROM meta WHERE key = 'summary'")

    # --- what a warm start prints, and the neighborhoods -----------------------------------------

    def set_summary(self, summary: dict[str, object]) -> None:
        self.set_meta(summary=json.dumps(summary, sort_keys=True))

    def save_neighborhoods(self, digest: str, hoods: Neighborhoods) -> None:
        with self._transaction():
            self._db.execute("DELETE FROM neighborhoods")
            self._db.executemany(
                "INSERT INTO neighborhoods VALUES (?, ?, ?, ?)",
                [(h.id, h.name, "\n".join(h.members), "\n".join(h.bridges)) for h in hoods.items],
            )
            self.set_meta(neighborhoods_of=digest)

    def neighborhoods_for(self, snapshot: GraphSnapshot) -> Neighborhoods:
        """The snapshot's neighborhoods: the stored ones when its file pairs are those they were
        computed from (attached to the snapshot, so nothing clusters again), else computed now and
        stored for the next start."""
        if "neighborhoods" not in snapshot.__dict__:
            digest = pairs_digest(snapshot.out_edges)
            stored = self.neighborhoods(digest)
            if stored is not None:
                snapshot.__dict__["neighborhoods"] = stored
                return stored
            computed = snapshot.settled_neighborhoods()
            self.save_neighborhoods(digest, computed)
            return computed
        return snapshot.neighborhoods

    def neighborhoods(self, digest: str) -> Neighborhoods | None:
        """The stored neighborhoods when they were computed from these file pairs, else None."""
        from .neighborhoods import Neighborhood, Neighborhoods

        if self.meta("neighborhoods_of") != digest:
            return None
        items = tuple(
            Neighborhood(i, name, tuple(members.split("\n")), tuple(bridges.split("\n")) if bridges else ())
            for i, name, members, bridges in self._db.execute("SELECT * FROM neighborhoods ORDER BY id")
        )
        return Neighborhoods(items, {path: h.id for h in items for path in h.members})

    def put_records(self, records: Iterable[FileRecord]) -> None:
        full, stat_only = [], []
        for record in records:
            e = record.entry
            if record.unchanged:
                stat_only.append((e.size, e.mtime_ns, e.inode, e.path))
            else:
                full.append((e.path, e.language, e.hash, e.size, e.mtime_ns, e.note, e.symbols_json, e.used_here,
                             record.facts_json, e.inode))
        self._db.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", full)
        self._db.executemany("UPDATE files SET size = ?, mtime_ns = ?, inode = ? WHERE path = ?", stat_only)


class _Commit:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> sqlite3.Connection:
        return self._db

    def __exit__(self, kind: object, *rest: object) -> None:
        self._db.execute("ROLLBACK" if kind else "COMMIT")
