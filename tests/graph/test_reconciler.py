"""The background reconciler: coalesces bursts, re-indexes what changed, never blocks a query."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from graph_helpers import write_files
from mini_language import MiniSupport

from konstruct_tui.graph.answers import OK, UNDETERMINABLE


class GatedSupport(MiniSupport):
    """Extraction of `slow.mini` waits for a gate: a reconcile that takes as long as the test wants."""

    gate = threading.Event()
    entered = threading.Event()
    left = threading.Event()  # the extraction is over (the gate opened, or its wait gave up)

    def extract(self, path, source):
        if path.endswith("slow.mini"):
            GatedSupport.entered.set()
            GatedSupport.gate.wait(10)
            GatedSupport.left.set()
        return super().extract(path, source)


def test_a_notified_change_reaches_queries(project: Path, live_graph) -> None:
    graph = live_graph(project)
    assert graph.reconciler.wait_until_current(10)
    assert graph.query.dependents("lib/models.mini").status == OK
    write_files(project, {"app/new.mini": "use render\n"})
    graph.notify(["app/new.mini"])
    assert graph.reconciler.wait_until_current(10)
    found = graph.query.dependents("app/views.mini")
    assert [r["path"] for r in found.results] == ["app/new.mini"]
    (project / "app/new.mini").unlink()
    graph.notify(["app/new.mini"])
    assert graph.reconciler.wait_until_current(10)
    assert graph.query.dependents("app/views.mini").status == "no_references"


def test_a_burst_of_notifications_is_one_update(project: Path, live_graph, monkeypatch) -> None:
    graph = live_graph(project, quiet=0.2, max_delay=2.0)
    assert graph.reconciler.wait_until_current(10)
    indexer = graph.reconciler.indexer
    batches: list[set[str]] = []
    original = indexer.update

    def counting(current, paths, **options):
        batches.append(set(paths))
        return original(current, paths, **options)

    monkeypatch.setattr(indexer, "update", counting)
    for i in range(5):
        write_files(project, {f"lib/n{i}.mini": f"def n{i}\n"})
        graph.notify([f"lib/n{i}.mini"])
    assert graph.reconciler.wait_until_current(10)
    assert batches == [{f"lib/n{i}.mini" for i in range(5)}]
    assert indexer.parses >= 5
    assert graph.query.definitions("n4").status == OK


def test_queries_answer_from_the_last_snapshot_while_reindexing(project: Path, live_graph) -> None:
    GatedSupport.gate.clear()
    GatedSupport.entered.clear()
    GatedSupport.left.clear()
    graph = live_graph(project, supports={"mini": GatedSupport()})
    assert graph.reconciler.wait_until_current(10)
    before = graph.snapshot
    write_files(project, {"lib/slow.mini": "def slow_thing\nuse helper\n"})
    graph.notify(["lib/slow.mini"])
    try:
        assert GatedSupport.entered.wait(10)  # the reconciler is now stuck inside an extraction
        answer = graph.query.dependents("lib/util.mini")
        assert not GatedSupport.left.is_set()  # answered while the extraction was still stuck: it did not wait
        assert answer.status == OK
        assert graph.snapshot is before
        assert graph.query.definitions("slow_thing").status == "not_indexed"
    finally:
        GatedSupport.gate.set()
    assert graph.reconciler.wait_until_current(10)
    assert graph.query.definitions("slow_thing").status == OK


def test_before_the_first_snapshot_every_answer_is_undeterminable(project: Path, live_graph) -> None:
    graph = live_graph(project, start=False)
    answer = graph.query.dependents("lib/util.mini")
    assert answer.status == UNDETERMINABLE
    assert "still being built" in answer.reason
    assert graph.query.definitions("helper").status == UNDETERMINABLE


def test_a_rescan_picks_up_changes_nobody_notified(project: Path, live_graph) -> None:
    graph = live_graph(project)
    assert graph.reconciler.wait_until_current(10)
    (project / "lib/models.mini").write_text("def Model\ndef Extra\n")
    graph.reconciler.rescan()
    assert graph.reconciler.wait_until_current(10)
    assert graph.query.definitions("Extra").status == OK


def test_a_big_rescan_uses_worker_processes_from_the_background_thread(project: Path, live_graph) -> None:
    from mini_language import mini_languages

    graph = live_graph(project, supports=None, support_factory=mini_languages, inline_limit=4)
    assert graph.reconciler.wait_until_current(30)
    write_files(project, {f"gen/g{i}.mini": f"def g{i}\nuse helper\n" for i in range(12)})
    graph.reconciler.rescan()
    assert graph.reconciler.wait_until_current(60)
    assert graph.reconciler.error is None
    assert graph.query.definitions("g11").status == "ok"
    assert len(graph.query.dependents("lib/util.mini").results) == 3 + 12


def test_edits_nobody_notified_are_swept_up_periodically(project: Path, live_graph) -> None:
    graph = live_graph(project, rescan_every=0.2)
    assert graph.reconciler.wait_until_current(10)
    (project / "lib/models.mini").write_text("def Model\ndef FromAnEditor\n")
    deadline = time.monotonic() + 10
    while graph.query.definitions("FromAnEditor").status != OK:
        assert time.monotonic() < deadline, "the periodic sweep never saw the edit"
        time.sleep(0.05)


def test_notified_paths_that_leave_the_workspace_or_are_ignored_are_not_indexed(
    project: Path, tmp_path: Path, live_graph
) -> None:
    from graph_helpers import git

    git(project, "init", "-q")
    write_files(project, {".gitignore": "build/\n"})
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "base")
    outside = tmp_path / "outside.mini"
    outside.write_text("def stolen\n")
    (project / "link.mini").symlink_to(outside)
    graph = live_graph(project)
    assert graph.reconciler.wait_until_current(10)
    write_files(project, {"build/gen.mini": "def generated\n"})
    graph.notify(["link.mini", "../outside.mini", "/etc/passwd", "build/gen.mini"])
    assert graph.reconciler.wait_until_current(10)
    assert graph.reconciler.error is None
    assert graph.query.definitions("stolen").status == "not_indexed"
    assert graph.query.definitions("generated").status == "not_indexed"
    assert "link.mini" not in graph.snapshot.files


def test_closing_during_the_first_build_stops_it_and_the_next_start_redoes_it(tmp_path: Path, live_graph) -> None:
    from mini_language import mini_languages, slow_mini_languages

    root = tmp_path / "many"
    write_files(root, {f"m{i}.mini": f"def f{i}\nuse f{i + 1}\n" for i in range(800)})
    graph = live_graph(root, supports=None, support_factory=slow_mini_languages, inline_limit=0)
    time.sleep(0.5)
    started = time.perf_counter()
    graph.close()
    # The whole build would take 800 x 0.05 s / 2 workers = 20 s. Closing cancels the chunks not
    # started and waits for the ones running (64 files: 3.2 s here, a fraction of a second on real
    # files); the bound leaves room for a loaded machine to take the workers down.
    assert time.perf_counter() - started < 8
    assert graph.snapshot is None and graph.state == "stopped"
    again = live_graph(root, supports=None, support_factory=mini_languages)
    assert again.reconciler.wait_until_current(30)
    assert again.reconciler.indexer.report.cold
    assert again.snapshot.edge_count() == 799


def test_notified_paths_are_taken_in_the_index_spelling(project: Path, live_graph) -> None:
    graph = live_graph(project)
    assert graph.reconciler.wait_until_current(10)
    write_files(project, {"lib/extra.mini": "def extra\n"})
    graph.notify(["./lib/extra.mini", "lib//extra.mini", "app/../lib/extra.mini", "lib/"])
    assert graph.reconciler.wait_until_current(10)
    assert [p for p in graph.snapshot.files if p.endswith("extra.mini")] == ["lib/extra.mini"]
