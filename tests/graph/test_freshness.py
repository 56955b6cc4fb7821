"""Per-query trust: `stale` (changed since the indexed commit) and `ahead_of_index` (bytes on disk
the index has not taken in)."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_helpers import git, write_files

from konstruct_tui.graph.freshness import Freshness
from konstruct_tui.graph.query import GraphQuery


@pytest.fixture
def repo(project: Path) -> Path:
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "base")
    return project


def test_a_clean_tree_has_nothing_stale_or_ahead(repo: Path, live_graph) -> None:
    graph = live_graph(repo)
    assert graph.reconciler.wait_until_current(10)
    answer = graph.query.dependents("lib/util.mini")
    assert answer.stale == () and answer.ahead_of_index == ()


def test_an_unnotified_edit_is_ahead_of_the_index(repo: Path, live_graph) -> None:
    graph = live_graph(repo)
    assert graph.reconciler.wait_until_current(10)
    (repo / "app/main.mini").write_text("import lib/util\nuse helper\ndef main\ndef more\n")
    answer = graph.query.dependents("lib/util.mini")
    assert answer.ahead_of_index == ("app/main.mini",)
    graph.notify(["app/main.mini"])
    assert graph.reconciler.wait_until_current(10)
    answer = graph.query.dependents("lib/util.mini")
    assert answer.ahead_of_index == ()
    assert answer.stale == ("app/main.mini",)  # indexed from the uncommitted overlay


def test_commits_after_the_indexed_one_are_stale(repo: Path, live_graph) -> None:
    graph = live_graph(repo)
    assert graph.reconciler.wait_until_current(10)
    write_files(repo, {"tests/test_more.mini": "import lib/util\n"})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "more")
    graph.notify(["tests/test_more.mini"])
    assert graph.reconciler.wait_until_current(10)
    answer = graph.query.dependents("lib/util.mini")
    assert "tests/test_more.mini" in [r["path"] for r in answer.results]
    assert answer.stale == ("tests/test_more.mini",)


def test_a_deleted_file_still_in_the_index_is_ahead(repo: Path, indexer_for) -> None:
    indexer = indexer_for(repo)
    snapshot = indexer.refresh()
    (repo / "lib/models.mini").unlink()
    query = GraphQuery(lambda: snapshot, Freshness(indexer.workspace))
    answer = query.dependents("lib/util.mini")
    assert answer.ahead_of_index == ("lib/models.mini",)
    assert answer.stale == ("lib/models.mini",)


def test_a_touch_with_the_same_bytes_is_not_ahead(repo: Path, indexer_for) -> None:
    import os

    indexer = indexer_for(repo)
    snapshot = indexer.refresh()
    path = repo / "app/main.mini"
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 3_000_000_000))
    query = GraphQuery(lambda: snapshot, Freshness(indexer.workspace))
    assert query.dependents("lib/util.mini").ahead_of_index == ()


def test_outside_git_nothing_is_stale(project: Path, indexer_for) -> None:
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    (project / "app/main.mini").write_text("changed\n")
    answer = GraphQuery(lambda: snapshot, Freshness(indexer.workspace)).dependents("lib/util.mini")
    assert answer.stale == ()
    assert answer.ahead_of_index == ("app/main.mini",)
