"""Go extraction: what one file defines, imports and uses (pure, no project)."""

from __future__ import annotations

import pickle
import textwrap

from konstruct_tui.graph.facts import FileFacts, ImportRef, Symbol
from konstruct_tui.graph.languages import language_for
from konstruct_tui.graph.records import encode_facts, facts_from_json
from konstruct_tui.graph.languages.go import SUPPORT

SOURCE = textwrap.dedent(
    """\
    package store

    import (
    \t"fmt"
    \tdb "example.com/app/internal/database"
    \t. "example.com/app/internal/testing"
    \t_ "example.com/app/internal/drivers"
    )

    type Store struct {
    \tconn *db.Conn
    }

    type Reader interface{ Read() }

    type ID = string

    const (
    \tLimit = 10
    \tmaxRetry = 3
    )

    var Default = New()

    func New() *Store {
    \tlocal := db.Open(Limit)
    \tfmt.Println(local)
    \treturn &Store{}
    }

    func (s *Store) Get(id ID) Record { return Helper(id) }
    """
)


def extract(path: str, text: str) -> FileFacts:
    return SUPPORT.extract(path, text.encode())


def test_symbols_carry_kinds_receivers_and_line_spans() -> None:
    facts = extract("store/store.go", SOURCE)
    assert facts.package == "store"
    assert facts.language == "go"
    assert set(facts.symbols) == {
        Symbol("Store", "struct", 10, 12),
        Symbol("Reader", "interface", 14, 14),
        Symbol("ID", "type", 16, 16),
        Symbol("Limit", "constant", 19, 19),
        Symbol("maxRetry", "constant", 20, 20),
        Symbol("Default", "variable", 23, 23),
        Symbol("New", "function", 25, 29),
        Symbol("Store.Get", "method", 31, 31),
    }  # `local` is inside a function body


def test_imports_keep_path_alias_and_line() -> None:
    facts = extract("store/store.go", SOURCE)
    assert facts.imports == (
        ImportRef("fmt", (), 4, "import"),
        ImportRef("example.com/app/internal/database", (), 5, "import", alias="db"),
        ImportRef("example.com/app/internal/testing", (), 6, "wildcard", alias="."),
        ImportRef("example.com/app/internal/drivers", (), 7, "import", alias="_"),
    )


def test_uses_hold_bare_names_and_qualified_pairs() -> None:
    facts = extract("store/store.go", SOURCE)
    assert {"db.Conn", "db.Open", "fmt.Println", "Helper", "Record", "Limit", "ID"} <= set(facts.uses)


def test_single_import_raw_string_and_generic_receivers() -> None:
    text = "package q\n\nimport `example.com/m/x`\n\ntype Set[K comparable] map[K]struct{}\n\nfunc (s Set[K]) Has(k K) bool { return x.Ok }\n"
    facts = extract("q/q.go", text)
    assert facts.imports == (ImportRef("example.com/m/x", (), 3, "import"),)
    assert Symbol("Set.Has", "method", 7, 7) in facts.symbols
    assert "x.Ok" in facts.uses


def test_registered_for_go_files_and_facts_pickle() -> None:
    assert language_for("cmd/main.go") is SUPPORT
    facts = extract("store/store.go", SOURCE)
    assert pickle.loads(pickle.dumps(facts)) == facts
    assert facts_from_json(encode_facts(facts)[0]) == facts  # through the index store
