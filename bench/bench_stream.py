"""How much reading a streamed turn costs on top of the JSON decoding any client must do.

A recorded-style OpenAI stream of 4000 text deltas and one tool call (in 200 argument fragments),
then reasoning-heavy streams, 4000 reasoning deltas before a short answer, in each wire format that
carries reasoning: vLLM/llama.cpp `reasoning_content`, Ollama `reasoning`, inline `<think>` (tags cut
across deltas), Anthropic `thinking_delta`, Responses `reasoning_summary_text.delta`. For each, the
parse alone (the provider's `read_turn` over the body, no HTTP, no queue) and the whole turn
(`stream_turn` over MockTransport), both against the same baseline: the body split into frames
and decoded with `json.loads`, nothing else. Issue #26's bar: the parse within 1.5x of it.

    python bench/bench_stream.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Callable

import httpx

from konstruct_tui.agent.ports import UserMessage
from konstruct_tui.providers import Anthropic, OpenAICompatible, OpenAIResponses
from konstruct_tui.providers.streaming import StreamingProvider, TurnState

DELTAS = 4000


def body() -> bytes:
    frames = [{"choices": [{"index": 0, "delta": {"content": f" word{n}"}}]} for n in range(4000)]
    frames.append({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "read_code", "arguments": ""}}]}}]})
    arguments = json.dumps({"paths": [f"src/file{n}.py" for n in range(200)]})
    step = len(arguments) // 200 + 1
    frames += [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": arguments[i:i + step]}}]}}]}
               for i in range(0, len(arguments), step)]
    frames.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    frames.append({"choices": [], "usage": {"prompt_tokens": 1000, "completion_tokens": 5000}})
    return b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames) + b"data: [DONE]\n\n"


def _chat(deltas: list[dict]) -> bytes:
    frames = [{"choices": [{"index": 0, "delta": d}]} for d in deltas]
    frames += [{"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}, {"choices": [], "usage": {"prompt_tokens": 1000, "completion_tokens": 5000}}]
    return b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames) + b"data: [DONE]\n\n"


def _typed(events: list[dict]) -> bytes:
    return b"".join(b"event: " + e["type"].encode() + b"\ndata: " + json.dumps(e).encode() + b"\n\n" for e in events)


def _think_pieces() -> list[dict]:
    text = "<think>" + "".join(f" step{n} a<b" for n in range(DELTAS)) + "</think>The answer."
    size = len(text) // DELTAS + 1
    return [{"content": text[i : i + size]} for i in range(0, len(text), size)]  # tags cut wherever the sizes fall


def _anthropic() -> bytes:
    events = [{"type": "message_start", "message": {"usage": {"input_tokens": 1000, "output_tokens": 1}}},
              {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "", "signature": ""}}]
    events += [{"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": f" step{n}"}} for n in range(DELTAS)]
    events += [{"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQBCgIYAhIM" * 20}},
               {"type": "content_block_stop", "index": 0},
               {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
               {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "The answer."}},
               {"type": "content_block_stop", "index": 1},
               {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 5000}}, {"type": "message_stop"}]
    return _typed(events)


def _responses() -> bytes:
    events = [{"type": "response.output_item.added", "output_index": 0, "item": {"id": "rs_1", "type": "reasoning", "summary": []}}]
    events += [{"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "output_index": 0, "summary_index": 0, "delta": f" step{n}"}
               for n in range(DELTAS)]
    events += [{"type": "response.output_item.done", "output_index": 0, "item": {"id": "rs_1", "type": "reasoning", "encrypted_content": "gAAA" * 500,
                                                                                  "summary": [{"type": "summary_text", "text": "steps"}]}},
               {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 1, "content_index": 0, "delta": "The answer."},
               {"type": "response.completed", "response": {"status": "completed", "usage": {"input_tokens": 1000, "output_tokens": 5000,
                                                                                           "output_tokens_details": {"reasoning_tokens": 4990}}}}]
    return _typed(events)


REASONING_STREAMS: dict[str, tuple[type[StreamingProvider], bytes]] = {
    "vLLM reasoning_content": (OpenAICompatible, _chat([{"reasoning_content": f" step{n}"} for n in range(DELTAS)] + [{"content": "The answer."}])),
    "Ollama reasoning": (OpenAICompatible, _chat([{"reasoning": f" step{n}"} for n in range(DELTAS)] + [{"content": "The answer."}])),
    "inline <think>": (OpenAICompatible, _chat(_think_pieces())),
    "Anthropic thinking_delta": (Anthropic, _anthropic()),
    "Responses summary delta": (OpenAIResponses, _responses()),
}


def _provider(kind: type[StreamingProvider], raw: bytes) -> StreamingProvider:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=raw)

    return kind(httpx.AsyncClient(transport=httpx.MockTransport(handler)), model="m", base_url="http://127.0.0.1:9/v1")


async def read_turn(raw: bytes, kind: type[StreamingProvider] = OpenAICompatible) -> int:
    provider = _provider(kind, raw)
    items = [item async for item in provider.stream_turn("rules", [UserMessage("go")], [])]
    await provider.aclose()
    return len(items)


async def parse_only(raw: bytes, kind: type[StreamingProvider]) -> int:
    """The provider's parse of a body read whole: SSE frames, JSON, the turn's items."""
    provider = _provider(kind, raw)
    items = [item async for item in provider.read_turn(raw.decode(), TurnState(provider.provider))]
    await provider.aclose()
    return len(items)


def baseline(raw: bytes) -> int:
    count = 0
    for frame in raw.decode().split("\n\n"):
        data = frame.rpartition("data: ")[2]
        if data and data != "[DONE]":
            json.loads(data)
            count += 1
    return count


def _medians(runs: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """The median time of each run, the runs taken in turn every round: on a shared machine the
    load changes from second to second, and a baseline timed apart would compare unlike moments."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            started = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - started)
    return {name: statistics.median(spent) for name, spent in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    rounds = parser.parse_args().rounds
    streams: dict[str, tuple[type[StreamingProvider], bytes]] = {"text + tool call": (OpenAICompatible, body()), **REASONING_STREAMS}
    print(f"{DELTAS} deltas a stream (reasoning streams: reasoning, then a short answer; the text stream: 4000 text deltas and a\n"
          f"tool call in 200 fragments); median of {rounds} rounds, each stream's three runs taken in turn every round.\n"
          "parse: the provider's read_turn over the body (SSE frames, JSON, the turn's items); whole turn: stream_turn over\n"
          "httpx.MockTransport (HTTP, the producer task, the queue). Ratios against split + json.loads of the same frames.\n")
    print(f"{'stream':26} {'KiB':>5} {'json.loads':>11} {'parse':>9} {'ratio':>6} {'whole turn':>11} {'ratio':>6}")
    for name, (kind, stream) in streams.items():
        spent = _medians({"plain": lambda: baseline(stream),  # noqa: B023 - run at once, in this iteration
                          "parse": lambda: asyncio.run(parse_only(stream, kind)),  # noqa: B023
                          "whole": lambda: asyncio.run(read_turn(stream, kind))}, rounds)  # noqa: B023
        plain_s, parse_s, whole_s = spent["plain"], spent["parse"], spent["whole"]
        print(f"{name:26} {len(stream) // 1024:5} {plain_s * 1000:8.1f} ms {parse_s * 1000:6.1f} ms {parse_s / plain_s:5.2f}x "
              f"{whole_s * 1000:8.1f} ms {whole_s / plain_s:5.2f}x")


if __name__ == "__main__":
    main()
