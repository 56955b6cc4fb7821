"""Untrusted text on the screen: shown with its controls as visible escapes, never obeyed.

Three pieces, from the call site to the last line of defence:

- `plain(text)`: text for console markup, escaped and neutralised (a file name, a command, an error).
- `UntrustedMarkdown` (in `untrusted_markdown.py`, also reachable here): a Markdown widget whose
  parser neutralises every token after parsing, so a
  character reference (`&#x202e;`, `&rlm;`) that Markdown decodes is caught too, and so is a control
  in a code fence or a link's URL.
- `TerminalGuard`: a line filter over everything the app draws. It removes any hazard that still
  reaches a line (a call site nobody wrapped): all of them are zero cells wide, so removing them
  keeps the layout. Rich strips BEL, CR and a few others, but passes ESC and the C1 controls
  through to the terminal: this filter is what stops an OSC 52 that some widget forgot.
"""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from ..untrusted_text import has_hazards, neutralise, without_hazards

# In `untrusted_markdown.py`, loaded on first use: Markdown (markdown_it and the highlighter) is
# needed for the first reply, not for the first frame.
_MARKDOWN_NAMES = ("UntrustedMarkdown", "untrusted_parser")


def __getattr__(name: str) -> Any:
    if name in _MARKDOWN_NAMES:
        from . import untrusted_markdown

        return getattr(untrusted_markdown, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def plain(text: str, *, keep_layout: bool = True) -> str:
    """Untrusted text as console markup that shows it literally. Every `[` is escaped: Textual's
    `escape` leaves a `[` that does not start like a tag (`[2J`), and its markup parser then reads
    on to the next `]` and fails on the closing tag after it (a file name could crash the prompt).
    A backslash escapes only the `[` right after it, so the backslashes before stay as they are;
    but a trailing backslash would escape the caller's closing tag, and markup has no spelling for a
    literal one there: a word joiner (zero cells wide, removed by `TerminalGuard`) stands between."""
    shown = neutralise(text, keep_layout=keep_layout).replace("[", "\\[")
    return shown + "\u2060" if shown.endswith("\\") else shown


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
