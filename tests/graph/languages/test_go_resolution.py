"""Go resolution: which project files an import or a use depends on, one rule per test, each asserting
the exact edge set on a small module shaped like real ones.

Lifted to directories the edges match `go list`'s package imports (the reference the graph is
measured against); at file level they point at the file that defines each used name.
"""

from __future__ import annotations

from memory_project import edge_pairs, edges_from

from konstruct_tui.graph.facts import Edge
from konstruct_tui.graph.languages.go import SUPPORT

GO_MOD = "module example.com/shop\n\ngo 1.22\n\nrequire github.com/google/uuid v1.6.0\n"


def edges(files: dict[str, str], kind: str = "imports", **options: bool) -> set[tuple[str, str]]:
    return edge_pairs(SUPPORT, files, kind, **options)


def edges_of(files: dict[str, str], path: str, **options: bool) -> list[Edge]:
    return edges_from(SUPPORT, files, path, **options)


def test_qualified_uses_point_at_the_file_defining_each_name() -> None:
    files = {
        "go.mod": GO_MOD,
        "cart/cart.go": "package cart\n\ntype Cart struct{}\n",
        "cart/total.go": "package cart\n\nfunc Total(c Cart) int { return 0 }\n",
        "cart/unused.go": "package cart\n\nfunc Unused() {}\n",
        "main.go": """\
            package main

            import (
                "fmt"
                "example.com/shop/cart"
                "github.com/google/uuid"
            )

            func main() { var c cart.Cart; fmt.Println(cart.Total(c), uuid.New()) }
            """,
    }
    assert edges_of(files, "main.go") == [
        Edge("main.go", "cart/cart.go", "imports", ("Cart",)),
        Edge("main.go", "cart/cart.go", "references", ("Cart",)),
        Edge("main.go", "cart/total.go", "imports", ("Total",)),
        Edge("main.go", "cart/total.go", "references", ("Total",)),
    ]


def test_aliased_dot_and_blank_imports() -> None:
    files = {
        "go.mod": GO_MOD,
        "internal/db/db.go": "package db\n\nfunc Open() {}\n",
        "internal/db/conn.go": "package db\n\ntype Conn struct{}\n",
        "internal/match/match.go": "package match\n\nfunc Equal() {}\n",
        "internal/drivers/doc.go": "package drivers\n",
        "internal/drivers/sqlite.go": "package drivers\n\nfunc init() {}\n",
        "app/app.go": """\
            package app

            import (
                store "example.com/shop/internal/db"
                . "example.com/shop/internal/match"
                _ "example.com/shop/internal/drivers"
            )

            func Run() { var c store.Conn; _ = c; Equal() }
            """,
    }
    assert edges(files) == {
        ("app/app.go", "internal/db/conn.go"),
        ("app/app.go", "internal/match/match.go"),
        ("app/app.go", "internal/drivers/doc.go"),  # nothing named: the package's doc file stands for it
    }


def test_same_package_references_need_no_import() -> None:
    files = {
        "go.mod": GO_MOD,
        "cart/cart.go": "package cart\n\ntype Cart struct{ items []Item }\n\nfunc New() *Cart { return &Cart{} }\n",
        "cart/item.go": "package cart\n\ntype Item struct{}\n\nfunc (c *Cart) Add(i Item) { c.items = append(c.items, i) }\n",
        "cart/cart_test.go": "package cart\n\nfunc TestAdd() { New().Add(fixture()) }\n",
        "cart/fixtures_test.go": "package cart\n\nfunc fixture() Item { return Item{} }\n",
    }
    assert edges(files, "references") == {
        ("cart/cart.go", "cart/item.go"),
        ("cart/item.go", "cart/cart.go"),
        ("cart/cart_test.go", "cart/cart.go"),
        ("cart/cart_test.go", "cart/fixtures_test.go"),
        ("cart/fixtures_test.go", "cart/item.go"),
    }
    assert edges(files) == set()


