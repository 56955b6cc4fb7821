"""A small Go module on disk, through `konstruct graph export` as a user runs it, at file and at
directory level (the level `go list` compares with)."""

from __future__ import annotations

from pathlib import Path

FILES = {
    "go.mod": "module example.com/shop\n\ngo 1.22\n",
    "main.go": 'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/shop/cart"\n)\n\nfunc main() { fmt.Println(cart.New()) }\n',
    "cart/cart.go": "package cart\n\ntype Cart struct{ lines []Line }\n\nfunc New() *Cart { return &Cart{} }\n",
    "cart/line.go": 'package cart\n\nimport "example.com/shop/internal/money"\n\ntype Line struct{ Price money.Cents }\n',
    "cart/cart_test.go": 'package cart_test\n\nimport (\n\t"testing"\n\n\t"example.com/shop/cart"\n)\n\n'
    "func TestNew(t *testing.T) { _ = cart.New() }\n",
    "internal/money/money.go": "package money\n\ntype Cents int64\n",
    "internal/money/doc.go": "// Package money counts in cents.\npackage money\n",
}


def write(root: Path) -> None:
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_export_lists_the_resolved_go_graph(tmp_path: Path, konstruct) -> None:
    write(tmp_path)
    code, data, err = konstruct("graph", "export", "--root", str(tmp_path), "--format", "json")
    assert code == 0, err
    assert data["edges"] == [
        ["cart/cart.go", "cart/line.go"],
        ["cart/cart_test.go", "cart/cart.go"],
        ["cart/line.go", "internal/money/money.go"],
        ["main.go", "cart/cart.go"],
    ]
    code, data, err = konstruct(
        "graph", "export", "--root", str(tmp_path), "--level", "directory", "--format", "json"
    )
    assert code == 0, err
    assert data == {"nodes": [".", "cart", "internal/money"], "edges": [[".", "cart"], ["cart", "internal/money"]]}
