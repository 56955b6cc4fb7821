"""Go, Java and Rust keep their member facts as typed records: through the index store's edge
(encode, decode) a file's facts come back equal, as the language's record, and the project
resolves to the same edges from the facts the store gave back as from the facts just extracted."""

from __future__ import annotations

from typing import Any

import pytest
from memory_project import MemoryProject
from rust_project import FILES as RUST_FILES

from konstruct_tui.graph.facts import FileFacts
from konstruct_tui.graph.languages import languages
from konstruct_tui.graph.languages.go.member_facts import Chain as GoChain
from konstruct_tui.graph.languages.go.member_facts import GoMemberFacts
from konstruct_tui.graph.languages.go.member_facts import Head as GoHead
from konstruct_tui.graph.languages.go.member_facts import Step as GoStep
from konstruct_tui.graph.languages.go.member_facts import Struct
from konstruct_tui.graph.languages.java.member_facts import Chain, Head, JavaMemberFacts, Signature, Step
from konstruct_tui.graph.languages.rust.member_facts import RustMemberFacts
from konstruct_tui.graph.records import encode_facts, facts_from_json

GO_FILES = {
    "go.mod": "module example.com/shop\n",
    "model/cart.go": """\
        package model

        type Base struct{ ID string }

        type Cart struct {
        \tBase
        \tItems []*Item
        \towner *User
        }

        type Item struct{ Price int }
        type User struct{ Name string }
        type Alias = Cart

        var Default = NewCart()

        func NewCart() *Cart { return &Cart{} }

        func (c *Cart) Owner() *User { return c.owner }
        """,
    "main.go": """\
        package main

        import "example.com/shop/model"

        func run(c *model.Cart, flag bool) {
        \tfor _, it := range c.Items {
        \t\t_ = it.Price
        \t}
        \tx := model.NewCart()
        \tif flag {
        \t\tx := c
        \t\t_ = x.ID
        \t}
        \tgetCart := func() *model.Cart { return c }
        \t_ = getCart().Owner().Name
        \tvar v interface{} = c
        \t_ = v.(*model.Cart).Items
        \t_ = x.Owner().Name
        \t_ = model.Default.Items
        \tys := []*model.Item{}
        \t_ = ys[0].Price
        }

        func twice(a *model.Cart, b bool) {
        \tfor _, a := range []*model.Item{} {
        \t\t_ = a.Price
        \t}
        \t_ = a.Items
        }
        """,
}

JAVA_FILES = {
    "src/shop/Base.java": """\
        package shop;
        class Base {
          public Base touch(int times) { return this; }
          protected Item first;
        }
        """,
    "src/shop/Cart.java": """\
        package shop;
        import java.util.List;
        public class Cart extends Base implements Comparable<Cart> {
          private final List<Item> items;
          Cart(List<Item> items) { this.items = items; }
          public int compareTo(Cart other) { return 0; }
          Item add(Item item, String note) {
            var made = new Item(3, "x");
            Object raw = item;
            ((Item) raw).price();
            items.forEach(i -> i.price());
            items.stream().map(Item::price);
            made.price();
            super.touch(2).touch(1);
            things[0].vanish();
            int p = first.price;
            return new Item(item.price(), note).self();
          }
        }
        """,
    "src/shop/Item.java": """\
        package shop;
        public class Item {
          int price;
          Item(int price, String label) { this.price = price; }
          int price() { return price; }
          Item self() { return this; }
        }
        """,
}


def _through_the_store(facts: FileFacts) -> FileFacts:
    return facts_from_json(encode_facts(facts)[0])


@pytest.mark.parametrize(("language", "files", "record"), [
    ("go", GO_FILES, GoMemberFacts), ("java", JAVA_FILES, JavaMemberFacts), ("rust", RUST_FILES, RustMemberFacts),
])
def test_facts_come_back_from_the_store_unchanged_and_resolve_the_same(
        language: str, files: dict[str, str], record: type) -> None:
    support = languages()[language]
    project = MemoryProject(support, files)
    assert project.facts
    for path, facts in project.facts.items():
        stored = _through_the_store(facts)
        assert isinstance(facts.extra, record) and isinstance(stored.extra, record), path
        assert stored == facts, path
        assert encode_facts(stored) == encode_facts(facts), path  # the same bytes written again
    fresh = _edges(support, project)
    project.facts = {path: _through_the_store(facts) for path, facts in project.facts.items()}
    assert _edges(support, project) == fresh
    assert any(edge[2] == "members" for edge in fresh) or language == "rust"


