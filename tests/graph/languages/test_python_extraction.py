"""Python extraction: what one file defines, imports and uses, read from its bytes alone."""

from __future__ import annotations

import pickle
import textwrap

from konstruct_tui.graph.facts import FileFacts, ImportRef, Symbol
from konstruct_tui.graph.languages import language_for
from konstruct_tui.graph.languages.python import SUPPORT

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
