"""Java extraction: what one file declares, imports and uses, read from its bytes alone."""

from __future__ import annotations

import pickle
import textwrap

from konstruct_tui.graph.facts import FileFacts, ImportRef, Symbol
from konstruct_tui.graph.languages import language_for
from konstruct_tui.graph.records import encode_facts, facts_from_json
from konstruct_tui.graph.languages.java import SUPPORT
from konstruct_tui.graph.languages.java.member_facts import PRIMITIVE, Chain, Head, JavaMemberFacts, Signature, Step

SOURCE = textwrap.dedent(
    """\
    package com.acme.shop;

    import java.util.List;
    import java.util.*;
    import static org.junit.Assert.assertEquals;
    import static com.acme.util.Strings.*;
    import com.acme.model.Order.Line;

    /** Carts. {@link Ignored} */
    @Service
    public class Cart<T extends Item> extends Base implements Iterable<T> {
        public static final int MAX = 10;
        private final List<Order> orders = new java.util.ArrayList<>(), extra;

        public Cart(int size) {
            super();
        }

        static class Entry {
            void touch() {}
        }

        enum Color { RED, GREEN }

        record Point(int x, int y) {}

        public Money total(com.acme.model.Price price) {
            return Helper.sum(price, Money.ZERO);
        }
    }

    interface Priced {
        int LIMIT = 3;
        Money price();
    }
    """
)


def test_package_and_imports_of_every_kind() -> None:
    facts = SUPPORT.extract("src/main/java/com/acme/shop/Cart.java", SOURCE.encode())
    assert facts.package == "com.acme.shop"
    assert facts.imports == (
        ImportRef("java.util.List", (), 3, "import"),
        ImportRef("java.util", ("*",), 4, "wildcard"),
        ImportRef("org.junit.Assert", ("assertEquals",), 5, "static"),
        ImportRef("com.acme.util.Strings", ("*",), 6, "static"),
        ImportRef("com.acme.model.Order.Line", (), 7, "import"),
    )


def test_symbols_have_qualified_names_kinds_and_line_spans() -> None:
    facts = SUPPORT.extract("Cart.java", SOURCE.encode())
    assert facts.symbols == (
        Symbol("Cart", "class", 10, 30),  # the span starts at the annotation, not the javadoc
        Symbol("Cart.MAX", "constant", 12, 12),
        Symbol("Cart.orders", "field", 13, 13),
        Symbol("Cart.extra", "field", 13, 13),
        Symbol("Cart.Cart", "constructor", 15, 17),
        Symbol("Cart.Entry", "class", 19, 21),
        Symbol("Cart.Entry.touch", "method", 20, 20),
        Symbol("Cart.Color", "enum", 23, 23),
        Symbol("Cart.Color.RED", "constant", 23, 23),
        Symbol("Cart.Color.GREEN", "constant", 23, 23),
        Symbol("Cart.Point", "record", 25, 25),
        Symbol("Cart.total", "method", 27, 29),
        Symbol("Priced", "interface", 32, 35),
        Symbol("Priced.LIMIT", "constant", 33, 33),
        Symbol("Priced.price", "method", 34, 34),
    )


def test_uses_are_identifiers_type_names_and_dotted_paths_written_in_code() -> None:
    uses = set(SUPPORT.extract("Cart.java", SOURCE.encode()).uses)
    assert {"Order", "Money", "Helper", "Item", "Base", "Iterable", "Service", "Money.ZERO", "sum", "price"} <= uses
    assert {"java.util.ArrayList", "com.acme.model.Price"} <= uses
    # Javadoc and the package and import lines are not uses.
    assert not {"Ignored", "assertEquals", "Strings", "Line"} & uses


def test_signatures_and_calls_are_kept_for_descriptor_dependencies() -> None:
    extra = SUPPORT.extract("Cart.java", SOURCE.encode()).extra
    assert isinstance(extra, JavaMemberFacts)
    assert extra.members["Cart"]["total"] == (Signature(1, False, "Money", ("com.acme.model.Price",)),)
    assert extra.members["Cart"]["<init>"] == (Signature(1, False, "", (PRIMITIVE,)),)
    assert extra.supertypes["Cart"] == ("Base", "Iterable")
    assert extra.variables["price"] == ("com.acme.model.Price",)
    # `Helper.sum(price, x)`: the call's arguments are two, the first a Price
    assert Chain(Head("name", "Helper"), (Step("call", "sum", ("com.acme.model.Price", "?")),)) in extra.calls["Cart"]


def test_facts_survive_pickle_and_json_round_trips() -> None:
    facts = SUPPORT.extract("Cart.java", SOURCE.encode())
    assert pickle.loads(pickle.dumps(facts)) == facts
    assert facts_from_json(encode_facts(facts)[0]) == facts  # through the index store


def test_java_files_are_java() -> None:
    assert language_for("src/main/java/a/B.java") is SUPPORT
