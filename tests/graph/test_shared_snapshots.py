"""Snapshots share structure with the one they came from (a one-file change costs what it touches,
not the project), and every answer stays what a fresh build of the same graph gives."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from graph_helpers import write_files

from konstruct_tui.graph import snapshot as snapshot_module
from konstruct_tui.graph.facts import Edge
from konstruct_tui.graph.overlay import Overlay
from konstruct_tui.graph.query import GraphQuery
from konstruct_tui.graph.records import FileEntry
from konstruct_tui.graph.snapshot import GraphSnapshot, pack


def test_an_overlay_answers_like_a_dict_through_changes_and_folds(monkeypatch) -> None:
    monkeypatch.setattr("konstruct_tui.graph.overlay.FOLD_MIN", 8)  # fold often
    rng = random.Random(5)
    model = {f"k{i}": i for i in range(40)}
    current = Overlay(dict(model))
    history = [(current, dict(model))]
    for step in range(300):
        keys = [f"k{rng.randrange(80)}" for _ in range(rng.randrange(4))]
        changes = {k: step for k in keys[: len(keys) // 2 + 1] if keys}
        removed = keys[len(keys) // 2 + 1 :]
        current = current.updated(changes, removed)
        model.update(changes)
        for key in removed:
            model.pop(key, None)
        history.append((current, dict(model)))
    for overlay, expected in history[::7]:  # older overlays never move when newer ones are made
        assert dict(overlay.items()) == expected
        assert sorted(overlay) == sorted(expected) and len(list(overlay)) == len(expected)
        assert len(overlay) == len(expected)
        assert sorted(overlay.values()) == sorted(expected.values())
        for key in ("k1", "k7", "k55", "nope"):
            assert (key in overlay) == (key in expected)
            assert overlay.get(key, "none") == expected.get(key, "none")
            if key not in expected:
                with pytest.raises(KeyError):
                    overlay[key]


def _entry(path: str, symbols: list[str]) -> FileEntry:
    rows = [[name, "function", i + 1, i + 1] for i, name in enumerate(symbols)]
    return FileEntry(path, "python", f"h{path}{symbols}", 1, 1, symbols_json=json.dumps(rows))


def _random_graph(rng: random.Random, files: list[str]) -> tuple[dict[str, FileEntry], list[Edge]]:
    entries = {p: _entry(p, [f"f{rng.randrange(30)}", f"C{rng.randrange(9)}.run"]) for p in files}
    edges = []
    for path in files:
        for target in rng.sample(files, 3):
            if target != path:
                edges.append(Edge(path, target, rng.choice(("imports", "references")), ("x",)))
        if rng.random() < 0.5:
            members = {t: [f"m{rng.randrange(5)}"] for t in rng.sample(files, 2) if t != path}
            edges.append(pack(path, members, [f"u{rng.randrange(4)}"] if rng.random() < 0.3 else []))
    return entries, sorted(edges, key=lambda e: (e.source, e.target, e.kind))


def _answers(snap: GraphSnapshot) -> dict[str, object]:
    return {
        "files": dict(snap.files.items()),
        "out": {k: v for k, v in snap.out_edges.items()},
        "in": {k: v for k, v in snap.in_edges.items()},
        "symbols": dict(snap.symbol_index.items()),
        "members_in": dict(snap.side.members_in.items()),
        "members_out": dict(snap.side.members_out.items()),
        "unresolved": dict(snap.side.unresolved.items()),
        "pairs": snap.pairs(),
        "under": (snap.files_under("pkg"), snap.files_under("."), snap.files_under("pk"), snap.sorted_paths),
    }


def test_carried_views_give_what_a_fresh_build_gives_and_held_snapshots_never_move() -> None:
    rng = random.Random(11)
    files = [f"pkg/m{i}.py" for i in range(60)]
    entries, edges = _random_graph(rng, files)
    snap = GraphSnapshot.build(entries, edges)
    held: list[tuple[GraphSnapshot, dict[str, object]]] = []
    for step in range(40):
        held.append((snap, _answers(snap)))  # a reader holding it: the derived views are now paid for
        alive = sorted(snap.files)
        changed_paths = rng.sample(alive, rng.randrange(1, 4)) + [f"pkg/new{step}.py"] * (step % 3 == 0)
        removed = set(rng.sample(alive, 1)) if step % 4 == 1 else set()
        changed_paths = [p for p in changed_paths if p not in removed]
        after = {p: e for p, e in snap.files.items() if p not in removed}
        fresh_entries, fresh_edges = _random_graph(rng, sorted(set(after) | set(changed_paths)))
        changed = {p: fresh_entries[p] for p in changed_paths}
        new_edges = [e for e in fresh_edges if e.source in changed and (e.target in after or e.target in changed)]
        snap = snap.replace(changed, removed, set(changed), new_edges, commit=None)
        # the same graph, built from scratch from what the carried snapshot holds
        all_edges = [e for out in snap.out_edges.values() for e in out]
        all_edges += [Edge(p, p, "members", names) for p, names in snap.side.packed.items()]
        rebuilt = GraphSnapshot.build(dict(snap.files.items()),
                                      sorted(all_edges, key=lambda e: (e.source, e.target, e.kind)))
        assert _answers(snap) == _answers(rebuilt), f"step {step}"
    for old, seen in held:
        assert _answers(old) == seen


def test_a_one_file_change_shares_the_rest_of_the_graph() -> None:
    files = {f"m{i}.py": _entry(f"m{i}.py", [f"f{i}"]) for i in range(3000)}
    edges = [Edge(f"m{i}.py", f"m{(i + 1) % 3000}.py", "imports", ("x",)) for i in range(3000)]
    old = GraphSnapshot.build(files, edges)
    assert old.symbol_index  # a query paid for it: the next snapshot carries it
    new = old.replace({"m5.py": _entry("m5.py", ["g5"])}, (), {"m5.py"}, [Edge("m5.py", "m9.py", "imports", ())],
                      commit=None)
    # Nothing was copied: the new snapshot is the old one's maps plus a few changed keys.
    for before, after in ((old.files, new.files), (old.out_edges, new.out_edges), (old.in_edges, new.in_edges),
                          (old.symbol_index, new.symbol_index)):
        assert isinstance(after, Overlay) and after._base is before._base and len(after._delta) <= 4
    assert [e.source for e in new.in_edges["m9.py"]] == ["m5.py", "m8.py"]
    assert "m6.py" not in new.in_edges and [p for p, _ in new.symbol_index["g5"]] == ["m5.py"]
    assert "f5" not in new.symbol_index and "f5" in old.symbol_index


def _chain(count: int) -> tuple[dict[str, FileEntry], list[Edge]]:
    files = {f"a/m{i}.py": _entry(f"a/m{i}.py", []) for i in range(count)}
    files.update({f"b/m{i}.py": _entry(f"b/m{i}.py", []) for i in range(count)})
    edges = [Edge(f"{d}/m{i}.py", f"{d}/m{i + 1}.py", "imports", ()) for d in "ab" for i in range(count - 1)]
    return files, sorted(edges, key=lambda e: (e.source, e.target, e.kind))


def test_a_big_graph_whose_pairs_moved_answers_the_last_neighborhoods_until_settled(monkeypatch) -> None:
    monkeypatch.setattr(snapshot_module, "STALE_NEIGHBORHOODS_FILES", 10)
    old = GraphSnapshot.build(*_chain(8))
    hoods = old.neighborhoods
    assert old.neighborhoods_current
    same_pairs = old.replace({}, (), {"a/m1.py"}, [Edge("a/m1.py", "a/m2.py", "references", ())], commit=None)
    assert same_pairs.neighborhoods is hoods and same_pairs.neighborhoods_current
    joined = same_pairs.replace({}, (), {"a/m7.py"}, [Edge("a/m7.py", "b/m0.py", "imports", ())], commit=None)
    assert joined.neighborhoods_at_hand  # search hits may name them without waiting
    assert joined.neighborhoods is hoods and not joined.neighborhoods_current  # no clustering on the way
    query = GraphQuery(lambda: joined, None, lambda: "not ready")
    assert query.neighborhood("a/m7.py").to_json()["neighborhoods_as_of"].startswith("before the latest edits")
    settled = joined.settled_neighborhoods()
    assert "neighborhoods_as_of" not in query.neighborhood("a/m7.py").to_json()
    assert settled is not hoods and joined.neighborhoods is settled and joined.neighborhoods_current
    assert settled.of("a/m7.py") is not None and settled.of("b/m0.py") is not None


def test_a_small_graph_whose_pairs_moved_clusters_again_at_once(monkeypatch) -> None:
    old = GraphSnapshot.build(*_chain(8))
    hoods = old.neighborhoods
    joined = old.replace({}, (), {"a/m7.py"}, [Edge("a/m7.py", "b/m0.py", "imports", ())], commit=None)
    assert not joined.neighborhoods_at_hand
    assert joined.neighborhoods is not hoods and joined.neighborhoods_current


def test_a_reader_holding_a_snapshot_sees_it_whole_while_edits_land(project: Path, live_graph) -> None:
    graph = live_graph(project)
    assert graph.wait_until_current(10)
    held = graph.snapshot
    seen = (dict(held.files.items()), dict(held.out_edges.items()), dict(held.in_edges.items()))
    for i in range(5):
        write_files(project, {f"lib/extra{i}.mini": f"import lib/util\nuse helper\ndef extra{i}\n"})
        graph.notify([f"lib/extra{i}.mini"])
        assert graph.wait_until_current(10)
    (project / "lib/models.mini").unlink()
    graph.notify(["lib/models.mini"])
    assert graph.wait_until_current(10)
    assert (dict(held.files.items()), dict(held.out_edges.items()), dict(held.in_edges.items())) == seen
    now = graph.snapshot
    assert "lib/models.mini" not in now.files and "lib/extra4.mini" in now.files
    assert {e.source for e in now.in_edges["lib/util.mini"]} >= {f"lib/extra{i}.mini" for i in range(5)}


def test_a_big_index_is_kept_out_of_the_cycle_collectors_full_passes(project: Path, live_graph, monkeypatch) -> None:
    """A full collection walked every long-lived object of a 100,000-file index (6-7 s, mid-edit);
    once the session's graph is ready its heap is frozen. A small one is left alone."""
    import gc

    from konstruct_tui.graph import overlay, reconciler

    monkeypatch.setattr(overlay, "_heap_frozen", False)  # restored after the test
    gc.unfreeze()
    try:
        small = live_graph(project)
        assert small.wait_until_current(10)
        assert gc.get_freeze_count() == 0
        monkeypatch.setattr(reconciler, "FREEZE_HEAP_FILES", 3)
        big = live_graph(project)
        assert big.wait_until_current(10)
        assert gc.get_freeze_count() > 0
        with overlay.collector_paused():  # what a big index builds later is frozen with it
            built = [[i] for i in range(1000)]
        # Frozen objects sit in no collectable generation. (The freeze count alone moves with
        # other threads freeing frozen objects meanwhile.)
        collectable = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
        assert not any(id(item) in collectable for item in built)
    finally:
        gc.unfreeze()
