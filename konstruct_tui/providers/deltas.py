"""One network read's deltas, handed on as few items: consecutive text pieces become one
`TextChunk`, consecutive reasoning pieces one `ReasoningChunk`, in the order they came. A read
carries tens to thousands of deltas; handing each on alone cost more than decoding its JSON
(bench/bench_stream.py), while the person cannot see a difference finer than one read.

Answer text may carry inline reasoning (`<think>…</think>`): given a `ThinkSplitter`, each run of
text is split once, joined, instead of once per delta. A stream whose reasoning opened in the
prompt (Qwen3, QwQ and DeepSeek-R1 chat templates end the prompt with `<think>`) shows only the
`</think>`: the text before it was reasoning. What of it was already handed on as answer is
declared void (`Restart`, with a notice saying why) and handed on again as reasoning.
"""

from __future__ import annotations

from ..agent import Notice, ReasoningChunk, Restart, TextChunk, TurnItem
from .think_tags import ThinkSplitter


class Deltas:
    def __init__(self, provider: str, splitter: ThinkSplitter | None = None) -> None:
        self.provider = provider
        self.splitter = splitter
        self.items: list[TurnItem] = []
        self.reasoned: list[str] = []  # the turn's reasoning text so far, in order
        self._kind: type[TextChunk] | type[ReasoningChunk] | None = None
        self._pieces: list[str] = []
        self._answered: list[str] = []  # answer text already handed on this turn (see the module doc)

    def text(self, piece: str) -> None:
        if self._kind is not TextChunk:
            self._close()
            self._kind = TextChunk
        self._pieces.append(piece)

    def reasoning(self, piece: str) -> None:
        if self._kind is not ReasoningChunk:
            self._close()
            self._kind = ReasoningChunk
        self._pieces.append(piece)

    def add(self, item: TurnItem) -> None:
        self._close()
        self.items.append(item)

    def take(self) -> list[TurnItem]:
        """What this read gave, to hand on now."""
        self._close()
        items, self.items = self.items, []
        if self.splitter is not None and not self.splitter.seen:  # once a tag was seen, nothing is taken back
            self._answered += [item.text for item in items if isinstance(item, TextChunk)]
        return items

    def end(self) -> list[TurnItem]:
        """The turn is over: a piece the splitter held (a tag that never completed) is handed on."""
        if self.splitter is not None:
            self._runs(self.splitter.flush())
        return self.take()

    def _close(self) -> None:
        if not self._pieces:
            return
        joined = "".join(self._pieces)
        self._pieces.clear()
        if self._kind is ReasoningChunk:
            self._reasoning(joined)
        elif self.splitter is None or (not self.splitter.held and not self.splitter.inside and "<" not in joined):
            self.items.append(TextChunk(joined))  # plain answer text: the splitter is not needed
        else:
            self._runs(self.splitter.feed(joined))

    def _reasoning(self, text: str) -> None:
        self.reasoned.append(text)
        last = self.items[-1] if self.items else None
        if isinstance(last, ReasoningChunk):
            self.items[-1] = ReasoningChunk(last.text + text)
        else:
            self.items.append(ReasoningChunk(text))

    def _runs(self, runs: list[tuple[bool, str]]) -> None:
        assert self.splitter is not None
        if self.splitter.opened_in_prompt:
            self.splitter.opened_in_prompt = False
            self._reclaim()
        for reasoning, text in runs:
            if not text:
                continue
            if reasoning:
                self._reasoning(text)
            else:
                self.items.append(TextChunk(text))

    def _reclaim(self) -> None:
        """The `</think>` closed a block the prompt opened: this turn's answer text so far was reasoning."""
        earlier = "".join(self._answered)
        self._answered.clear()
        here = "".join(item.text for item in self.items if isinstance(item, TextChunk))
        self.items = [item for item in self.items if not isinstance(item, TextChunk)]
        if not earlier.strip():
            earlier = ""  # only blank space went out as the answer: nothing to take back
        else:
            self.items += [Notice("reasoning_untagged", f"{self.provider}: the text above was the model's reasoning (its stream closed a "
                                                        "</think> that the prompt opened); shown again as reasoning"),
                           Restart("the text so far was reasoning")]
        if earlier + here:
            self._reasoning(earlier + here)
