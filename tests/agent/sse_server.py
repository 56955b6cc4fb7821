"""A small loopback HTTP server (stdlib) that answers each POST with the next queued reply: an error
status with headers, a recorded SSE body, or an SSE body that then hangs. It notes when a client
closes a hanging stream, which fakellm cannot show (and fakellm cannot send 429 with Retry-After on
a streaming request). Used by the end-to-end tests and bench/bench_kill.py."""

from __future__ import annotations

import json
import select
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    hang: bool = False  # after the body, keep the connection open and silent until the client leaves


class SSEServer:
    def __init__(self, replies: list[Reply] | None = None) -> None:
        self.replies = list(replies or [])
        self.requests: list[dict] = []
        self.client_left = threading.Event()
        self.client_left_at: float | None = None
        self.hanging = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                server.requests.append({"path": self.path, "headers": dict(self.headers), "body": json.loads(self.rfile.read(length) or b"{}")})
                reply = server.replies.pop(0) if server.replies else Reply(500, body=b'{"error": {"message": "no reply queued"}}')
                self.send_response(reply.status)
                for name, value in {"content-type": "text/event-stream" if reply.status == 200 else "application/json", **reply.headers}.items():
                    self.send_header(name, value)
                if not reply.hang:
                    self.send_header("content-length", str(len(reply.body)))
                else:
                    self.send_header("connection", "close")
                self.end_headers()
                self.wfile.write(reply.body)
                self.wfile.flush()
                if reply.hang:
                    server.hanging.set()
                    server._wait_for_client_to_leave(self.connection)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def _wait_for_client_to_leave(self, connection) -> None:
        while True:
            readable, _, _ = select.select([connection], [], [], 0.005)
            if readable:
                try:
                    if not connection.recv(1, 0):
                        break
                except OSError:
                    break
        self.client_left_at = time.monotonic()
        self.client_left.set()

    def __enter__(self) -> SSEServer:  # noqa: PYI034
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def openai_text(*words: str) -> bytes:
    frames = [{"choices": [{"index": 0, "delta": {"content": w}, "finish_reason": None}]} for w in words]
    return b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames)


def openai_done(text: str) -> bytes:
    frames = [{"choices": [{"index": 0, "delta": {"content": text}}]}, {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
              {"choices": [], "usage": {"prompt_tokens": 40, "completion_tokens": 5}}]
    return b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames) + b"data: [DONE]\n\n"
