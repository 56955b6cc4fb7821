"""Neighborhoods: deterministic clusters with readable names and bridges, ranked against a request."""

from __future__ import annotations

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
