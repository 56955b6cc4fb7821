"""Server-sent events, read line by line from a streaming httpx response (or from a body already
read whole, when a server answered a streaming request with something else)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass

import httpx


@dataclass(frozen=True)
class ServerEvent:
    event: str  # "message" when the server named none
    data: str


async def _lines_of(text: str) -> AsyncIterator[str]:
    for line in text.splitlines():
        yield line


async def server_events(source: httpx.Response | str, stray: list[str] | None = None) -> AsyncIterator[ServerEvent]:
    """Yield each event as soon as its blank line arrives (a frame may span many TCP chunks and one
    chunk may carry many frames; `aiter_lines` handles both).

    Lines that are no SSE field at all (a JSON error body sent as is, an HTML page) are collected in
    `stray`, so the caller can show the server's own words instead of "the stream ended". An
    `error:` field (llama.cpp's server writes its errors that way) becomes an event named `error`.
    """
    lines: AsyncIterator[str] = _lines_of(source) if isinstance(source, str) else source.aiter_lines()
    name = ""
    data: list[str] = []
    async for line in lines:
        if not line:
            if data:
                yield ServerEvent(name or "message", "\n".join(data))
            name, data = "", []
            continue
        if line.startswith(":"):
            continue  # a comment, used by servers as a keep-alive
        field, colon, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
        elif field == "error" and colon:
            yield ServerEvent("error", value)
        elif field not in ("id", "retry") and stray is not None:
            stray.append(line)
    # A frame the connection cut before its blank line is discarded, as the SSE spec says: the
    # reader of the events then sees a turn that never finished, not half a JSON object. Only a
    # frame whose every line is whole (a server that never sends the blank line) is kept.
    if data and all(_whole(line) for line in data):
        yield ServerEvent(name or "message", "\n".join(data))


def _whole(line: str) -> bool:
    if line.strip() == "[DONE]":
        return True
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def split_frames(data: str) -> list[str]:
    """One event's data, or its lines when a server sent several `data:` lines without the blank
    line between them (each line then is one JSON object of its own)."""
    if "\n" not in data:
        return [data]
    try:
        json.loads(data)
    except ValueError:
        lines = [line for line in data.split("\n") if line.strip()]
        if len(lines) > 1 and all(_whole(line) for line in lines):
            return lines
    return [data]


def looks_like_sse(text: str) -> bool:
    """Whether a body read whole is a stream after all (a server that labels SSE as JSON)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return first.startswith(("data:", "event:", ":", "id:", "retry:"))


def joined(lines: Iterable[str]) -> str:
    return "\n".join(lines)
