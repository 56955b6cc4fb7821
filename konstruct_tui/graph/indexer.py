"""Building and updating the index: stat, read what moved, extract, resolve, store, snapshot.

Change detection is stat first (size, mtime_ns and inode against the stored row), hash only when the stat
moved, parse only when the hash moved. Extraction of many files runs in a process pool (tree-sitter
holds the GIL for the parse, so threads would gain nothing); a handful of files is extracted in-line
because starting processes costs more than parsing them. Resolution runs here, on one side, because
every resolver needs the whole project in view.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import nullcontext

from ..workspace import Workspace, stat_files
from . import gitstate
from .extraction import Task, chunked, read_chunk, read_file, start_worker
from .facts import FileFacts, LanguageSupport
from .index_report import IndexCancelled, IndexReport, Progress
from .languages import languages
from .notified_paths import ignored, relative, stat_of
from .overlay import collector_paused
from .project import ProjectFacts, UsageIndex, affected_by, is_config
from .records import TEXT, FileEntry, FileRecord, facts_from_json
from .resolution import Resolution, no_facts
from .snapshot import GraphSnapshot
from .store import IndexStore
from .timeline import mark

log = logging.getLogger(__name__)


# Above this many files a cold build resolves in this process instead of two forks: a fork that
# walks every file's facts touches (so copies) the parent's whole heap, which doubled the peak
# memory of a 100,000-file build. Below it the copy is small and the second core is the win.
FORKED_RESOLUTION_LIMIT = 25_000


class Indexer:
    """Owned by one thread at a time (the CLI, or the reconciler's thread)."""

    def __init__(
        self,
        workspace: Workspace,
        store: IndexStore,
        *,
        supports: dict[str, LanguageSupport] | None = None,
        support_factory: Callable[[], dict[str, LanguageSupport]] | None = None,
        workers: int = 2,
        inline_limit: int = 48,
        low_priority: bool = False,
        should_stop: Callable[[], bool] = lambda: False,
        keep_facts: bool = True,
        members: bool = True,
    ) -> None:
        self.workspace = workspace
        self.store = store
        self.supports = supports if supports is not None else (support_factory or languages)()
        self._support_factory = support_factory
        self._by_extension = {ext: s.name for s in self.supports.values() for ext in s.extensions}
        self.workers = max(1, workers)
        self.inline_limit = inline_limit
        self.low_priority = low_priority
        self.should_stop = should_stop
        # False for a one-shot build (the CLI): every file's facts are dropped as soon as the
        # resolution is done with them, before the snapshot is built (see `_apply`).
        self.keep_facts = keep_facts
        # The member tier (member facts and the evidence resolved from them) is wanted: a refresh
        # ends with it built. False (`konstruct index`): a cold build makes the file graph alone,
        # and an index that has the tier keeps it current all the same.
        self.members = members
        self._with_members = members  # extract the member facts of the files read now
        self.parses = 0  # files handed to a language's extract, ever: tests count re-parses with it
        self.report = IndexReport()
        self._facts: dict[str, FileFacts | None] = {}
        self._usage: UsageIndex | None = None
        self._all_facts_loaded = False  # after a cold build every file's facts are already here
        self._resolution = Resolution(self.supports)

    def language_of(self, path: str) -> str:
        name = path.rpartition("/")[2]
        dot = name.rfind(".")
        return self._by_extension.get(name[dot:].lower(), TEXT) if dot > 0 else TEXT

    # --- entry points --------------------------------------------------------------------------

    def refresh(self, current: GraphSnapshot | None = None, progress: Progress | None = None, *,
                summarize: bool = True, interim: Callable[[GraphSnapshot], None] | None = None) -> GraphSnapshot:
        """A full sweep of the workspace: the cold build, the warm start, or a rescan. `summarize`:
        count files per language and edges into the report (a pass over the whole graph; the
        reconciler's periodic rescans print nothing and skip it). `interim`: when the member tier
        is built after the sweep, it receives the file graph first (file questions need no more)."""
        started = time.perf_counter()
        self.report = IndexReport(replaced=self.store.replaced)
        self.store.replaced = False  # said once
        if current is None and self.store.meta("complete") != "1":
            self.store.clear()  # a cold build that never finished: its rows have no edges yet
        entries = current.files if current is not None else self.store.entries()  # read, never changed
        cold = not entries
        if cold:
            self._with_members = self.members
        else:
            self._with_members = current.side.complete if current is not None else self.store.meta("members") == "1"
        # A cold build will parse in workers: they start now, so their start overlaps the walk,
        # `git ls-files` and `git rev-parse` below instead of following them. Only where a fork
        # is safe (no other thread): a forkserver costs more to start than a small tree's parse.
        early = cold and self.workers > 1 and threading.active_count() == 1
        pool = self._start_pool() if early else None
        try:
            snapshot = self._refresh(current, entries, cold, pool, progress, started, summarize)
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        if self.members and not snapshot.side.complete:
            if interim is not None:
                interim(snapshot)
            report = self.report
            snapshot = self.complete_members(snapshot, progress)
            report.member_seconds = self.report.seconds
            report.seconds = time.perf_counter() - started
            self.report = report
        self.report.members = snapshot.side.complete
        return snapshot

    def complete_members(self, current: GraphSnapshot, progress: Progress | None = None) -> GraphSnapshot:
        """Build the member tier of an index that has the file graph alone: every file of a language
        that defers its member facts is read and extracted again with them, and every file is
        resolved again, member evidence included. The file graph comes out as it was (only member
        rows are added), so the neighborhoods stay; a file that changed meanwhile is simply
        re-indexed with the rest."""
        started = time.perf_counter()
        self.report = IndexReport()
        deferring = {name for name, support in self.supports.items() if support.defers_members}
        self._with_members = True
        tasks = [Task(path, entry.language, entry.size, entry.mtime_ns, entry.inode)
                 for path, entry in sorted(current.files.items()) if entry.parsed and entry.language in deferring]
        if not tasks:
            self.store.set_meta(members="1")
            snapshot = current.replace({}, (), (), (), commit=current.commit, members=True)
        else:
            snapshot = self._apply(current, tasks, set(), commit=current.commit, cold=False, progress=progress,
                                   everything=True)
        self.report.seconds = time.perf_counter() - started
        return snapshot

    def _refresh(
        self,
        current: GraphSnapshot | None,
        entries: Mapping[str, FileEntry],
        cold: bool,
        pool: ProcessPoolExecutor | None,
        progress: Progress | None,
        started: float,
        summarize: bool = True,
    ) -> GraphSnapshot:
        mark("walk")
        listed = stat_files(self.workspace.root)  # the listing's own lstat: no second stat per file
        mark("walk-end")
        tasks: list[Task] = []
        removed = set(entries).difference(listed)
        # Files whose stat matches their entry need no task (a file keeps its language while the
        # indexer and its store live): on 100,000 files, a rescan that changes nothing costs the
        # walk, not a language lookup and a call per file as well.
        get = entries.get
        moved = [p for p, found in listed.items()
                 if (entry := get(p)) is None or (entry.size, entry.mtime_ns, entry.inode) != found]
        for path in sorted(moved):
            task = self._task(path, entries.get(path), *listed[path])
            if task is not None:
                tasks.append(task)
        # The workers get their chunks now: `git rev-parse` (a process start) and the store's
        # bookkeeping below then run while they parse, not before.
        submitted = self._submit(pool, tasks) if pool is not None and len(tasks) > self.inline_limit else None
        commit = gitstate.head(self.workspace.root)
        with collector_paused() if len(tasks) > self.inline_limit else nullcontext():
            if current is None and not cold:
                current = GraphSnapshot.build(entries, self.store.edges(), commit=self.store.meta("commit"),
                                              members=self._with_members)
            if current is None:
                current = GraphSnapshot.build({}, (), commit=commit)
            snapshot = self._apply(current, tasks, removed, commit=commit, cold=cold, progress=progress,
                                   summarize=summarize, pool=pool, submitted=submitted)
        self.report.seconds = time.perf_counter() - started
        return snapshot

    def update(
        self, current: GraphSnapshot, paths: Iterable[str], interim: Callable[[GraphSnapshot], None] | None = None
    ) -> GraphSnapshot:
        """Re-index just `paths` (files or folders; created, changed or deleted). When a resolver
        must be rebuilt first (slow), `interim` receives a snapshot with the changed files' own
        edges resolved by the current resolvers, so a query sees the edit before the rebuild ends."""
        started = time.perf_counter()
        self.report = IndexReport(members=current.side.complete)
        self._with_members = current.side.complete
        tasks: list[Task] = []
        removed: set[str] = set()
        for path in sorted(filter(None, map(relative, paths))):
            found = stat_of(self.workspace, path, trusted=False)
            if found is None:
                removed.update(current.files_under(path))
                if path in current.files:
                    removed.add(path)
                continue
            if found == "dir":
                listed = [p for p in self.workspace.files() if p.startswith(path + "/")]
                removed.update(set(current.files_under(path)) - set(listed))
                for inner in listed:
                    inner_stat = stat_of(self.workspace, inner, trusted=True)
                    if isinstance(inner_stat, tuple):
                        task = self._task(inner, current.files.get(inner), *inner_stat)
                        if task is not None:
                            tasks.append(task)
                continue
            assert isinstance(found, tuple)
            entry = current.files.get(path)
            if entry is None and ignored(self.workspace, path):
                continue
            task = self._task(path, entry, *found)
            if task is not None:
                tasks.append(task)
        snapshot = self._apply(current, tasks, removed, commit=current.commit, cold=False, progress=None,
                               interim=interim)
        self.report.seconds = time.perf_counter() - started
        return snapshot

    def release(self) -> None:
        """Forget every file's facts and the resolvers' state: a one-shot build (the CLI) is done
        with them, and on a big tree they are most of the process's memory."""
        self._facts.clear()  # the same dict the resolvers' project view holds
        self._facts = {}
        self._usage = None
        self._all_facts_loaded = False
        self._resolution = Resolution(self.supports)

    def prepare_incremental(self, files: Mapping[str, FileEntry] | None = None) -> None:
        """Load every file's facts and the usage index, and with `files` (the graph's current
        files) build the resolvers too, so the first small change is as fast as the rest. The
        reconciler calls this when it is otherwise idle."""
        if files is not None and self._resolution.view is None:
            self.prepare_incremental()
            self._resolution.reset(ProjectFacts(self.workspace, files, self._facts, no_facts))
            self._resolution.build_resolvers(files)
        if self._usage is not None:
            return
        if not self._all_facts_loaded:
            for stored in self.store.all_facts():
                self._facts.setdefault(stored.path, stored)
            self._all_facts_loaded = True
        usage = UsageIndex()
        for path, facts in self._facts.items():
            usage.update(path, facts)
        self._usage = usage

    # --- the pipeline --------------------------------------------------------------------------

    def _apply(
        self,
        current: GraphSnapshot,
        tasks: list[Task],
        removed: set[str],
        *,
        commit: str | None,
        cold: bool,
        progress: Progress | None,
        interim: Callable[[GraphSnapshot], None] | None = None,
        summarize: bool = False,
        pool: ProcessPoolExecutor | None = None,
        submitted: list[Future[list[FileRecord | Task]]] | None = None,
        everything: bool = False,
    ) -> GraphSnapshot:
        """`everything`: re-resolve every file from scratch, as a cold build does (the member tier)."""
        report = self.report
        report.cold = cold
        # Counting every file and edge is O(project): a full sweep reports it (the CLI prints it),
        # a one-file update must not pay for it (6 ms per 10,000 files, on every edit).
        if not tasks and not removed and not cold:  # nothing moved: the same graph, maybe a new commit
            if summarize:
                report.files = Counter(e.language for e in current.files.values())
                report.edges = current.edge_count()
            if commit and commit != current.commit:
                self.store.set_meta(commit=commit)
                return current.replace({}, (), (), (), commit=commit)
            return current
        if not cold and not everything and (tasks or removed):
            self.prepare_incremental()  # old facts must be known before new ones replace them
        if cold:
            self.store.set_meta(complete="0", members="0")
        # Everything is resolved again: no old fact, and no usage index, decides what is affected.
        old_facts = {} if cold or everything else {p: self._known_facts(p) for p in {t.path for t in tasks} | removed}
        mark("extract")
        streamed = cold or everything  # stored as they come; the final write has the edges alone
        records, vanished = self._extract(tasks, progress, store_as_you_go=streamed, pool=pool, submitted=submitted)
        if pool is not None:
            pool.shutdown(wait=True)  # before the resolution forks: the parse workers' cores are theirs
        mark("extract-end")
        removed |= vanished
        changed = {r.entry.path: r for r in records if not r.unchanged}
        self._all_facts_loaded |= cold
        report.reused = len(tasks) - len(changed) - len(vanished)
        for path in removed:
            self._facts.pop(path, None)
        for path, record in changed.items():
            self._facts[path] = record.facts
        # Shares the current snapshot's map (a delta, not a copy): a one-file change stays O(change).
        files = current.files.updated({r.entry.path: r.entry for r in records}, removed)
        config_moved = any(is_config(p) for p in [*changed, *removed])
        resolution = self._resolution
        if (resolution.view is None or cold or everything or config_moved or removed
                or any(r.entry.path not in current.files for r in records)):
            if interim is not None and not config_moved:
                # A file created or deleted: the resolvers' tables are rebuilt for the new set of
                # paths (seconds on a big tree). Meanwhile queries see the deletion, and the new
                # or changed files with the edges the current tables give them (a changed file
                # whose language has no table yet keeps its old edges until then).
                own, answered = resolution.resolve_built([p for p in changed if files[p].parsed], files, self._facts)
                created = {p for p in changed if p not in current.files}
                interim(current.replace({r.entry.path: r.entry for r in records}, removed, answered | created, own,
                                        commit=commit))
            # Once every file's facts are in memory a miss means "no facts", not "ask the store".
            load = no_facts if self._all_facts_loaded else self.store.facts
            resolution.reset(ProjectFacts(self.workspace, files, self._facts, load))
        else:
            outdated = resolution.outdated({p: (old_facts.get(p), r.facts) for p, r in changed.items()}, files)
            if outdated and interim is not None:
                own = resolution.resolve(sorted(p for p in changed if files[p].parsed), files)
                current = current.replace({r.entry.path: r.entry for r in records}, (), set(changed), own,
                                          commit=commit)
                interim(current)
            resolution.forget(outdated)
        if cold or everything or config_moved:
            affected = {p for p, e in files.items() if e.parsed}
        else:
            moved = {p: (old_facts.get(p), r.facts) for p, r in changed.items()}
            moved.update({p: (old_facts.get(p), None) for p in removed})
            affected = affected_by(moved, lambda p: [e.source for e in current.in_edges.get(p, ())], self._usage)
            affected = {p for p in affected if p in files and files[p].parsed}
        if progress:
            progress("resolving", 0, len(affected))
        mark("resolve")
        if (cold or everything) and threading.active_count() == 1 and len(affected) <= FORKED_RESOLUTION_LIMIT:
            edges = resolution.resolve_forked(sorted(affected), files, self.workers)
        else:
            edges = resolution.resolve(sorted(affected), files)
        report.resolved = len(affected)
        mark("resolve-end")
        if progress:
            progress("resolving", len(affected), len(affected))
        meta = {"commit": commit, "complete": "1"} if commit else {"complete": "1"}
        meta["members"] = "1" if self._with_members else "0"
        # The member tier adds member rows and leaves the file graph as it was (unless a file
        # changed meanwhile): what a warm start prints still holds.
        same_files = everything and all(current.files[r.entry.path].hash == r.entry.hash for r in records)
        # A changed file that is no longer parsed (now binary, too large) keeps no edges either.
        sources = affected | removed | set(changed)
        if cold and not self.keep_facts:
            # Nothing reads a fact after the resolution: on a big tree they are 40% of the memory,
            # and the edges and the snapshot come next.
            records, changed = [], {}
            del resolution  # its project view and resolver tables go with the facts
            self.release()
        self.store.write(
            records=[] if streamed else records, removed=removed, edge_sources=sources, edges=edges,
            keep_summary=same_files, **meta
        )
        if self._usage is not None:
            for path in removed:
                self._usage.update(path, None)
            for path, record in changed.items():
                self._usage.update(path, record.facts)
        report.removed = len(removed)
        if summarize:
            report.files = Counter(e.language for e in files.values())
        if cold:
            snapshot = GraphSnapshot.build(files, edges, commit=commit, members=self._with_members)
        else:
            snapshot = current.replace(
                {r.entry.path: r.entry for r in records}, removed, sources, edges, commit=commit,
                members=self._with_members
            )
        if summarize:
            report.edges = snapshot.edge_count()
        return snapshot

    def _known_facts(self, path: str) -> FileFacts | None:
        if path not in self._facts:
            self._facts[path] = self.store.facts(path)
        return self._facts[path]

    def _start_pool(self) -> ProcessPoolExecutor:
        # fork is cheapest, but forking a process that runs other threads can inherit a held lock.
        method = "fork" if threading.active_count() == 1 else "forkserver"
        pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context(method),
            initializer=start_worker,
            initargs=(str(self.workspace.root), self.low_priority, self._support_factory),
        )
        pool.submit(int)  # the processes start on the first submit: now, not after the walk
        return pool

    def _submit(self, pool: ProcessPoolExecutor, tasks: list[Task]) -> list[Future[list[FileRecord | Task]]]:
        return [pool.submit(read_chunk, chunk) for chunk in chunked(tasks, self.workers)]

    def _extract(
        self, tasks: list[Task], progress: Progress | None, *, store_as_you_go: bool,
        pool: ProcessPoolExecutor | None = None, submitted: list[Future[list[FileRecord | Task]]] | None = None,
    ) -> tuple[list[FileRecord], set[str]]:
        records: list[FileRecord] = []
        vanished: set[str] = set()
        total = len(tasks)
        if progress:
            progress("reading", 0, total)

        def take(batch: list[FileRecord | Task]) -> None:
            mark("take")
            got = []
            for item in batch:
                if isinstance(item, Task):
                    vanished.add(item.path)
                else:
                    if item.facts is None and item.facts_json is not None:
                        item = FileRecord(item.entry, facts_from_json(item.facts_json), item.facts_json)
                    got.append(item)
                    if item.facts is not None:
                        self.parses += 1
                        self.report.parsed += 1
                        self.report.parsed_bytes += item.entry.size
            if store_as_you_go:
                # Overlaps with the workers still parsing; the last write of the build decides
                # whether what a warm start prints still holds.
                self.store.write(records=got, keep_summary=True)
                # Stored: the JSON is not needed again (on 100,000 files it is 100 MB of strings).
                got = [FileRecord(r.entry, r.facts, None, r.unchanged) if r.facts_json else r for r in got]
            records.extend(got)
            if progress:
                progress("reading", len(records) + len(vanished), total)
            mark("take-end")

        if len(tasks) <= self.inline_limit or self.workers == 1:
            for start in range(0, len(tasks), 64):
                chunk = tasks[start : start + 64]
                take([read_file(self.workspace, t, self.supports) or t for t in chunk])
            return records, vanished
        with pool or self._start_pool() as pool:
            futures = submitted if submitted is not None else self._submit(pool, tasks)
            for future in as_completed(futures):
                if self.should_stop():
                    pool.shutdown(wait=False, cancel_futures=True)  # running chunks are short
                    raise IndexCancelled
                take(future.result())
        return records, vanished

    # --- stat ----------------------------------------------------------------------------------

    def _task(self, path: str, entry: FileEntry | None, size: int, mtime_ns: int, inode: int) -> Task | None:
        language = self.language_of(path)
        if entry is not None and entry.same_stat(size, mtime_ns, inode) and entry.language == language:
            return None
        known = entry.hash if entry is not None and entry.language == language and entry.hash else None
        return Task(path, language, size, mtime_ns, inode, known, self._with_members)
