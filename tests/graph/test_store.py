"""The index store: where it lives, and a schema change forcing a clean rebuild."""

from __future__ import annotations

from pathlib import Path

import pytest

from mini_language import MiniSupport, mini_languages

from konstruct_tui.graph import store as store_module
from konstruct_tui.graph.store import IndexStore, extraction_fingerprint, index_path


def test_the_index_lives_in_the_user_cache_dir_per_workspace(project: Path, indexer_for, private_user_dirs: Path) -> None:
    indexer_for(project).refresh()
    path = index_path(project)
    assert path.is_file()
    assert str(path).startswith(str(private_user_dirs / "xdg_cache_home"))
    assert path.name.startswith("project-") and path.suffix == ".sqlite"


def test_a_new_schema_version_drops_the_old_index(project: Path, indexer_for, monkeypatch) -> None:
    indexer_for(project).refresh()
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", store_module.SCHEMA_VERSION + 1)
    indexer = indexer_for(project)
    assert indexer.store.rebuilt
    snapshot = indexer.refresh()
    assert indexer.report.cold
    assert indexer.parses == 5
    assert "lib/util.mini" in snapshot.files


def test_the_same_schema_keeps_the_index(project: Path, indexer_for) -> None:
    indexer_for(project).refresh()
    indexer = indexer_for(project)
    assert not indexer.store.rebuilt
    assert not indexer.store.is_empty()


def test_a_different_language_set_changes_the_fingerprint() -> None:
    one = extraction_fingerprint(mini_languages())
    two = extraction_fingerprint({"mini": MiniSupport(), "other": MiniSupport(name="other", extensions=(".o",))})
    assert one != two
    assert one == extraction_fingerprint(mini_languages())


def test_the_indexed_commit_is_recorded_in_a_git_work_tree(project: Path, indexer_for) -> None:
    from graph_helpers import git

    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "one")
    head = git(project, "rev-parse", "HEAD").strip()
    snapshot = indexer_for(project).refresh()
    assert snapshot.commit == head
    store = IndexStore.for_root(project, mini_languages())
    try:
        assert store.meta("commit") == head
    finally:
        store.close()


def test_an_interrupted_cold_build_is_started_over(project: Path, indexer_for, monkeypatch) -> None:
    from konstruct_tui.graph.resolution import Resolution

    def crash(self, *args, **kwargs):
        raise KeyboardInterrupt

    indexer = indexer_for(project)
    monkeypatch.setattr(Resolution, "resolve", crash)
    try:
        indexer.refresh()
    except KeyboardInterrupt:
        pass
    monkeypatch.undo()
    assert not indexer.store.is_empty()  # files were stored as they were parsed, edges never were
    again = indexer_for(project)
    snapshot = again.refresh()
    assert again.report.cold and again.parses == 5
    assert ("app/main.mini", "lib/util.mini") in snapshot.pairs()


def test_a_stored_snapshot_is_read_without_touching_the_tree(project: Path, indexer_for) -> None:
    from konstruct_tui.graph.code_graph import stored_snapshot
    from konstruct_tui.workspace import Workspace

    workspace = Workspace(project)
    assert stored_snapshot(workspace, mini_languages()) is None
    built = indexer_for(project).refresh()
    (project / "lib/util.mini").unlink()  # not looked at: the stored graph still has it
    loaded = stored_snapshot(workspace, mini_languages())
    assert loaded is not None and loaded.pairs() == built.pairs()
    assert "lib/util.mini" in loaded.files


def test_a_damaged_index_file_is_replaced(project: Path, indexer_for) -> None:
    indexer_for(project).refresh()
    path = index_path(project)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"this is not a database" * 100)
    with pytest.warns(UserWarning, match="was damaged .*rebuilt from the sources"):
        indexer = indexer_for(project)
    snapshot = indexer.refresh()
    assert indexer.report.cold
    assert ("app/main.mini", "lib/util.mini") in snapshot.pairs()


def test_the_built_in_fingerprint_needs_no_grammar() -> None:
    """The warm start checks the fingerprint without importing the languages; it must be the one
    a build with the built-in languages writes."""
    from konstruct_tui.graph.languages import languages

    assert extraction_fingerprint() == extraction_fingerprint(languages())
    assert extraction_fingerprint() != extraction_fingerprint({"python": languages()["python"]})
