"""Python extraction: what one file defines, imports and uses, read from its bytes alone."""

from __future__ import annotations

import pickle
import textwrap

from konstruct_tui.graph.facts import FileFacts, ImportRef, Symbol
from konstruct_tui.graph.languages import language_for
from konstruct_tui.graph.languages.python import SUPPORT, query

SOURCE = textwrap.dedent(
    '''\
    """Orders."""
    from __future__ import annotations

    import os.path as osp, json
    from typing import TYPE_CHECKING
    from . import models
    from ..billing.tax import rate as tax_rate, Region
    from .util import *

    if TYPE_CHECKING:
        from shop.cart import Cart

    MAX_ITEMS = 50
    default_region = Region("eu")
    type OrderId = int


    @dataclass
    class Order:
        currency = "EUR"

        def total(self, cart: Cart) -> float:
            import decimal

            def rounded(x):
                local_value = decimal.Decimal(x)
                return local_value

            return rounded(tax_rate(self.currency) * cart.sum(limit=MAX_ITEMS))


    def load(path):
        return json.loads(osp.join(path, "x").read_text())
    '''
)


def test_symbols_have_qualified_names_kinds_and_line_spans() -> None:
    facts = SUPPORT.extract("shop/orders.py", SOURCE.encode())
    assert facts.symbols == (
        Symbol("MAX_ITEMS", "constant", 13, 13),
        Symbol("default_region", "variable", 14, 14),
        Symbol("OrderId", "type", 15, 15),
        Symbol("Order", "class", 18, 29),  # the span starts at the decorator
        Symbol("Order.currency", "attribute", 20, 20),
        Symbol("Order.total", "method", 22, 29),
        Symbol("Order.total.rounded", "function", 25, 27),
        Symbol("load", "function", 32, 33),
    )


def test_imports_keep_level_names_aliases_and_nested_or_type_checking_ones() -> None:
    facts = SUPPORT.extract("shop/orders.py", SOURCE.encode())
    assert facts.imports == (
        ImportRef("json", (), 4, "import"),
        ImportRef("os.path", (), 4, "import", 0, "osp"),
        ImportRef("typing", ("TYPE_CHECKING",), 5, "from"),
        ImportRef("", ("models",), 6, "from", 1),
        ImportRef("billing.tax", ("Region",), 7, "from", 2),
        ImportRef("billing.tax", ("rate",), 7, "from", 2, "tax_rate"),
        ImportRef("util", ("*",), 8, "wildcard", 1),
        ImportRef("shop.cart", ("Cart",), 11, "from"),
        ImportRef("decimal", (), 23, "import"),
    )


def test_uses_are_names_and_dotted_paths_but_not_members_keywords_or_import_words() -> None:
    uses = set(SUPPORT.extract("shop/orders.py", SOURCE.encode()).uses)
    assert {
        "Region",
        "tax_rate",
        "Cart",
        "MAX_ITEMS",
        "osp",
        "json",
        "osp.join",
        "decimal.Decimal",
        "json.loads",
    } <= uses
    assert "self.currency" in uses and "cart.sum" in uses
    # `.sum` after a dot, `limit=` and the words of the import statements are not uses.
    assert not {"sum", "limit", "rate", "billing", "tax", "read_text"} & uses


def test_facts_survive_pickle_and_json_round_trips() -> None:
    facts = SUPPORT.extract("shop/orders.py", SOURCE.encode())
    assert pickle.loads(pickle.dumps(facts)) == facts
    assert FileFacts.from_json(facts.to_json()) == facts


def test_broken_source_still_yields_what_parses() -> None:
    facts = SUPPORT.extract("bad.py", b"import os\ndef broken(:\n    pass\nclass Fine:\n    pass\n")
    assert ImportRef("os", (), 1, "import") in facts.imports
    assert any(s.name == "Fine" and s.kind == "class" for s in facts.symbols)


def test_py_and_pyi_files_are_python() -> None:
    assert language_for("pkg/mod.py") is SUPPORT
    assert language_for("pkg/mod.pyi") is SUPPORT


_OVERLOADED = textwrap.dedent('''\
    from typing import overload

    class Box:
        size: int = 0

        class Inner(Base, mixins.Sized):
            def get(self) -> "Inner":
                self.kept: Box = Box()
                return self

        @overload
        def get(self, key: int) -> int: ...
        @overload
        def get(self, key: str) -> str: ...
        def get(self, key) -> Value:
            result = make_value(key)
            return result

    def build(factory: Factory) -> Box:
        box = Box()
        return box
    ''')


def test_member_facts_do_not_depend_on_the_order_captures_come_in() -> None:
    """tree-sitter promises no order within a capture name, and it did vary from run to run: the
    last of several definitions (the real one after its `@overload`s) must count, every time."""
    from konstruct_tui.graph import treesitter as ts
    from konstruct_tui.graph.languages.python.members import member_facts

    tree = ts.parse("python", _OVERLOADED.encode())
    groups = ts.captures(query(members=True), tree.root_node)
    shuffled = {name: list(reversed(nodes)) for name, nodes in groups.items()}
    facts = member_facts(groups, tree.root_node.has_error)
    assert facts["returns"]["Box.get"] == "Value"
    assert facts["returns"]["Box.Inner.get"] == "Inner" and facts["bases"]["Box.Inner"] == ["Base", "mixins.Sized"]
    assert member_facts(shuffled, False) == facts
    # The byte-range scope table (error-free trees) answers as the walk up the tree does.
    assert member_facts(groups, True) == facts
    assert facts["types"]["self.kept"] == ["Box"] and facts["types"]["self.size"] == ["int"]
    assert SUPPORT.extract("m.py", _OVERLOADED.encode()).extra == facts


_PER_FUNCTION = textwrap.dedent('''\
    from click.testing import CliRunner

    def outer(runner):
        class Case:
            def check(self):
                runner = CliRunner()
                runner.invoke()

            def other(self):
                runner.invoke()

        def inner():
            runner = make()
            return runner.result.value

        return runner.invoke()

    runner = CliRunner()
    runner.invoke()
    ''')


def test_names_bound_per_function_are_placed_alike_by_the_scope_table_and_the_tree_walk() -> None:
    """Error-free trees place a name's bindings and uses with the byte-range scope table the
    symbol sweep builds (classes between functions stepped over); a tree with errors walks up the
    tree. Both must tell the same functions apart."""
    from konstruct_tui.graph import treesitter as ts
    from konstruct_tui.graph.languages.python.members import member_facts

    facts = SUPPORT.extract("t.py", _PER_FUNCTION.encode())
    tree = ts.parse("python", _PER_FUNCTION.encode())
    groups = ts.captures(query(members=True), tree.root_node)
    assert not tree.root_node.has_error
    assert facts.extra == member_facts(groups, True) == member_facts(groups, False)
    local = facts.extra["local"]
    assert local["heads"] == ["runner"]
    check = _PER_FUNCTION.index("def check")
    inner = _PER_FUNCTION.index("def inner")
    outer = _PER_FUNCTION.index("def outer")
    assert facts.extra["types"][f"runner@{check}"] == ["CliRunner()"] and facts.extra["types"]["runner"] == ["CliRunner()"]
    assert facts.extra["types"][f"runner@{inner}"] == ["make()"]
    # `runner` in `other` (no binding of its own, inside class Case) is outer's untyped parameter
    assert sorted(local["uses"]) == sorted(["runner.invoke", f"runner@{check}.invoke", f"runner@{outer}.invoke",
                                            f"runner@{inner}.result", f"runner@{inner}.result.value"])
