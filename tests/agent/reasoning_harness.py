"""Reasoning-model tests: a tool loop against replayed vendor streams, every request recorded, so a
test checks what the person saw and what konstruct sent back on the next call."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from konstruct_tui.agent import AgentLoop, CollectingReporter, KillSwitch, Limits, headless_gate
from konstruct_tui.providers import Anthropic, OpenAICompatible, OpenAIResponses, RetryPolicy
from konstruct_tui.trust import TrustStore
from konstruct_tui.workspace import Workspace

WIRE = Path(__file__).parent / "reasoning_wire"
KINDS = {"anthropic": Anthropic, "openai": OpenAICompatible, "openai-responses": OpenAIResponses}


def wire(name: str) -> bytes:
    return (WIRE / name).read_bytes()


class Served:
    """Answers each request with the next queued (status, body); keeps every request's JSON body and headers."""

    def __init__(self, *replies: tuple[int, bytes] | str) -> None:
        self.replies = [(200, wire(r)) if isinstance(r, str) else r for r in replies]
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[httpx.Headers] = []

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.bodies.append(json.loads(request.content))
        self.headers.append(request.headers)
        status, body = self.replies.pop(0)
        kind = "text/event-stream" if status == 200 else "application/json"
        pieces = [body[i : i + 23] for i in range(0, len(body), 23)]  # frames cut anywhere, as TCP does
        return httpx.Response(status, headers={"content-type": kind}, stream=_Pieces(pieces))


class _Pieces(httpx.AsyncByteStream):
    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = pieces

    async def __aiter__(self):  # type: ignore[no-untyped-def]
        for piece in self.pieces:
            yield piece


async def run_loop(project: Path, served: Served, provider: str, *, model: str, base_url: str = "http://127.0.0.1:9/v1",
                   effort: str | int | None = None, request: str = "fix add", resume: Any = None) -> tuple[Any, CollectingReporter]:
    client = httpx.AsyncClient(transport=httpx.MockTransport(served.handle))
    port = KINDS[provider](client, model=model, base_url=base_url, api_key="k", retry=RetryPolicy(attempts=1), reasoning_effort=effort)
    reporter = CollectingReporter()
    workspace = Workspace(project)
    loop = AgentLoop(workspace, port, reporter, headless_gate(workspace.root, grant=True, store=TrustStore()), Limits(), None, KillSwitch())
    finished = await loop.run(request, resume)
    return finished, reporter


def seen(reporter: CollectingReporter, name: str) -> str:
    """Everything the person was shown under one event name (text_delta or reasoning)."""
    return "".join(e.text for e in reporter.events if e.name == name)
