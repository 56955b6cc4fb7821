"""Server-sent events, read line by line from a streaming httpx response."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx


@dataclass(frozen=True)
class ServerEvent:
    event: str  # "message" when the server named none
    data: str


async def server_events(response: httpx.Response) -> AsyncIterator[ServerEvent]:
    """Yield each event as soon as its blank line arrives (a frame may span many TCP chunks and one
    chunk may carry many frames; `aiter_lines` handles both)."""
    name = ""
    data: list[str] = []
    async for line in response.aiter_lines():
        if not line:
            if data:
                yield ServerEvent(name or "message", "\n".join(data))
            name, data = "", []
            continue
        if line.startswith(":"):
            continue  # a comment, used by servers as a keep-alive
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
    # A frame the connection cut before its blank line is discarded, as the SSE spec says: the
    # reader of the events then sees a turn that never finished, not half a JSON object.