def _edges(support: Any, project: MemoryProject) -> list[tuple[str, str, str, tuple[str, ...]]]:
    resolver = support.resolver(project)
    return sorted((e.source, e.target, e.kind, e.names) for f in project.facts.values() for e in resolver.resolve(f))


def _go(path: str) -> GoMemberFacts:
    extra = MemoryProject(languages()["go"], GO_FILES).facts[path].extra
    assert isinstance(extra, GoMemberFacts)
    return _through_the_store_extra(extra)


def _through_the_store_extra(extra: Any) -> Any:
    return type(extra).from_json(extra.to_json())


def test_go_chains_are_heads_and_steps_not_strings() -> None:
    cart = _go("model/cart.go")
    assert cart.structs["Cart"] == Struct({"Items": "Item[]", "owner": "User"}, ("Base",))
    assert cart.returns == {"NewCart": "Cart", "Cart.Owner": "User"}
    assert cart.aliases == {"Alias": "Cart"}
    assert cart.globals == {"Default": GoChain(GoHead("call", "NewCart"))}
    main = _go("main.go")
    cart_param = GoChain(GoHead("type", "model.Cart"))
    selectors = {(s.chain, member) for s in main.selectors for member in s.members}
    assert len({s.chain for s in main.selectors}) == len(main.selectors)  # one record per chain
    # `for _, it := range c.Items`: an element of the field
    assert (cart_param.then(GoStep("field", "Items")).then(GoStep("element")), "Price") in selectors
    # `getCart := func() *model.Cart {...}; getCart().Owner()`: the func value's result, then a method's
    assert (GoChain(GoHead("type", "model.Cart"), (GoStep("call", "Owner"),)), "Name") in selectors
    # `model.Default.Items`: an import name, a package-level variable, a field
    assert (GoChain(GoHead("name", "model"), (GoStep("field", "Default"),)), "Items") in selectors
    # `a` a parameter and a loop variable in one function: either binding
    either = [s for s in main.selectors if s.chain.head.kind == "either"]
    assert either and all(len(s.chain.head.either) == 2 for s in either)


def test_java_signatures_and_chains_are_fields() -> None:
    extra = MemoryProject(languages()["java"], JAVA_FILES).facts["src/shop/Cart.java"].extra
    assert isinstance(extra, JavaMemberFacts)
    extra = _through_the_store_extra(extra)
    assert extra.members["Cart"]["<init>"] == (Signature(1, False, "", ("List",)),)
    assert extra.members["Cart"]["items"] == (Signature(-1, False, "List"),)
    assert extra.members["Cart"]["items"][0].is_field
    assert extra.supertypes["Cart"] == ("Base", "Comparable")
    assert extra.public_types == ("Cart",)
    calls = set(extra.calls["Cart"])
    assert Chain(Head("new", "Item", ("?", "String")), (Step("call", "self"),)) in calls
    assert Chain(Head("cast", "Item"), (Step("call", "price"),)) in calls
    assert Chain(Head("super"), (Step("call", "touch", ("#p",)), Step("call", "touch", ("#p",)))) in calls
    assert Chain(Head("name", "items"), (Step("call", "stream"), Step("call", "map", ("λ",)))) in calls
    assert any(step.kind == "reference" and step.name == "price" for chain in calls for step in chain.steps)
    assert extra.inferred["made"] == (Chain(Head("new", "Item", ("#p", "String"))),)
    assert "vanish" in extra.by_name
    base = MemoryProject(languages()["java"], JAVA_FILES).facts["src/shop/Base.java"].extra
    assert isinstance(base, JavaMemberFacts) and base.bridged == {"Base": ("touch",)}


def test_rust_method_calls_are_a_record() -> None:
    facts = MemoryProject(languages()["rust"], RUST_FILES).facts["crates/app/src/cli.rs"]
    assert facts.extra == RustMemberFacts(("parse",))
    assert _through_the_store(facts).extra == RustMemberFacts(("parse",))
