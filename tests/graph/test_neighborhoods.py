"""Neighborhoods: deterministic clusters with readable names and bridges, ranked against a request."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from graph_helpers import write_files

from konstruct_tui.graph.neighborhoods import detect, rank_neighborhoods


def _two_clusters() -> dict[str, str]:
    files = {}
    for i in range(6):
        others = "\n".join(f"use billing_{j}" for j in range(6) if j != i)
        files[f"billing/invoice_{i}.mini"] = f"def billing_{i}\n{others}\n"
        others = "\n".join(f"use render_{j}" for j in range(6) if j != i)
        files[f"frontend/widget_{i}.mini"] = f"def render_{i}\n{others}\n"
    files["frontend/widget_0.mini"] += "use billing_0\n"  # the one bridge between them
    files["lonely.mini"] = "def alone\n"
    return files


@pytest.fixture
def clustered(tmp_path: Path) -> Path:
    root = tmp_path / "clustered"
    write_files(root, _two_clusters())
    return root


def test_clusters_are_found_named_and_bridged(clustered: Path, indexer_for) -> None:
    hoods = detect(indexer_for(clustered).refresh())
    by_name = {h.name: h for h in hoods.items}
    assert set(by_name) == {"billing", "frontend"}
    assert len(by_name["billing"].members) == 6
    assert by_name["frontend"].bridges == ("frontend/widget_0.mini",)
    assert by_name["billing"].bridges == ("billing/invoice_0.mini",)
    assert hoods.of("lonely.mini") is None


def test_the_same_graph_gives_the_same_clusters_every_time(clustered: Path, tmp_path: Path, indexer_for) -> None:
    first = detect(indexer_for(clustered).refresh())
    second = detect(indexer_for(clustered).refresh())
    other = tmp_path / "again"
    write_files(other, _two_clusters())
    third = detect(indexer_for(other).refresh())
    assert first == second == third


def test_a_request_ranks_the_neighborhood_it_talks_about(clustered: Path, indexer_for) -> None:
    snapshot = indexer_for(clustered).refresh()
    ranked = rank_neighborhoods(snapshot, "The invoice totals are wrong when billing twice")
    assert ranked[0][0].name == "billing"
    assert rank_neighborhoods(snapshot, "make the widget render faster")[0][0].name == "frontend"
    assert rank_neighborhoods(snapshot, "the and for") == []


def test_an_edit_that_keeps_the_file_graph_keeps_the_clusters(clustered: Path, indexer_for) -> None:
    indexer = indexer_for(clustered)
    snapshot = indexer.refresh()
    first = snapshot.neighborhoods
    (clustered / "billing/invoice_3.mini").write_text("def billing_3\nuse billing_0\nuse billing_1\nuse billing_2\n"
                                                     "use billing_4\nuse billing_5\n\n")
    same = indexer.update(snapshot, ["billing/invoice_3.mini"])
    assert same.neighborhoods is first
    (clustered / "lonely.mini").write_text("def alone\nuse render_1\n")
    moved = indexer.update(same, ["lonely.mini"])
    assert moved.neighborhoods is not first
    assert moved.neighborhoods.of("lonely.mini") is not None


def test_a_new_session_reads_the_clusters_from_the_store_instead_of_clustering(
    clustered: Path, indexer_for, monkeypatch
) -> None:
    from konstruct_tui.graph import neighborhoods

    indexer = indexer_for(clustered)
    first = indexer.store.neighborhoods_for(indexer.refresh())

    def no_clustering(graph):
        raise AssertionError("clustered again although the file graph did not change")

    monkeypatch.setattr(neighborhoods, "communities", no_clustering)
    again = indexer_for(clustered)
    stored = again.store.neighborhoods_for(again.refresh())
    assert stored == first
    assert stored.of("billing/invoice_2.mini").name == "billing"

    (clustered / "lonely.mini").write_text("def alone\nuse render_1\n")  # the file graph moved
    monkeypatch.undo()
    moved = indexer_for(clustered)
    assert moved.store.neighborhoods_for(moved.refresh()).of("lonely.mini") is not None


def test_clusters_are_at_least_as_modular_as_louvain_found_on_a_graph_with_communities() -> None:
    """A planted partition (8 groups of 25 files, dense inside, sparse across): Leiden recovers it."""
    import random

    from konstruct_tui.graph.neighborhoods import communities, modularity

    rng = random.Random(7)
    graph: dict[tuple[str, str], int] = {}
    names = [f"g{i // 25}/m{i % 25}.py" for i in range(200)]
    for i, a in enumerate(names):
        for _ in range(4):
            j = (i // 25) * 25 + rng.randrange(25) if rng.random() < 0.85 else rng.randrange(200)
            if j != i:
                graph[min(a, names[j]), max(a, names[j])] = 1
    planted = [[n for n in names if n.startswith(f"g{k}/")] for k in range(8)]
    found = communities(graph)
    assert modularity(graph, found) >= modularity(graph, planted) - 0.01
    assert communities(graph) == found  # seeded: the same answer every time


def test_the_reconciler_stores_new_clusters_once_edits_pause(clustered: Path, live_graph) -> None:
    from konstruct_tui.graph.store import pairs_digest

    graph = live_graph(clustered, warm_neighborhoods=True, settle_after=0.05)
    assert graph.wait_until_current(30)
    (clustered / "lonely.mini").write_text("def alone\nuse render_1\n")
    graph.notify(["lonely.mini"])
    assert graph.wait_until_current(30)
    store = graph.reconciler.indexer.store
    deadline = time.monotonic() + 20
    while store.neighborhoods(pairs_digest(graph.snapshot.out_edges)) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    stored = store.neighborhoods(pairs_digest(graph.snapshot.out_edges))
    assert stored is not None and stored.of("lonely.mini") is not None


def test_a_big_clustering_in_a_threaded_process_runs_in_a_child_and_gives_the_same_clusters(monkeypatch) -> None:
    """igraph holds the interpreter lock while it clusters; in a session (other threads running) a
    big graph is clustered in a child process, so the UI and the queries keep running."""
    import random
    import threading

    from konstruct_tui.graph import neighborhoods

    rng = random.Random(2)
    graph = {}
    for i in range(400):
        for j in rng.sample(range(400), 3):
            a, b = sorted((f"g{i // 40}/m{i}.py", f"g{j // 40}/m{j}.py"))
            if a != b and (rng.random() < 0.8 or i // 40 == j // 40):
                graph[(a, b)] = graph.get((a, b), 0) + 1
    in_process = neighborhoods.communities(graph)  # this test's thread alone: no child
    children = []
    original = neighborhoods._in_child
    monkeypatch.setattr(neighborhoods, "CHILD_PAIRS", 100)
    monkeypatch.setattr(neighborhoods, "_in_child", lambda *args: children.append(1) or original(*args))
    done = threading.Event()
    other = threading.Thread(target=done.wait, args=(30,))
    other.start()
    try:
        in_child = neighborhoods.communities(graph)
    finally:
        done.set()
        other.join()
    assert children == [1]
    assert in_child == in_process and len(in_process) > 1


def test_an_edit_made_while_neighborhoods_are_recomputed_is_indexed_without_waiting(
    clustered: Path, live_graph, monkeypatch
) -> None:
    import threading

    from konstruct_tui.graph import neighborhoods
    from konstruct_tui.graph.store import pairs_digest

    graph = live_graph(clustered, warm_neighborhoods=True, settle_after=0.05)
    assert graph.wait_until_current(30)
    gate, entered = threading.Event(), threading.Event()
    original = neighborhoods.detect

    def slow_detect(snapshot):
        entered.set()
        gate.wait(30)
        return original(snapshot)

    monkeypatch.setattr(neighborhoods, "detect", slow_detect)
    try:
        (clustered / "lonely.mini").write_text("def alone\nuse render_1\n")
        graph.notify(["lonely.mini"])
        assert graph.wait_until_current(30) and entered.wait(30)  # clustering the new graph, held
        (clustered / "billing/invoice_1.mini").write_text("def billing_1\nuse alone\n")
        graph.notify(["billing/invoice_1.mini"])
        assert graph.wait_until_current(5)
        assert "lonely.mini" in {e.target for e in graph.snapshot.out_edges["billing/invoice_1.mini"]}
    finally:
        gate.set()
    store = graph.reconciler.indexer.store
    deadline = time.monotonic() + 20
    while store.neighborhoods(pairs_digest(graph.snapshot.out_edges)) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert graph.snapshot.neighborhoods_current
    assert store.neighborhoods(pairs_digest(graph.snapshot.out_edges)) is not None


def test_clustering_loads_only_igraphs_core_and_the_package_still_imports_whole_after_it() -> None:
    """The end of a cold index loads igraph's compiled core alone (the package costs 60-130 ms of
    helpers); a later `import igraph` in the same process must still get a working package."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from konstruct_tui.graph.neighborhoods import communities\n"
        "found = communities({('a.py', 'b.py'): 1.0, ('b.py', 'c.py'): 1.0, ('x.py', 'y.py'): 1.0})\n"
        "assert sorted(map(sorted, found)) == [['a.py', 'b.py', 'c.py'], ['x.py', 'y.py']], found\n"
        "assert 'igraph' not in sys.modules and 'igraph.clustering' not in sys.modules\n"
        "import igraph\n"
        "from igraph.clustering import split_join_distance\n"  # reaches igraph._igraph
        "assert split_join_distance([0, 0, 1], [0, 1, 1]) == (1, 1)\n"
        "assert len(igraph.Graph.Famous('Zachary').community_leiden(objective_function='modularity')) > 1\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
