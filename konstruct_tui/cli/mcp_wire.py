"""The stdio wire of `konstruct mcp`: one JSON-RPC message per line, read and written here instead of
by the SDK's `stdio_server`, because that reader drops every line it cannot parse without a word
(a 100,000-level nested request got no answer at all) and reads a line of any length into memory.

Here every line the server cannot take gets a JSON-RPC error naming why: `-32700` for text that is
not JSON, `-32600` for JSON that is not a request or nests deeper than the parser goes, and
`-32600` for a line over `MAX_MESSAGE_BYTES` (the rest of that line is read and thrown away, never
held). The error carries the request's `id` when the line's top level names one, else `null`, as
JSON-RPC 2.0 says.

While serving, fd 0 is pointed at /dev/null and fd 1 at stderr, as the SDK does: a command the
server starts (or a stray print) can neither eat the client's messages nor corrupt the replies.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import IO, Any

MAX_MESSAGE_BYTES = 96 * 1024 * 1024  # above read_code's and write_code's own ceilings (64 MiB)
_ID_SCAN_BYTES = 1 << 20  # how far into a refused line the top-level `id` is looked for
_CHUNK = 1 << 16

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


class OversizeLine(Exception):
    def __init__(self, head: bytes, size: int) -> None:
        super().__init__(f"a message of {size} bytes or more")
        self.head, self.size = head, size


def read_line(stream: IO[bytes], limit: int = MAX_MESSAGE_BYTES) -> bytes | OversizeLine:
    """The next line (b"" at end of input), or `OversizeLine` once it passes `limit`; the rest of an
    oversize line is consumed in chunks and dropped."""
    line = stream.readline(limit + 1)
    if len(line) <= limit or line.endswith(b"\n"):
        return line
    head, size = line[:_ID_SCAN_BYTES], len(line)
    while True:
        more = stream.readline(_CHUNK)
        size += len(more)
        if not more or more.endswith(b"\n"):
            return OversizeLine(head, size)


_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null')


def top_level_id(head: bytes) -> int | str | None:
    """The `id` of a JSON-RPC line that could not be parsed whole: the value of the key `id` at the
    top level of the object (deep nesting elsewhere does not hide it), when it is a number or a
    string. A scan of tokens, so no depth limit applies."""
    import json

    depth = 0
    expect_id = False
    previous = b""
    for match in _TOKEN.finditer(head):
        token = match.group()
        if token in (b"{", b"["):
            depth += 1
        elif token in (b"}", b"]"):
            depth -= 1
        elif expect_id:
            if depth == 1 and token not in (b":", b","):
                try:
                    value = json.loads(token)
                except ValueError:
                    return None
                return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None
            if token != b":":
                expect_id = False
            continue
        elif depth == 1 and token == b'"id"' and previous in (b"{", b","):
            expect_id = True
        previous = token
    return None


def refusal(line: bytes | OversizeLine, error: Exception | None) -> dict[str, Any]:
    """The JSON-RPC error answering a line the server cannot take."""
    if isinstance(line, OversizeLine):
        code, message = INVALID_REQUEST, (f"message too large: {line.size} bytes or more, the limit is "
                                          f"{MAX_MESSAGE_BYTES} bytes per message")
        head = line.head
    else:
        head = line[:_ID_SCAN_BYTES]
        text = str(error)
        if "recursion limit" in text:
            code, message = INVALID_REQUEST, "message nested too deeply: the JSON nests past the server's limit (about 200 levels)"
        elif "Invalid JSON" in text or "json_invalid" in text:
            code, message = PARSE_ERROR, "parse error: the line is not valid JSON"
        else:
            code, message = INVALID_REQUEST, "invalid request: the line is JSON but not a JSON-RPC 2.0 message"
    return {"jsonrpc": "2.0", "id": top_level_id(head), "error": {"code": code, "message": message}}


@asynccontextmanager
async def stdio_wire() -> AsyncIterator[tuple[Any, Any]]:
    """(read stream of SessionMessage, write stream of SessionMessage) over this process's stdio."""
    import json

    import anyio
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    wire_in = os.fdopen(_divert(0, os.open(os.devnull, os.O_RDONLY)), "rb", buffering=_CHUNK)
    wire_out = os.fdopen(_divert(1, os.dup(2)), "wb")
    read_writer, read_stream = anyio.create_memory_object_stream[Any](0)
    write_stream, write_reader = anyio.create_memory_object_stream[Any](0)

    lock = threading.Lock()  # replies and refusals come from two tasks' threads: one line at a time

    def send(data: bytes) -> None:
        with lock:
            try:
                wire_out.write(data + b"\n")
                wire_out.flush()
            except (BrokenPipeError, ValueError):
                pass  # the client is gone; its end of stdin closing ends the server

    def send_raw(payload: dict[str, Any]) -> None:
        send(json.dumps(payload).encode())

    async def reader() -> None:
        async with read_writer:
            while True:
                # abandon_on_cancel: a blocked read must not hold the server open at shutdown
                line = await anyio.to_thread.run_sync(read_line, wire_in, abandon_on_cancel=True)
                if line == b"":
                    return  # the client closed our stdin: the server ends
                if isinstance(line, bytes) and not line.strip():
                    continue
                if isinstance(line, bytes):
                    try:
                        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                    except Exception as error:  # noqa: BLE001 - every unparsable line is answered, none kills the server
                        await anyio.to_thread.run_sync(send_raw, refusal(line, error))
                        continue
                    try:
                        await read_writer.send(SessionMessage(message))
                    except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                        return  # the server stopped reading
                else:
                    await anyio.to_thread.run_sync(send_raw, refusal(line, None))

    async def writer() -> None:
        async with write_reader:
            async for session_message in write_reader:
                text = session_message.message.model_dump_json(by_alias=True, exclude_unset=True)
                await anyio.to_thread.run_sync(send, text.encode("utf-8", "backslashreplace"))

    async with anyio.create_task_group() as group:
        group.start_soon(reader)
        group.start_soon(writer)
        try:
            yield read_stream, write_stream
        finally:
            group.cancel_scope.cancel()


def _divert(fd: int, replacement: int) -> int:
    """Keep the wire on a private descriptor and point `fd` at `replacement` (children and stray
    output then miss the wire). Returns the private descriptor."""
    import fcntl

    private = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    os.dup2(replacement, fd)
    os.close(replacement)
    return private


async def serve_stdio(server: Any) -> None:
    """Serve an `MCPServer` over stdio until the client closes our stdin. Its `run_stdio_async`
    would use the SDK's reader; the low-level server it wraps takes any stream pair."""
    lowlevel = server._lowlevel_server  # the one way in to serve our own streams (SDK 2.x)
    async with stdio_wire() as (read_stream, write_stream):
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
