"""Helpers for provider tests: recorded wire files delivered through `httpx.MockTransport` in
arbitrary byte pieces."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx

WIRE = Path(__file__).parent / "wire"


class Pieces(httpx.AsyncByteStream):
    """A response body delivered in the given byte pieces (frames split anywhere, as TCP does)."""

    def __init__(self, pieces: list[bytes], hang_after: bool = False) -> None:
        self.pieces = pieces
        self.hang_after = hang_after
        self.closed = asyncio.Event()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self.pieces:
            yield piece
            await asyncio.sleep(0)
        if self.hang_after:
            await asyncio.Event().wait()  # a server that stops talking but keeps the connection

    async def aclose(self) -> None:
        self.closed.set()


def split_every(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def wire(name: str) -> bytes:
    return (WIRE / name).read_bytes()


def sse_response(body: bytes, piece: int = 37) -> httpx.Response:
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Pieces(split_every(body, piece)))


def mock_client(handler: Callable[[httpx.Request], httpx.Response]) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.MockTransport(handler))
