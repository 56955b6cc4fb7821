"""Markdown written by someone else (the model), rendered with every token neutralised after
parsing (see `untrusted.py`). Its own module: markdown_it and the syntax highlighter load with the
first reply, after the first frame."""

from __future__ import annotations

from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from textual.widgets import Markdown

from ..untrusted_text import neutralise


def _neutralise_tokens(tokens: list[Token]) -> None:
    for token in tokens:
        token.content = neutralise(token.content)
        token.info = neutralise(token.info)
        if token.attrs:
            token.attrs = {name: neutralise(value) if isinstance(value, str) else value for name, value in token.attrs.items()}
        if token.children:
            _neutralise_tokens(token.children)


def _neutralise_rule(state: StateCore) -> None:
    _neutralise_tokens(state.tokens)


def untrusted_parser() -> MarkdownIt:
    """Textual's own "gfm-like" parser, with one last core rule: after inline parsing (references
    decoded, links resolved), every token's text, fence info and attributes are neutralised."""
    parser = MarkdownIt("gfm-like")
    parser.core.ruler.push("neutralise", _neutralise_rule)
    return parser


class UntrustedMarkdown(Markdown):
    """Markdown written by someone else (the model): rendered, but no control reaches the terminal."""

    def __init__(self, markdown: str | None = None, **kwargs: Any) -> None:
        super().__init__(markdown, parser_factory=untrusted_parser, **kwargs)
