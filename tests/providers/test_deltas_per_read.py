"""Deltas are handed on per network read: one read's text (or reasoning) pieces come as one item,
in the order they streamed; a delta that arrives in a read of its own still reaches the person at
once. And a `</think>` whose `<think>` was in the prompt makes the text before it reasoning."""

from __future__ import annotations

import json

import httpx
import pytest
from provider_wire import Pieces, mock_client

from konstruct_tui.agent import Notice, ReasoningChunk, ReasoningDone, Restart, TextChunk, TurnEnd, UserMessage
from konstruct_tui.providers import Anthropic, OpenAICompatible
from konstruct_tui.providers.deltas import Deltas
from konstruct_tui.providers.think_tags import ThinkSplitter


def frame(delta: dict) -> bytes:
    return b"data: " + json.dumps({"choices": [{"index": 0, "delta": delta}]}).encode() + b"\n\n"


END = b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}\n\ndata: [DONE]\n\n'
DELTAS = [{"reasoning_content": "weigh "}, {"reasoning_content": "a<b "}, {"content": "Use "}, {"content": "b."},
          {"reasoning_content": " then check"}, {"content": " Done."}]


async def items_of(reads: list[bytes], kind=OpenAICompatible) -> list:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Pieces(reads))

    provider = kind(mock_client(handler), model="m", base_url="http://127.0.0.1:9/v1")
    return [item async for item in provider.stream_turn("rules", [UserMessage("go")], [])]


def shown(items: list) -> list[tuple[str, str]]:
    return [(type(i).__name__, i.text) for i in items if isinstance(i, (TextChunk, ReasoningChunk))]


async def test_one_read_of_many_deltas_is_one_item_per_run_in_order() -> None:
    items = await items_of([b"".join(frame(d) for d in DELTAS) + END])
    assert shown(items) == [("ReasoningChunk", "weigh a<b "), ("TextChunk", "Use b."), ("ReasoningChunk", " then check"), ("TextChunk", " Done.")]
    done = [i.part for i in items if isinstance(i, ReasoningDone)]
    assert [p.text for p in done] == ["weigh a<b  then check"]


async def test_a_delta_in_a_read_of_its_own_is_handed_on_alone() -> None:
    items = await items_of([frame(d) for d in DELTAS] + [END])
    assert shown(items) == [("ReasoningChunk", "weigh "), ("ReasoningChunk", "a<b "), ("TextChunk", "Use "), ("TextChunk", "b."),
                            ("ReasoningChunk", " then check"), ("TextChunk", " Done.")]


