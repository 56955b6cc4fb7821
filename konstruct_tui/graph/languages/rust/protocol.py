"""Rust's protocol methods: those of the standard traits the language and `std` call through
syntax or generic code (`fmt` by `{}`, `drop` at scope end, `next` by `for`, `deref` by `*` and
auto-deref, `eq`/`cmp` by operators, `from` by `?` and `.into()`, ...), never by a path a file writes."""

from __future__ import annotations

from collections.abc import Callable

_TRAIT_METHODS = frozenset({
    "fmt", "drop", "clone", "clone_from", "eq", "ne", "partial_cmp", "cmp", "hash", "next", "next_back",
    "size_hint", "into_iter", "deref", "deref_mut", "index", "index_mut", "from", "try_from", "into",
    "as_ref", "as_mut", "borrow", "borrow_mut", "default", "add", "sub", "mul", "div", "rem", "neg", "not",
    "add_assign", "sub_assign", "mul_assign", "div_assign", "call", "call_mut", "call_once", "poll",
    "from_str", "source", "description", "serialize", "deserialize", "visit_str", "expecting",
})


def runtime_caller(method: str, head: Callable[[], str]) -> str:
    if method in _TRAIT_METHODS:
        return f"{method} is a standard trait's method, which Rust calls through syntax or generic code"
    return ""
