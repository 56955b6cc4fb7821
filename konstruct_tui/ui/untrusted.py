"""Untrusted text on the screen: shown with its controls as visible escapes, never obeyed.

Three pieces, from the call site to the last line of defence:

- `plain(text)`: text for console markup, escaped and neutralised (a file name, a command, an error).
- `UntrustedMarkdown`: a Markdown widget whose parser neutralises every token after parsing, so a
  character reference (`&#x202e;`, `&rlm;`) that Markdown decodes is caught too, and so is a control
  in a code fence or a link's URL.
- `TerminalGuard`: a line filter over everything the app draws. It removes any hazard that still
  reaches a line (a call site nobody wrapped): all of them are zero cells wide, so removing them
  keeps the layout. Rich strips BEL, CR and a few others, but passes ESC and the C1 controls
  through to the terminal: this filter is what stops an OSC 52 that some widget forgot.
"""

from __future__ import annotations

from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter
from textual.widgets import Markdown

from ..untrusted_text import has_hazards, neutralise, without_hazards


def plain(text: str, *, keep_layout: bool = True) -> str:
    """Untrusted text as console markup that shows it literally. Every `[` is escaped: Textual's
    `escape` leaves a `[` that does not start like a tag (`[2J`), and its markup parser then reads
    on to the next `]` and fails on the closing tag after it (a file name could crash the prompt).
    A backslash escapes only the `[` right after it, so the backslashes before stay as they are;
    but a trailing backslash would escape the caller's closing tag, and markup has no spelling for a
    literal one there: a word joiner (zero cells wide, removed by `TerminalGuard`) stands between."""
    shown = neutralise(text, keep_layout=keep_layout).replace("[", "\\[")
    return shown + "\u2060" if shown.endswith("\\") else shown


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


class TerminalGuard(LineFilter):
    """Removes terminal hazards from every drawn line (see the module docstring)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if not any(not segment.control and has_hazards(segment.text) for segment in segments):
            return segments
        kept = []
        for segment in segments:
            if not segment.control and has_hazards(segment.text):
                text = without_hazards(segment.text)
                if not text:
                    continue
                segment = Segment(text, segment.style, segment.control)
            kept.append(segment)
        return kept
