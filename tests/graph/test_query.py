"""The query facade: every status, and the answers the traverse_graph modes are built on."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_helpers import write_files

from konstruct_tui.graph.answers import (
    NO_REFERENCES,
    NOT_INDEXED,
    OK,
    UNDETERMINABLE,
    UNSUPPORTED_LANGUAGE,
    GraphAnswer,
)
from konstruct_tui.graph.extraction import MAX_PARSE_BYTES
from konstruct_tui.graph.query import GraphQuery


@pytest.fixture
def query(project: Path, indexer_for) -> GraphQuery:
    write_files(project, {
        "cyc/a.mini": "import cyc/b\ndef a\n",
        "cyc/b.mini": "import cyc/c\ndef b\n",
        "cyc/c.mini": "import cyc/a\ndef c\n",
        "docs/guide.txt": "text\n",
        "big.mini": "def huge\n" + "x" * (MAX_PARSE_BYTES + 1),
    })
    snapshot = indexer_for(project).refresh()
    return GraphQuery(lambda: snapshot)


def _paths(answer: GraphAnswer) -> list[str]:
    return [r["path"] for r in answer.results]


def test_dependents_nearest_first_and_transitive(query: GraphQuery) -> None:
    direct = query.dependents("lib/util.mini")
    assert direct.status == OK
    assert _paths(direct) == ["app/main.mini", "lib/models.mini", "tests/test_util.mini"]
    deep = query.dependents("lib/util.mini", depth=3)
    assert [(r["path"], r["distance"]) for r in deep.results][-1] == ("app/views.mini", 2)
    limited = query.dependents("lib/util.mini", depth=3, limit=2)
    assert limited.truncated and len(limited.results) == 2


def test_a_folder_target_reports_only_files_outside_it(query: GraphQuery) -> None:
    answer = query.dependents("lib", depth=10)
    assert set(_paths(answer)) == {"app/main.mini", "app/views.mini", "tests/test_util.mini"}
    assert query.dependencies("app/views.mini").status == OK


def test_definitions_and_references_of_a_symbol(query: GraphQuery) -> None:
    defined = query.definitions("helper")
    assert [(r["path"], r["kind"], r["start_line"]) for r in defined.results] == [("lib/util.mini", "function", 1)]
    callers = query.references("helper")
    assert _paths(callers) == ["app/main.mini", "lib/models.mini", "tests/test_util.mini"]


def test_no_references_for_a_symbol_nothing_else_uses(query: GraphQuery) -> None:
    answer = query.references("unused_thing")
    assert answer.status == NO_REFERENCES and answer.results == ()
    assert "lib/util.mini" in answer.reason
    assert query.dependents("app/views.mini").status == NO_REFERENCES


def test_not_indexed_for_unknown_files_and_symbols(query: GraphQuery) -> None:
    assert query.dependents("nope/missing.mini").status == NOT_INDEXED
    assert query.definitions("no_such_symbol").status == NOT_INDEXED
    assert query.references("no_such_symbol").status == NOT_INDEXED


def test_unsupported_language_for_text_files_and_text_folders(query: GraphQuery) -> None:
    for answer in (query.dependents("README.md"), query.dependencies("docs"), query.neighborhood("docs/guide.txt")):
        assert answer.status == UNSUPPORTED_LANGUAGE
        assert answer.results == () and answer.reason


def test_undeterminable_without_a_snapshot_or_for_an_unparsed_file(query: GraphQuery) -> None:
    assert GraphQuery(lambda: None).dependents("lib/util.mini").status == UNDETERMINABLE
    big = query.dependents("big.mini")
    assert big.status == UNDETERMINABLE and "too large" in big.reason


def test_shortest_path_and_no_path(query: GraphQuery) -> None:
    found = query.shortest_paths("app/views.mini", "lib/util.mini")
    assert found.status == OK
    assert [r["path"] for r in found.results] == [
        ["app/views.mini", "app/main.mini", "lib/util.mini"], ["app/views.mini", "lib/models.mini", "lib/util.mini"],
    ]
    assert query.shortest_paths("lib/util.mini", "app/views.mini").status == NO_REFERENCES


def test_cycles_through_a_file_and_a_folder(query: GraphQuery) -> None:
    answer = query.cycles("cyc/b.mini")
    assert [r["cycle"] for r in answer.results] == [["cyc/a.mini", "cyc/b.mini", "cyc/c.mini", "cyc/a.mini"]]
    assert query.cycles("cyc").results == answer.results
    none = query.cycles("lib/util.mini")
    assert none.status == OK and none.results == () and "no imports cycle" in none.reason


def test_tests_reaching_a_file(query: GraphQuery) -> None:
    assert _paths(query.tests_reaching("lib/util.mini")) == ["tests/test_util.mini"]
    assert query.tests_reaching("app/views.mini").status == NO_REFERENCES


def test_unreferenced_files_and_symbols(query: GraphQuery) -> None:
    found = {(r["path"], r.get("symbol")) for r in query.unreferenced("lib").results}
    assert ("lib/util.mini", "unused_thing") in found
    assert ("lib/util.mini", "helper") not in found
    assert ("lib/models.mini", None) not in found  # app files use Model
    views = {(r["path"], r.get("symbol")) for r in query.unreferenced("app").results}
    assert ("app/views.mini", None) in views and ("app/views.mini", "render") in views


def test_neighborhood_of_a_file(query: GraphQuery) -> None:
    answer = query.neighborhood("lib/util.mini")
    assert answer.status == OK
    assert "lib/util.mini" in answer.results[0]["members"]
    assert query.neighborhood("big.mini").status == UNDETERMINABLE


def test_answers_serialize_with_every_trust_field(query: GraphQuery) -> None:
    data = query.dependents("lib/util.mini").to_json()
    assert set(data) >= {"status", "results", "truncated", "stale", "ahead_of_index"}
    with pytest.raises(ValueError):
        GraphAnswer("empty")


def test_targets_are_read_in_any_relative_spelling(query: GraphQuery) -> None:
    plain = query.dependents("lib/util.mini")
    for spelling in ("./lib/util.mini", "lib//util.mini", "app/../lib/util.mini", " lib/util.mini "):
        assert query.dependents(spelling).results == plain.results
    assert query.dependents("lib/").results == query.dependents("lib").results
    assert query.dependents("/etc/passwd").status == NOT_INDEXED
