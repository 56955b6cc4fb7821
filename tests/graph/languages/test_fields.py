"""The fields a grammar always gives, read through languages/fields.py: a node that lacks one
raises MissingField (the file is then marked not parsed), never hands None on."""

from __future__ import annotations

import pytest

from konstruct_tui.graph import treesitter as ts
from konstruct_tui.graph.languages.fields import MissingField, field, name_of, parent


def _function() -> ts.Node:
    root = ts.parse("python", b"def load(path):\n    return path\n").root_node
    function = root.named_children[0]
    assert function.type == "function_definition"
    return function


def test_a_present_field_and_the_node_it_sits_in_are_given() -> None:
    function = _function()
    assert name_of(function) == "load"
    assert ts.text(field(function, "parameters")) == "(path)"
    assert parent(field(function, "name")).type == "function_definition"


def test_a_missing_field_or_parent_raises_missing_field_naming_the_node() -> None:
    function = _function()
    with pytest.raises(MissingField, match="function_definition node without its superclasses"):
        field(function, "superclasses")
    with pytest.raises(MissingField, match="missing node without its name"):
        field(None, "name")
    with pytest.raises(MissingField, match="module node without the node it sits in"):
        parent(parent(function))
    with pytest.raises(MissingField, match="module node without its name"):
        name_of(parent(function))