def test_external_test_package_imports_the_package_under_test() -> None:
    files = {
        "go.mod": GO_MOD,
        "cart/cart.go": "package cart\n\nfunc New() {}\n",
        "cart/helper_test.go": "package cart\n\nfunc helper() {}\n",
        "cart/cart_test.go": 'package cart_test\n\nimport "example.com/shop/cart"\n\nfunc TestNew() { cart.New(); helper() }\n',
    }
    assert edges_of(files, "cart/cart_test.go") == [
        Edge("cart/cart_test.go", "cart/cart.go", "imports", ("New",)),
        Edge("cart/cart_test.go", "cart/cart.go", "references", ("New",)),
    ]  # `helper` belongs to package cart, not cart_test: no edge


def test_nested_modules_and_local_replace_directives() -> None:
    files = {
        "go.mod": GO_MOD + "\nreplace example.com/vendored/log => ./third_party/log\n",
        "tools/go.mod": "module example.com/shop/tools\n\nrequire example.com/shop v0.0.0\n",
        "tools/gen/gen.go": 'package gen\n\nimport "example.com/shop/cart"\n\nvar _ = cart.New\n',
        "tools/cmd/main.go": 'package main\n\nimport "example.com/shop/tools/gen"\n\nvar _ = gen.Run\n',
        "tools/gen/run.go": "package gen\n\nfunc Run() {}\n",
        "cart/cart.go": 'package cart\n\nimport "example.com/vendored/log"\n\nfunc New() { log.Print() }\n',
        "third_party/log/log.go": "package log\n\nfunc Print() {}\n",
    }
    assert edges(files) == {
        ("tools/gen/gen.go", "cart/cart.go"),
        ("tools/cmd/main.go", "tools/gen/run.go"),
        ("cart/cart.go", "third_party/log/log.go"),
    }


def test_stdlib_and_other_modules_are_external() -> None:
    files = {
        "go.mod": GO_MOD,
        "main.go": 'package main\n\nimport (\n\t"net/http"\n\t"github.com/google/uuid"\n\t"example.com/shop/missing"\n)\n\nfunc main() { http.Get(uuid.New()) }\n',
    }
    assert edges(files) == set()
    assert edges(files, "references") == set()


def test_build_tagged_variants_are_all_referenced() -> None:
    files = {
        "go.mod": GO_MOD,
        "term/term_unix.go": "//go:build unix\n\npackage term\n\nfunc Size() int { return 80 }\n",
        "term/term_windows.go": "//go:build windows\n\npackage term\n\nfunc Size() int { return 120 }\n",
        "term/width.go": "package term\n\nfunc Width() int { return Size() }\n",
    }
    assert edges(files, "references") == {
        ("term/width.go", "term/term_unix.go"),
        ("term/width.go", "term/term_windows.go"),
    }


def test_without_go_mod_import_paths_match_directory_suffixes() -> None:
    files = {
        "pkg/util/strings.go": "package util\n\nfunc Reverse() {}\n",
        "cmd/tool/main.go": 'package main\n\nimport "github.com/acme/tool/pkg/util"\n\nfunc main() { util.Reverse() }\n',
        "json/json.go": "package json\n\nfunc Marshal() {}\n",
        "cmd/tool/out.go": 'package main\n\nimport "encoding/json"\n\nvar _ = json.Marshal\n',
    }
    assert edges(files) == {("cmd/tool/main.go", "pkg/util/strings.go")}


def test_package_name_differing_from_directory_is_the_qualifier() -> None:
    files = {
        "go.mod": GO_MOD,
        "api/v2/client.go": "package client\n\nfunc Dial() {}\n",
        "main.go": 'package main\n\nimport "example.com/shop/api/v2"\n\nfunc main() { client.Dial() }\n',
    }
    assert edges_of(files, "main.go") == [
        Edge("main.go", "api/v2/client.go", "imports", ("Dial",)),
        Edge("main.go", "api/v2/client.go", "references", ("Dial",)),
    ]
