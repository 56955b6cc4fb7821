"""Cold build, warm start and incremental refresh: what gets parsed, what gets reused."""

from __future__ import annotations

import os
from pathlib import Path

from graph_helpers import write_files

from konstruct_tui.graph.extraction import MAX_PARSE_BYTES
from konstruct_tui.graph.records import BINARY, TEXT, TOO_LARGE


def _pairs(snapshot) -> set[tuple[str, str]]:
    return set(snapshot.pairs())


def test_cold_build_indexes_every_file_and_resolves_edges(project: Path, indexer_for) -> None:
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    assert indexer.report.cold
    assert indexer.parses == 5
    assert snapshot.files["README.md"].language == TEXT
    assert snapshot.files["lib/util.mini"].language == "mini"
    assert ("app/main.mini", "lib/util.mini") in _pairs(snapshot)
    assert ("tests/test_util.mini", "lib/util.mini") in _pairs(snapshot)
    kinds = {e.kind for e in snapshot.successors("app/main.mini")}
    assert kinds == {"imports", "references"}
    assert snapshot.files["lib/util.mini"].hash.startswith("sha256:")


def test_warm_start_parses_nothing_and_gives_the_same_graph(project: Path, indexer_for) -> None:
    first = indexer_for(project).refresh()
    again = indexer_for(project)
    snapshot = again.refresh()
    assert again.parses == 0
    assert not again.report.cold
    assert snapshot.files == first.files
    assert _pairs(snapshot) == _pairs(first)


def test_only_the_changed_file_is_parsed_and_its_edges_follow(project: Path, indexer_for) -> None:
    indexer_for(project).refresh()
    (project / "app/views.mini").write_text("def render\n")  # no longer imports main or uses Model
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    assert indexer.parses == 1
    assert not snapshot.successors("app/views.mini")
    assert ("app/main.mini", "lib/util.mini") in _pairs(snapshot)


def test_a_touch_without_new_bytes_is_hashed_but_not_parsed(project: Path, indexer_for) -> None:
    indexer_for(project).refresh()
    path = project / "lib/util.mini"
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 5_000_000_000))
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    assert indexer.parses == 0
    assert indexer.report.reused == 1
    assert snapshot.files["lib/util.mini"].mtime_ns == info.st_mtime_ns + 5_000_000_000
    assert indexer_for(project).refresh().files["lib/util.mini"].mtime_ns == info.st_mtime_ns + 5_000_000_000


def test_a_new_definition_resolves_uses_in_files_that_did_not_change(project: Path, indexer_for) -> None:
    write_files(project, {"app/extra.mini": "use later_defined\n"})
    indexer_for(project).refresh()
    write_files(project, {"lib/late.mini": "def later_defined\n"})
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    assert indexer.parses == 1
    assert ("app/extra.mini", "lib/late.mini") in _pairs(snapshot)


def test_a_deleted_file_leaves_the_graph_with_its_edges(project: Path, indexer_for) -> None:
    indexer_for(project).refresh()
    (project / "lib/models.mini").unlink()
    snapshot = indexer_for(project).refresh()
    assert "lib/models.mini" not in snapshot.files
    assert all("lib/models.mini" not in pair for pair in _pairs(snapshot))
    assert indexer_for(project).refresh().files.keys() == snapshot.files.keys()


def test_large_and_binary_sources_are_text_only_entries(project: Path, indexer_for) -> None:
    write_files(project, {
        "big.mini": "def huge\n" + "x" * (MAX_PARSE_BYTES + 10),
        "blob.mini": b"def blob\n\0\0\0",
    })
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    assert snapshot.files["big.mini"].note == TOO_LARGE
    assert snapshot.files["blob.mini"].note == BINARY
    assert not snapshot.files["big.mini"].parsed
    assert "huge" not in snapshot.symbol_index


def test_worker_processes_give_the_same_graph_as_inline(project: Path, tmp_path: Path, indexer_for) -> None:
    from mini_language import mini_languages

    inline = indexer_for(project).refresh()
    copy = tmp_path / "copy"
    for path in project.rglob("*"):
        if path.is_file():
            target = copy / path.relative_to(project)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    pooled = indexer_for(copy, inline_limit=0, workers=2, support_factory=mini_languages, supports=None)
    snapshot = pooled.refresh()
    assert pooled.parses == 5
    assert _pairs(snapshot) == _pairs(inline)


def test_a_symlink_out_of_the_workspace_is_never_read(project: Path, tmp_path: Path, indexer_for) -> None:
    secret = tmp_path / "outside.mini"
    secret.write_text("def secret_symbol\n")
    (project / "leak.mini").symlink_to(secret)
    snapshot = indexer_for(project).refresh()
    assert "leak.mini" not in snapshot.files
    assert "secret_symbol" not in snapshot.symbol_index


