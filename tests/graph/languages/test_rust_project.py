"""The Rust plugin end to end on a small Cargo workspace (rust_project.FILES): the file graph a
reader of the code would draw, definitions, callers proven by a path and callers that are only a
method name, and neighborhoods."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_helpers import write_files
from rust_project import FILES

from konstruct_tui.graph.answers import NO_REFERENCES, OK, UNDETERMINABLE
from konstruct_tui.graph.export import export_graph
from konstruct_tui.graph.indexer import Indexer
from konstruct_tui.graph.languages import languages
from konstruct_tui.graph.query import GraphQuery
from konstruct_tui.graph.snapshot import GraphSnapshot
from konstruct_tui.graph.store import IndexStore
from konstruct_tui.workspace import Workspace

CORE = "crates/core-lib/src"
APP = "crates/app/src"


def _snapshot(root: Path, files: dict[str, str]) -> GraphSnapshot:
    write_files(root, files)
    supports = {"rust": languages()["rust"]}
    workspace = Workspace(root)
    return Indexer(workspace, IndexStore.for_root(workspace.root, supports), supports=supports).refresh()


@pytest.fixture
def snapshot(tmp_path: Path) -> GraphSnapshot:
    return _snapshot(tmp_path / "rs", FILES)


def _paths(answer) -> list[str]:
    return [r["path"] for r in answer.results]


def test_the_file_graph_follows_mods_uses_and_the_workspace(snapshot: GraphSnapshot) -> None:
    edges = export_graph(snapshot)["edges"]
    # `mod config;` in lib.rs, `mod token;` in parser/mod.rs: a file and a folder module
    assert [f"{CORE}/lib.rs", f"{CORE}/config.rs"] in edges
    assert [f"{CORE}/parser/mod.rs", f"{CORE}/parser/token.rs"] in edges
    # `use super::util::trim` from parser/mod.rs
    assert [f"{CORE}/parser/mod.rs", f"{CORE}/util.rs"] in edges
    # `use core_lib::Parser` in another member (a workspace path dependency), through the `pub use`
    # in lib.rs to the file that defines it
    assert [f"{APP}/cli.rs", f"{CORE}/lib.rs"] in edges
    assert [f"{APP}/cli.rs", f"{CORE}/parser/mod.rs"] in edges
    # `core_lib::load()` written in code, re-exported by a glob `pub use config::*`
    assert [f"{APP}/main.rs", f"{CORE}/config.rs"] in edges
    # std and registry crates have no files here: no edge, no error
    assert all(not b.endswith("Cargo.toml") for _, b in edges)


def test_definitions_name_items_and_methods(snapshot: GraphSnapshot) -> None:
    query = GraphQuery(lambda: snapshot)
    found = query.definitions("Parser.parse").results[0]
    assert (found["path"], found["kind"], found["start_line"]) == (f"{CORE}/parser/mod.rs", "method", 15)
    assert query.definitions("trim").results[0]["path"] == f"{CORE}/util.rs"


def test_a_caller_the_path_names_is_resolved(snapshot: GraphSnapshot) -> None:
    query = GraphQuery(lambda: snapshot)
    answer = query.references("Parser.new")  # `Parser::new()` with `use core_lib::Parser`
    assert answer.status == OK and _paths(answer) == [f"{APP}/main.rs"]
    assert _paths(query.references("trim")) == [f"{CORE}/parser/mod.rs"]


def test_a_method_called_on_a_value_is_undeterminable_never_none(snapshot: GraphSnapshot) -> None:
    # `parser.parse("x")`: nothing infers the receiver's type, so the caller is only possible
    answer = GraphQuery(lambda: snapshot).references("Parser.parse")
    assert answer.status == UNDETERMINABLE
    assert _paths(answer) == [f"{APP}/cli.rs"]


def test_an_item_nothing_names_has_no_references(snapshot: GraphSnapshot) -> None:
    assert GraphQuery(lambda: snapshot).references("Config").status == NO_REFERENCES


def test_a_neighborhood_of_a_rust_file(snapshot: GraphSnapshot) -> None:
    answer = GraphQuery(lambda: snapshot).neighborhood(f"{CORE}/parser/mod.rs")
    assert answer.status == OK and answer.results


def test_a_manifest_that_is_not_toml_leaves_paths_by_module(tmp_path: Path) -> None:
    files = {**FILES, "crates/app/Cargo.toml": "[package\nname = broken"}
    edges = export_graph(_snapshot(tmp_path / "rs", files))["edges"]
    assert [f"{APP}/main.rs", f"{APP}/cli.rs"] in edges  # `mod cli;` needs no manifest
    assert [f"{APP}/cli.rs", f"{CORE}/lib.rs"] not in edges  # the dependency is unknown now


def test_super_and_self_paths_in_nested_modules(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "one"\n',
        "src/lib.rs": "pub mod a;\n",
        "src/a.rs": "pub mod b;\npub fn top() {}\n",
        "src/a/b.rs": "use super::top;\nuse crate::a::b::c::deep;\npub mod c;\npub fn f() { top(); deep(); self::c::deep(); }\n",
        "src/a/b/c.rs": "pub fn deep() { super::super::top(); }\n",
    }
    edges = export_graph(_snapshot(tmp_path / "one", files))["edges"]
    assert ["src/a.rs", "src/a/b.rs"] in edges  # `mod b;` in a non-root file: src/a/b.rs
    assert ["src/a/b.rs", "src/a.rs"] in edges
    assert ["src/a/b.rs", "src/a/b/c.rs"] in edges
    assert ["src/a/b/c.rs", "src/a.rs"] in edges  # super::super::top


def test_a_standard_trait_method_nobody_names_is_undeterminable(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "one"\n',
        "src/lib.rs": "use std::fmt;\n\npub struct Money;\n\nimpl fmt::Display for Money {\n"
                      "    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }\n}\n\n"
                      "impl Money {\n    pub fn unused(&self) {}\n}\n",
    }
    snapshot = _snapshot(tmp_path / "one", files)
    query = GraphQuery(lambda: snapshot)
    # `format!("{}", money)` calls `fmt` without writing its name
    assert query.references("Money.fmt").status == UNDETERMINABLE
    assert query.references("Money.unused").status == NO_REFERENCES
