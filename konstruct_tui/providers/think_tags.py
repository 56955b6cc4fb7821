"""Inline reasoning split out of an answer: local servers without a reasoning parser stream a
reasoning model's thoughts as `<think>…</think>` inside the content. Those pieces are reasoning,
never the answer, wherever the chunk borders fall (a tag may arrive as `<thi` + `nk>`).
"""

from __future__ import annotations

OPEN = "<think>"
CLOSE = "</think>"


class ThinkSplitter:
    """Feeds content pieces, returns (is_reasoning, text) runs. Only a possible tag start at the
    end of a piece is held back, until the next piece says whether it is one."""

    def __init__(self) -> None:
        self.inside = False
        self.held = ""
        self.seen = False  # a <think> block appeared this turn

    def feed(self, text: str) -> list[tuple[bool, str]]:
        if not self.held and not self.inside and "<" not in text:
            return [(False, text)]  # the common case: plain answer text
        buffer = self.held + text
        self.held = ""
        runs: list[tuple[bool, str]] = []
        while buffer:
            tag = CLOSE if self.inside else OPEN
            found = buffer.find(tag)
            if found >= 0:
                if found:
                    runs.append((self.inside, buffer[:found]))
                buffer = buffer[found + len(tag):]
                self.inside = not self.inside
                self.seen = True
                continue
            keep = _partial_tag(buffer, tag)
            if keep:
                self.held, buffer = buffer[-keep:], buffer[:-keep]
            if buffer:
                runs.append((self.inside, buffer))
            break
        return runs

    def flush(self) -> list[tuple[bool, str]]:
        """The end of the turn: a held piece was not a tag after all."""
        held, self.held = self.held, ""
        return [(self.inside, held)] if held else []


def _partial_tag(text: str, tag: str) -> int:
    """How many characters at the end of `text` could begin `tag`."""
    tail = text[-(len(tag) - 1):]
    start = tail.find("<")
    while start >= 0:
        if tag.startswith(tail[start:]):
            return len(tail) - start
        start = tail.find("<", start + 1)
    return 0
