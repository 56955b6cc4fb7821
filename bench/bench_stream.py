"""How much reading a streamed turn costs on top of the JSON decoding any client must do.

A recorded-style OpenAI stream of 4000 text deltas and one tool call (in 200 argument fragments) is
read through `OpenAICompatible` over `httpx.MockTransport`; the baseline is the same body split into
frames and decoded with `json.loads`, nothing else. Prints medians and the ratio.

    python bench/bench_stream.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

import httpx

from konstruct_tui.agent.ports import UserMessage
from konstruct_tui.providers import OpenAICompatible


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


async def read_turn(raw: bytes) -> int:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=raw)

    provider = OpenAICompatible(httpx.AsyncClient(transport=httpx.MockTransport(handler)), model="m", base_url="http://127.0.0.1:9/v1")
    items = [item async for item in provider.stream_turn("rules", [UserMessage("go")], [])]
    await provider.aclose()
    return len(items)


def baseline(raw: bytes) -> int:
    count = 0
    for frame in raw.decode().split("\n\n"):
        data = frame.removeprefix("data: ")
        if data and data != "[DONE]":
            json.loads(data)
            count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    rounds = parser.parse_args().rounds
    raw = body()
    ours, plain = [], []
    for _ in range(rounds):
        started = time.perf_counter()
        asyncio.run(read_turn(raw))
        ours.append(time.perf_counter() - started)
        started = time.perf_counter()
        baseline(raw)
        plain.append(time.perf_counter() - started)
    mine, base = statistics.median(ours), statistics.median(plain)
    print(f"stream of {len(raw) // 1024} KiB, 4000 text deltas + 1 tool call in 200 fragments, {rounds} rounds")
    print(f"baseline (split + json.loads):  median {base * 1000:7.1f} ms")
    print(f"OpenAICompatible.stream_turn:   median {mine * 1000:7.1f} ms   ratio {mine / base:5.1f}x baseline")


if __name__ == "__main__":
    main()
