"""How `konstruct mcp` runs its calls: side by side where the tools allow, and each one stoppable.

Tools run in worker threads (a command may run for minutes). Reads run alongside anything; the
tools that change files or run commands take turns (the edit guards of one run are not meant for
interleaving, and a test run should not see a batch half written).

Each call has its own `Cancellation`. When the client cancels the request
(`notifications/cancelled`), or the client goes away (stdin closed), the SDK cancels the handler;
this cancels the call: a running command and everything it started are killed at once, and a batch
stops between its entries (the kill switch's own rules). A read is simply left to finish on its
own. Per the MCP spec a cancelled request gets no response; it ends there.

Before `initialize` every request but `ping` is answered with JSON-RPC's Invalid Request error
naming the handshake, not the SDK's bare "Invalid request parameters".
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from ..commands import Cancellation
from ..tools import ToolContext

T = TypeVar("T")

STOP_WAIT_S = 5.0  # how long a cancelled change is waited for before it is left to finish alone
_HANDSHAKE_FREE = frozenset({"initialize", "ping"})


def call_context(context: ToolContext) -> ToolContext:
    """The server's context for one call: shared workspace, journal, graph and edit run, with the
    call's own kill switch."""
    cancellation = Cancellation()
    return replace(context, cancellation=cancellation, killed=lambda: cancellation.cancelled)


async def in_thread(function: Callable[[], T], context: ToolContext, *, wait_on_cancel: bool) -> T:
    """Run `function` in a worker thread. If the awaiting task is cancelled, cancel the call's
    `Cancellation` (killing its command tree) and, with `wait_on_cancel` (a change), wait up to
    STOP_WAIT_S for the thread to stop before the cancellation goes on."""
    import anyio

    done = threading.Event()

    def run() -> T:
        try:
            return function()
        finally:
            done.set()

    try:
        return await anyio.to_thread.run_sync(run, abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        if context.cancellation is not None:
            context.cancellation.cancel()
        if wait_on_cancel:
            with anyio.CancelScope(shield=True):
                deadline = time.monotonic() + STOP_WAIT_S
                while not done.is_set() and time.monotonic() < deadline:
                    await anyio.sleep(0.01)
        raise


def handshake_gate() -> Any:
    """SDK middleware: a request before `initialize` gets the protocol's error, not a bare one."""
    from mcp.shared.exceptions import MCPError
    from mcp_types import INVALID_REQUEST

    async def gate(ctx: Any, call_next: Any) -> Any:
        if ctx.request_id is not None and ctx.method not in _HANDSHAKE_FREE and _before_handshake(ctx):
            raise MCPError(code=INVALID_REQUEST,
                           message=f"server not initialized: send `initialize` (and then `notifications/initialized`) "
                                   f"before {ctx.method!r}")
        return await call_next(ctx)

    return gate


def _before_handshake(ctx: Any) -> bool:
    connection = getattr(ctx.session, "_connection", None)
    accepted = getattr(connection, "initialize_accepted", None)
    if isinstance(accepted, bool):
        return not accepted
    return getattr(ctx.session, "client_params", True) is None  # an SDK that hides the connection
