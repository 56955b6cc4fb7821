"""The paths that keep a 100,000-file tree within its memory and time (bench/bench_big.py measures
them at scale): resolution merged a file at a time, a one-shot build that drops facts after
resolving, neighborhoods from numbered pairs, the streamed pairs digest, a rescan that only looks
at files whose stat moved. Each must give exactly the answers of the plain way."""

from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path

from graph_helpers import write_files

from konstruct_tui.graph import neighborhoods
from konstruct_tui.graph.neighborhoods import communities, detect, file_graph, numbered_pairs
from konstruct_tui.graph.store import pairs_digest


def _edges(snapshot) -> list[tuple[str, str, str, tuple[str, ...]]]:
    return [(e.source, e.target, e.kind, e.names) for s in sorted(snapshot.out_edges) for e in snapshot.out_edges[s]]


def _clustered_project(root: Path, seed: int = 3, groups: int = 5, size: int = 12) -> None:
    """`groups` folders of `size` files, each using 3 names: mostly its own folder's, now and then another's."""
    rng = random.Random(seed)
    files = {}
    for g in range(groups):
        for i in range(size):
            uses = []
            for _ in range(3):
                other = g if rng.random() < 0.85 else rng.randrange(groups)
                uses.append(f"use s{other}_{rng.randrange(size)}")
            files[f"g{g}/m{i}.mini"] = f"def s{g}_{i}\n" + "\n".join(uses) + "\n"
    files["alone.mini"] = "def nothing_uses_me\n"
    write_files(root, files)


def test_resolution_gives_ordered_unique_edges_whatever_order_the_paths_come_in(project: Path, indexer_for) -> None:
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    resolution = indexer._resolution
    paths = sorted(p for p, e in snapshot.files.items() if e.parsed)
    ordered = resolution.resolve(paths, snapshot.files)
    shuffled = list(reversed(paths)) + paths[:2]  # out of order, and two asked twice
    assert resolution.resolve(shuffled, snapshot.files) == ordered
    keys = [(e.source, e.target, e.kind) for e in ordered]
    assert keys == sorted(set(keys))
    assert {(e.source, e.target, e.kind, e.names) for e in ordered if e.kind != "members"} == set(_edges(snapshot))


def test_a_one_shot_build_drops_every_fact_yet_gives_the_same_graph_and_takes_later_edits(
    project: Path, tmp_path: Path, indexer_for
) -> None:
    one_shot = indexer_for(project, keep_facts=False)
    built = one_shot.refresh()
    assert one_shot._facts == {} and one_shot._resolution.view is None  # nothing held after resolving
    other = tmp_path / "again"
    write_files(other, {p: (project / p).read_text() for p in built.files})
    assert _edges(built) == _edges(indexer_for(other).refresh())
    (project / "lib/models.mini").write_text("def Model\ndef helper2\nuse helper\n")
    (project / "app/views.mini").write_text("import app/main\nuse Model\nuse helper2\ndef render\n")
    updated = one_shot.update(built, ["lib/models.mini", "app/views.mini"])  # facts come back from the store
    assert ("app/views.mini", "lib/models.mini", "references", ("Model", "helper2")) in _edges(updated)


def test_numbered_pairs_are_the_file_graph_numbered(tmp_path: Path, indexer_for) -> None:
    _clustered_project(tmp_path / "p")
    snapshot = indexer_for(tmp_path / "p", workers=1).refresh()
    nodes, a, b, weights = numbered_pairs(snapshot)
    graph = file_graph(snapshot)
    assert nodes == sorted({path for pair in graph for path in pair})
    assert [((nodes[x], nodes[y]), w) for x, y, w in zip(a, b, weights)] == sorted(graph.items())
    assert "alone.mini" not in nodes  # no edge, no node


def test_neighborhoods_are_the_communities_of_the_file_graph(tmp_path: Path, indexer_for) -> None:
    _clustered_project(tmp_path / "p")
    snapshot = indexer_for(tmp_path / "p", workers=1).refresh()
    hoods = detect(snapshot)
    expected = sorted((tuple(sorted(c)) for c in communities(file_graph(snapshot))), key=lambda m: (-len(m), m[0]))
    assert [h.members for h in hoods.items] == expected
    assert len(hoods) >= 3
    for hood in hoods.items:
        assert hood.name.startswith("g") and all(m.startswith(hood.name.split(" ")[0]) for m in hood.members)
        assert hoods.of(hood.members[0]) is hood