def test_renaming_a_definition_moves_the_edges_of_files_that_did_not_change(project: Path, indexer_for) -> None:
    write_files(project, {"app/later.mini": "use helper_two\n"})
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    (project / "lib/util.mini").write_text("def helper_two\ndef unused_thing\n")
    snapshot = indexer.update(snapshot, ["lib/util.mini"])
    assert indexer.parses == 7  # six at the cold build, one now
    names = {n for e in snapshot.successors("app/main.mini") if e.target == "lib/util.mini" for n in e.names}
    assert "helper" not in names
    assert ("app/later.mini", "lib/util.mini") in _pairs(snapshot)
    assert ("lib/models.mini", "lib/util.mini") not in _pairs(snapshot)
    assert _pairs(snapshot) == _pairs(indexer_for(project).refresh())  # same as a fresh look


def test_a_body_only_edit_re_resolves_just_that_file(project: Path, indexer_for) -> None:
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    (project / "lib/models.mini").write_text("def Model\nuse helper\nuse Model\n")
    snapshot = indexer.update(snapshot, ["lib/models.mini"])
    assert indexer.report.resolved == 1
    assert ("lib/models.mini", "lib/util.mini") in _pairs(snapshot)


def test_a_shape_change_shows_the_files_own_edges_before_the_slow_re_resolution(project: Path, indexer_for) -> None:
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    (project / "app/views.mini").write_text("import app/main\nimport lib/util\nuse Model\ndef render\n")
    early: list = []
    final = indexer.update(snapshot, ["app/views.mini"], interim=early.append)
    assert len(early) == 1
    assert ("app/views.mini", "lib/util.mini") in _pairs(early[0])
    assert _pairs(final) == _pairs(indexer_for(project).refresh())


def _in_a_fresh_process(check: str, tmp_path: Path) -> None:
    """Runs a check of fork_checks.py in a new interpreter: the indexer forks only in a process with
    no other thread, and this one may have some (a test that skipped here could never fail)."""
    import subprocess
    import sys

    here = Path(__file__).parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(here), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(here / "fork_checks.py"), check, str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]


def test_forked_resolution_of_a_cold_build_matches_the_serial_one(tmp_path: Path) -> None:
    _in_a_fresh_process("forked_resolution_matches_serial", tmp_path)


def test_a_source_that_turns_binary_loses_its_edges(project: Path, indexer_for) -> None:
    indexer = indexer_for(project)
    snapshot = indexer.refresh()
    assert snapshot.successors("app/views.mini")
    (project / "app/views.mini").write_bytes(b"import app/main\n\0\0binary now")
    snapshot = indexer.update(snapshot, ["app/views.mini"])
    assert snapshot.files["app/views.mini"].note == BINARY
    assert not snapshot.successors("app/views.mini")
    assert not indexer_for(project).refresh().successors("app/views.mini")


SEED = 7


def test_many_incremental_edits_give_the_graph_a_cold_build_gives(tmp_path: Path, indexer_for) -> None:
    import random

    rng = random.Random(SEED)
    root = tmp_path / "churn"
    names = [f"d{i % 3}/f{i}.mini" for i in range(16)]

    def content() -> str:
        lines = [f"def s{rng.randrange(24)}" for _ in range(rng.randrange(0, 3))]
        lines += [f"use s{rng.randrange(24)}" for _ in range(rng.randrange(0, 4))]
        lines += [f"import {rng.choice(names)[:-5]}" for _ in range(rng.randrange(0, 2))]
        return "\n".join(lines) + "\n"

    write_files(root, {name: content() for name in names[:10]})
    indexer = indexer_for(root)
    snapshot = indexer.refresh()
    for _ in range(40):
        name = rng.choice(names)
        if (root / name).exists() and rng.random() < 0.25:
            (root / name).unlink()
        else:
            write_files(root, {name: content()})
        snapshot = indexer.update(snapshot, [name])
    stored = indexer_for(root).refresh()  # a warm start from the store the updates maintained
    fresh = indexer_for(root)
    fresh.store.clear()
    expected = fresh.refresh()
    edges = lambda s: {(e.source, e.target, e.kind, e.names) for es in s.out_edges.values() for e in es}
    assert set(snapshot.files) == set(expected.files) == set(stored.files)
    assert edges(snapshot) == edges(expected) == edges(stored)


def test_a_cold_build_leaves_no_worker_process_or_thread_behind(tmp_path: Path) -> None:
    """The parse workers start before the walk (a cold build): whether the tree then needs them
    (many files) or not (a handful, parsed in-line), none outlives the build, and the forked
    resolution still runs (it needs the process to have no other thread)."""
    _in_a_fresh_process("no_worker_left_behind", tmp_path)
