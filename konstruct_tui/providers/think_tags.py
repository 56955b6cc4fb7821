"""Inline reasoning split out of an answer: local servers without a reasoning parser stream a
reasoning model's thoughts as `<think>…</think>` inside the content, and Gemini's OpenAI-compatible
endpoint (with `include_thoughts`) as `<thought>…</thought>`. Those pieces are reasoning, never the
answer, wherever the chunk borders fall (a tag may arrive as `<thi` + `nk>`).

Some chat templates open the block in the prompt (Qwen3, QwQ, DeepSeek-R1 end it with `<think>`):
the stream then starts with reasoning and shows only the `</think>`. A close tag before any block
this turn therefore means that everything before it was reasoning (`opened_in_prompt`).
"""

from __future__ import annotations

TAGS = {"<think>": "</think>", "<thought>": "</thought>"}
CLOSING = {close: close for close in TAGS.values()}


class ThinkSplitter:
    """Feeds content pieces, returns (is_reasoning, text) runs. Only a possible tag start at the
    end of a piece is held back, until the next piece says whether it is one."""

    def __init__(self) -> None:
        self.closing: str | None = None  # the close tag awaited while inside a block
        self.held = ""
        self.seen = False  # a block appeared this turn
        self.opened_in_prompt = False  # a close tag came first: the text before it (also earlier pieces) was reasoning

    @property
    def inside(self) -> bool:
        return self.closing is not None

    def feed(self, text: str) -> list[tuple[bool, str]]:
        if not self.held and "<" not in text:
            return [(self.inside, text)]  # the common case: no tag can start in this piece
        buffer = self.held + text
        self.held = ""
        runs: list[tuple[bool, str]] = []
        while buffer:
            candidates = (self.closing,) if self.closing else TAGS if self.seen else {**TAGS, **CLOSING}
            if self.closing is not None:
                found, tag = buffer.find(self.closing), self.closing
            else:
                found, tag = min(((buffer.find(t), t) for t in candidates if t in buffer), default=(-1, ""))
            if found >= 0 and tag in CLOSING and self.closing is None:
                if found:
                    runs.append((True, buffer[:found]))  # a block the prompt opened ends here
                buffer = buffer[found + len(tag):]
                self.seen = self.opened_in_prompt = True
                continue
            if found >= 0:
                if found:
                    runs.append((self.inside, buffer[:found]))
                buffer = buffer[found + len(tag):]
                self.closing = None if self.closing is not None else TAGS[tag]
                self.seen = True
                continue
            keep = max(_partial_tag(buffer, t) for t in candidates)
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