def test_a_folder_that_sorts_between_two_members_does_not_fool_the_common_folder() -> None:
    # `a/b-x` sorts between `a/b` and `a/b/c` (`-` comes before `/`): the first and last member
    # alone would claim all three live in `a/b`.
    assert neighborhoods._common_folder(("a/b/m.py", "a/b-x/n.py", "a/b/c/o.py")) == "a"
    assert neighborhoods._common_folder(("a/b/m.py", "a/b/c/o.py")) == "a/b"
    assert neighborhoods._common_folder(("a/m.py", "setup.py", "z/o.py")) == "."
    assert neighborhoods._common_folder(("a/b/m.py", "a/bc/o.py")) == "a"


def test_the_pairs_digest_is_the_digest_of_every_pair_joined(tmp_path: Path, indexer_for) -> None:
    """Streamed a file at a time, yet the same bytes as before: neighborhoods stored by an earlier
    Konstruct still match their graph, so an upgrade does not cluster again."""
    _clustered_project(tmp_path / "p")
    snapshot = indexer_for(tmp_path / "p", workers=1).refresh()
    lines = []
    for source in sorted(snapshot.out_edges):
        for target in dict.fromkeys(e.target for e in snapshot.out_edges[source]):
            lines.append(f"{source}\0{target}")
    assert pairs_digest(snapshot.out_edges) == hashlib.sha256("\n".join(lines).encode()).hexdigest()[:32]


def test_a_rescan_reads_only_what_moved_including_a_same_size_same_time_replacement(
    project: Path, indexer_for
) -> None:
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    assert indexer.refresh(snapshot, summarize=False) is snapshot  # nothing moved: the same graph
    path = project / "lib/util.mini"
    before = path.stat()
    replacement = project / "lib/util.tmp"
    replacement.write_text("def helper\ndef unused_thin\nuse helper\n")  # same size, other bytes
    os.utime(replacement, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(replacement, path)  # an editor's atomic save: only the inode tells
    parses = indexer.parses
    rescanned = indexer.refresh(snapshot, summarize=False)
    assert indexer.parses == parses + 1
    assert [s.name for s in rescanned.files["lib/util.mini"].symbols()] == ["helper", "unused_thin"]


def test_a_created_or_deleted_file_shows_before_the_resolvers_are_rebuilt(project: Path, indexer_for) -> None:
    """On a big tree rebuilding the resolvers' tables for a new set of paths takes seconds: the
    created file, with the edges the current tables give it, and a deletion are published first."""
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    (project / "app/extra.mini").write_text("import lib/util\nuse Model\ndef extra\n")
    early: list = []
    created = indexer.update(snapshot, ["app/extra.mini"], interim=early.append)
    assert len(early) == 1 and "app/extra.mini" in early[0].files
    assert {("app/extra.mini", "lib/util.mini"), ("app/extra.mini", "lib/models.mini")} <= early[0].pairs()
    (project / "app/views.mini").write_text("import app/main\nuse Model\nuse extra\ndef render\n")
    created = indexer.update(created, ["app/views.mini"])
    assert ("app/views.mini", "app/extra.mini") in created.pairs()  # the rebuilt tables know it

    (project / "app/extra.mini").unlink()
    early.clear()
    deleted = indexer.update(created, ["app/extra.mini"], interim=early.append)
    assert len(early) == 1 and "app/extra.mini" not in early[0].files
    assert all("app/extra.mini" not in pair for pair in early[0].pairs())
    assert _edges(deleted) == _edges(indexer_for(project).refresh())
    assert early[0].files.keys() == deleted.files.keys()


def test_a_session_builds_its_resolvers_while_idle_so_the_first_edit_does_not(
    project: Path, indexer_for, live_graph, monkeypatch
) -> None:
    from mini_language import MiniSupport

    indexer_for(project).refresh()  # an index from an earlier run: the session starts warm
    built: list[str] = []
    original = MiniSupport.resolver
    monkeypatch.setattr(MiniSupport, "resolver", lambda self, view: built.append("mini") or original(self, view))
    graph = live_graph(project)
    assert graph.wait_until_current(30)
    assert built == ["mini"]  # before any edit
    (project / "lib/models.mini").write_text("def Model\nuse helper\nuse Model\n")
    graph.notify(["lib/models.mini"])
    assert graph.wait_until_current(30)
    assert built == ["mini"]  # the edit used the tables built while idle
    assert ("lib/models.mini", "lib/util.mini") in graph.snapshot.pairs()