async def test_anthropic_thinking_and_text_in_one_read_keep_their_order_and_signature() -> None:
    events = [{"type": "message_start", "message": {"usage": {"input_tokens": 5, "output_tokens": 1}}},
              {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "", "signature": ""}},
              *({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": p}} for p in ("a ", "b ", "c")),
              {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQ"}},
              {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "BCg"}},
              {"type": "content_block_stop", "index": 0},
              {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
              *({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": p}} for p in ("The ", "answer.")),
              {"type": "content_block_stop", "index": 1},
              {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}}, {"type": "message_stop"}]
    body = b"".join(b"event: " + e["type"].encode() + b"\ndata: " + json.dumps(e).encode() + b"\n\n" for e in events)
    items = await items_of([body], Anthropic)
    assert shown(items) == [("ReasoningChunk", "a b c"), ("TextChunk", "The answer.")]
    done = [i.part for i in items if isinstance(i, ReasoningDone)]
    assert [(p.text, p.data["signature"]) for p in done] == [("a b c", "EqQBCg")]
    assert items.index(next(i for i in items if isinstance(i, ReasoningDone))) < items.index(next(i for i in items if isinstance(i, TextChunk)))


# A `<think>` in the prompt (Qwen3, QwQ, DeepSeek-R1 templates): the stream shows only `</think>`.

STREAM = "Okay, 2<3 so</think>\n\nThe answer."


def person_sees(reads: list[str]) -> tuple[str, str, list]:
    """What the loop keeps, as agent/loop.py does: text cleared on Restart, reasoning as it came after."""
    deltas = Deltas("openai", ThinkSplitter())
    items: list = []
    for read in reads:
        deltas.text(read)
        items += deltas.take()
    items += deltas.end()
    answer: list[str] = []
    reasoning: list[str] = []
    for item in items:
        if isinstance(item, Restart):
            answer.clear()
        elif isinstance(item, TextChunk):
            answer.append(item.text)
        elif isinstance(item, ReasoningChunk):
            reasoning.append(item.text)
    return "".join(reasoning), "".join(answer), items


def test_text_before_a_lone_close_tag_is_reasoning_in_one_read() -> None:
    reasoning, answer, items = person_sees([STREAM])
    assert (reasoning, answer) == ("Okay, 2<3 so", "\n\nThe answer.")
    assert not any(isinstance(i, (Restart, Notice)) for i in items)  # nothing went out as the answer first


@pytest.mark.parametrize("cut", range(1, len(STREAM)))
def test_a_lone_close_tag_wherever_the_reads_are_cut(cut: int) -> None:
    reasoning, answer, items = person_sees([STREAM[:cut], STREAM[cut:]])
    assert (reasoning, answer) == ("Okay, 2<3 so", "\n\nThe answer.")
    sent_first = [i.text for i in items[: next((n for n, i in enumerate(items) if isinstance(i, Restart)), 0)] if isinstance(i, TextChunk)]
    if "".join(sent_first).strip():  # text that had gone out as the answer is taken back, and the person told why
        assert any(isinstance(i, Notice) and "reasoning" in i.text for i in items)


def test_every_three_way_cut_of_a_lone_close_tag() -> None:
    for i in range(1, len(STREAM)):
        for j in range(i + 1, len(STREAM)):
            assert person_sees([STREAM[:i], STREAM[i:j], STREAM[j:]])[:2] == ("Okay, 2<3 so", "\n\nThe answer."), (i, j)


def test_a_close_tag_after_a_real_block_is_answer_text() -> None:
    reasoning, answer, _ = person_sees(["<think>plan</think>Close it with </think> as the tag.", ""])
    assert (reasoning, answer) == ("plan", "Close it with </think> as the tag.")


def test_a_lone_gemini_close_tag_too() -> None:
    assert person_sees(["**Planning** read", " calc.py</thought>I will read calc.py."])[:2] == ("**Planning** read calc.py", "I will read calc.py.")


def test_blank_space_before_a_lone_close_tag_takes_nothing_back() -> None:
    reasoning, answer, items = person_sees(["\n", "</think>The answer."])
    assert (reasoning, answer) == ("", "\nThe answer.")
    assert not any(isinstance(i, (Restart, Notice)) for i in items)


def test_an_answer_without_tags_streams_untouched() -> None:
    reasoning, answer, items = person_sees(["if a < b:", " return b", " # a </thin k"])
    assert (reasoning, answer) == ("", "if a < b: return b # a </thin k")
    assert not any(isinstance(i, (Restart, Notice, ReasoningChunk)) for i in items)


async def test_the_provider_says_the_turn_ended_after_a_lone_close_tag() -> None:
    reads = [frame({"content": "Okay, the"}), frame({"content": " user wants"}), frame({"content": " a sum.</think>Sum."}), END]
    items = await items_of(reads)
    assert [type(i).__name__ for i in items if isinstance(i, (Notice, Restart))] == ["Notice", "Restart"]
    after = items[next(n for n, i in enumerate(items) if isinstance(i, Restart)):]
    assert shown(after) == [("ReasoningChunk", "Okay, the user wants a sum."), ("TextChunk", "Sum.")]
    assert [i.part.text for i in items if isinstance(i, ReasoningDone)] == ["Okay, the user wants a sum."]
    assert items[-1] == TurnEnd("stop")
