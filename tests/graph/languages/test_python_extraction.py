"""Python extraction: what one file defines, imports and uses, read from its bytes alone."""

from __future__ import annotations

import pickle
import textwrap

from konstruct_tui.graph.facts import ImportRef, Symbol
from konstruct_tui.graph.languages import language_for
from konstruct_tui.graph.languages.python import SUPPORT, query
from konstruct_tui.graph.languages.python.records import (
    DEFERRED,
    SELF,
    Annotation,
    CallOn,
    CallResult,
    Decorated,
    Either,
    Entered,
    Local,
    LocalUse,
    OneOf,
    PythonMemberFacts,
    SameAs,
    SuperCall,
)
from konstruct_tui.graph.records import encode_facts, facts_from_json

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


def test_facts_survive_pickle_and_the_store_edge_unchanged() -> None:
    """Worker processes pickle facts; the index store writes them as JSON and reads them back:
    the typed member record must come out as it went in, field for field."""
    facts = SUPPORT.extract("shop/orders.py", SOURCE.encode())
    assert isinstance(facts.extra, PythonMemberFacts) and facts.extra.types
    assert pickle.loads(pickle.dumps(facts)) == facts
    read = facts_from_json(encode_facts(facts)[0])
    assert read == facts and isinstance(read.extra, PythonMemberFacts)
    for source in (_OVERLOADED, _PER_FUNCTION, _EVERY_KIND):
        typed = SUPPORT.extract("m.py", source.encode())
        assert facts_from_json(encode_facts(typed)[0]).extra == typed.extra


def test_a_file_extracted_without_members_says_so_as_a_state_that_survives_the_store() -> None:
    facts = SUPPORT.extract("shop/orders.py", SOURCE.encode(), members=False)
    assert facts.extra == DEFERRED and facts.extra.deferred
    assert facts_from_json(encode_facts(facts)[0]).extra == DEFERRED
    # a file with no member facts at all is not a deferred one
    empty = SUPPORT.extract("e.py", b"x = 1\n")
    assert isinstance(empty.extra, PythonMemberFacts) and not empty.extra.deferred
    assert facts_from_json(encode_facts(empty)[0]).extra == empty.extra


_EVERY_KIND = textwrap.dedent('''\
    from typing import Optional, Self
    from . import mod

    class Client(mod.Base, Mixin):
        def __enter__(self) -> Self:
            return self

        def load(self):
            return super().load()

    def make(flag) -> Optional[Client | mod.Other]:
        c = Client() if flag else mod.make_client()
        with Client() as entered:
            entered.send()
        same = c
        return same

    @mod.group
    def command():
        pass

    def runs(runner: Runner):
        runner.invoke()

    def other():
        runner = make_runner()
        runner.invoke().result
        Client().pool().get().close()
    ''')


def test_a_constructor_call_is_a_record_with_its_callee_not_a_string() -> None:
    """`c = Client()` is a `CallResult` naming the class it calls; `with`, `super()`, bases and
    names told apart per function are fields too, never a syntax packed into a string."""
    facts = SUPPORT.extract("m.py", _EVERY_KIND.encode()).extra
    assert isinstance(facts, PythonMemberFacts)
    assert facts.types["entered"] == (Entered(CallResult("Client"), "__enter__"),)
    assert facts.bases["Client"] == ("mod.Base", "Mixin")
    assert facts.returns["make"] == OneOf((Annotation("Client"), Annotation("mod.Other")))
    assert facts.returns["Client.__enter__"] == SELF
    assert facts.types["c"] == (Either((CallResult("Client"), CallResult("mod.make_client"))),)
    assert facts.types["same"] == (SameAs("c"),) and facts.types["command"] == (Decorated("mod.group"),)
    assert facts.supers == (SuperCall("Client", "load"),)
    other = _EVERY_KIND.index("def other")
    assert facts.types[Local("runner", other)] == (CallResult("make_runner"),)
    assert facts.types[Local("runner", _EVERY_KIND.index("def runs"))] == (Annotation("Runner"),)
    assert facts.told_apart == ("runner",)
    assert LocalUse("runner.invoke", other) in facts.local
    assert CallOn("runner.invoke", other, "result") in facts.calls
    chain = [c for c in facts.chains if c.links[0] == ("Client", True)][0]
    assert chain.links == (("Client", True), ("pool", True), ("get", False))  # `.close()` walked from it
    # nowhere in the record is there a string of our own syntax ("Client()", "=c", "a>b", "x@12")
    for text in _strings(facts):
        assert not any(mark in text for mark in ("(", "=", ">", "@", "^", "|")), text


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
    assert facts.returns["Box.get"] == Annotation("Value")
    assert facts.returns["Box.Inner.get"] == Annotation("Inner") and facts.bases["Box.Inner"] == ("Base", "mixins.Sized")
    assert member_facts(shuffled, False) == facts
    # The byte-range scope table (error-free trees) answers as the walk up the tree does.
    assert member_facts(groups, True) == facts
    assert facts.types["self.kept"] == (Annotation("Box"),) and facts.types["self.size"] == (Annotation("int"),)
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
    extra = facts.extra
    assert isinstance(extra, PythonMemberFacts)
    assert extra.told_apart == ("runner",)
    check = _PER_FUNCTION.index("def check")
    inner = _PER_FUNCTION.index("def inner")
    outer = _PER_FUNCTION.index("def outer")
    types = extra.types
    assert types[Local("runner", check)] == (CallResult("CliRunner"),) and types["runner"] == (CallResult("CliRunner"),)
    assert types[Local("runner", inner)] == (CallResult("make"),)
    # `runner` in `other` (no binding of its own, inside class Case) is outer's untyped parameter
    assert set(extra.local) == {LocalUse("runner.invoke", None), LocalUse("runner.invoke", check),
                                LocalUse("runner.invoke", outer), LocalUse("runner.result", inner),
                                LocalUse("runner.result.value", inner)}


def _strings(value: object) -> list[str]:
    """Every string in a record, however deep."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple):
        return [text for item in value for text in _strings(item)]
    if isinstance(value, dict):
        return [text for pair in value.items() for text in _strings(pair)]
    slots = getattr(type(value), "__slots__", ())
    return [text for name in slots for text in _strings(getattr(value, name))]
