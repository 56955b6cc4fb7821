"""Server-sent events, read line by line from a streaming httpx response (or from a body already
read whole, when a server answered a streaming request with something else)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from typing import Any

import httpx

from .server_words import parse_json

# One event: its name ("message" when the server named none) and its data. A plain tuple, not an
# object: a stream carries thousands, and building each costs as much as decoding its JSON.
ServerEvent = tuple[str, str]
_scan = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # json's own C scanner, without json.loads' three Python calls


class _Frames:
    """The SSE field parser, fed whole lines; `events` collects what completed."""

    def __init__(self, stray: list[str] | None) -> None:
        self.stray = stray
        self.name = ""
        self.data: list[str] = []
        self.events: list[ServerEvent] = []

    def feed(self, lines: Iterable[str]) -> None:
        data, events = self.data, self.events  # locals: this loop runs twice per delta
        for line in lines:
            if line[:6] == "data: ":  # the usual line, taken without the general parse below
                data.append(line[6:])
                continue
            if not line:
                if data:
                    events.append((self.name or "message", data[0] if len(data) == 1 else "\n".join(data)))
                    data.clear()
                self.name = ""
                continue
            if line[0] == ":":
                continue  # a comment, used by servers as a keep-alive
            field, colon, value = line.partition(":")
            if value[:1] == " ":
                value = value[1:]
            if field == "data":
                data.append(value)
            elif field == "event":
                self.name = value
            elif field == "error" and colon:
                events.append(("error", value))
            elif field not in ("id", "retry") and self.stray is not None:
                self.stray.append(line)

    def end(self) -> None:
        # A frame the connection cut before its blank line is discarded, as the SSE spec says: the
        # reader of the events then sees a turn that never finished, not half a JSON object. Only a
        # frame whose every line is whole (a server that never sends the blank line) is kept.
        if self.data and all(_whole(line) for line in self.data):
            self.events.append((self.name or "message", "\n".join(self.data)))
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


def decoded(data: str) -> Any:
    """An event's JSON (what `parse_json` gives: None when it is not JSON), by json's scanner
    directly for the usual frame, one object with nothing around it; anything else takes the
    general path, so the result is always json.loads'."""
    try:
        value, end = _scan(data, 0)
    except (StopIteration, ValueError):
        return parse_json(data)
    return value if end == len(data) else parse_json(data)


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
