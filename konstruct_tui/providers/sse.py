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


class _Frames:
    """The SSE field parser, fed whole lines; `events` collects what completed."""

    def __init__(self, stray: list[str] | None) -> None:
        self.stray = stray
        self.name = ""
        self.data: list[str] = []
        self.events: list[ServerEvent] = []

    def feed(self, lines: Iterable[str]) -> None:
        for line in lines:
            if line[:6] == "data: ":  # the usual line, taken without the general parse below
                self.data.append(line[6:])
                continue
            if not line:
                if self.data:
                    self.events.append(ServerEvent(self.name or "message", "\n".join(self.data)))
                self.name, self.data = "", []
                continue
            if line[0] == ":":
                continue  # a comment, used by servers as a keep-alive
            field, colon, value = line.partition(":")
            if value[:1] == " ":
                value = value[1:]
            if field == "data":
                self.data.append(value)
            elif field == "event":
                self.name = value
            elif field == "error" and colon:
                self.events.append(ServerEvent("error", value))
            elif field not in ("id", "retry") and self.stray is not None:
                self.stray.append(line)

    def end(self) -> None:
        # A frame the connection cut before its blank line is discarded, as the SSE spec says: the
        # reader of the events then sees a turn that never finished, not half a JSON object. Only a
        # frame whose every line is whole (a server that never sends the blank line) is kept.
        if self.data and all(_whole(line) for line in self.data):
            self.events.append(ServerEvent(self.name or "message", "\n".join(self.data)))
        self.data = []


class _Lines:
    """Whole lines from text pieces cut anywhere, as `str.splitlines` would split the whole (what
    httpx's `aiter_lines` does), a trailing `\r` held until the next piece says if `\n` follows."""

    BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"

    def __init__(self) -> None:
        self.pending = ""

    def feed(self, text: str) -> list[str]:
        text = self.pending + text
        self.pending = ""
        if not text:
            return []
        if text[-1] == "\r":
            self.pending, text = "\r", text[:-1]
        lines = text.splitlines()
        if text and text[-1] not in self.BREAKS and lines:
            self.pending = lines.pop() + self.pending
        return lines

    def end(self) -> list[str]:
        rest, self.pending = self.pending.rstrip("\r"), ""
        return [rest] if rest else []


async def event_batches(source: httpx.Response | str, stray: list[str] | None = None) -> AsyncIterator[list[ServerEvent]]:
    """The events of a stream, a list per piece the network delivered (a frame may span many pieces
    and one piece may carry many frames): the caller reads each list without awaiting per event,
    which keeps parsing close to the cost of decoding the JSON itself (bench/bench_stream.py).

    Lines that are no SSE field at all (a JSON error body sent as is, an HTML page) are collected in
    `stray`, so the caller can show the server's own words instead of "the stream ended". An
    `error:` field (llama.cpp's server writes its errors that way) becomes an event named `error`.
    """
    frames = _Frames(stray)
    if isinstance(source, str):
        frames.feed(source.splitlines())
    else:
        lines = _Lines()
        async for text in source.aiter_text():
            frames.feed(lines.feed(text))
            if frames.events:
                batch, frames.events = frames.events, []
                yield batch
        frames.feed(lines.end())
    frames.end()
    if frames.events:
        yield frames.events


async def server_events(source: httpx.Response | str, stray: list[str] | None = None) -> AsyncIterator[ServerEvent]:
    """Each event as soon as its blank line arrives (see `event_batches`)."""
    async for batch in event_batches(source, stray):
        for event in batch:
            yield event


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
