"""`konstruct mcp [--root DIR]`: the same tools as `konstruct tool`, served over MCP stdio with the
official SDK (2.x, `MCPServer`), so other agents can search, read, edit and ask the code graph.

Each registry tool is published with its own input model's JSON schema; arguments pass through to
the registry unchanged, so validation, `ToolError` messages and results are exactly those of
`konstruct tool`, with one difference: the client is usually another agent, so mutating tools and
`run_command` need the agent's grants, asked of the client by elicitation (see mcp_trust.py).
Reads run alongside anything; changes and commands take turns; a cancelled call is stopped (see
mcp_calls.py). The wire is our own (mcp_wire.py): every line the server cannot take is answered.
Results come back as structured content and as the same JSON in a text block.
"""

from __future__ import annotations

import argparse
import json
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

from .. import __version__
from .recovery import settle_interrupted
from .common import UsageError, add_command, open_workspace

if TYPE_CHECKING:  # the layers themselves load when the server starts, not to parse a command line
    from ..tools import GraphAccess, ToolContext
    from ..trust import TrustSession
    from ..workspace import Workspace

INSTRUCTIONS = (
    "Konstruct's tools for one project. Paths are relative to the project root. Start with search "
    "or traverse_graph, read with read_code (each entry has a revision), change files with write_code "
    "passing that revision. Graph answers carry a status: no_references means nothing refers to it; "
    "not_indexed means ask another way; undeterminable means draw no conclusion."
)


def register(commands: Any) -> None:
    serve = add_command(commands, "mcp", "serve the tools over MCP (stdio)", run_mcp)
    serve.add_argument("--read-only", action="store_true", help="serve only the tools that change nothing")


def run_mcp(args: argparse.Namespace) -> int:
    try:
        import mcp.server.mcpserver  # noqa: F401 - only this command needs the SDK
    except ImportError:
        raise UsageError("konstruct mcp needs the MCP SDK: pip install 'mcp>=2,<3'") from None
    from ..graph import CodeGraph
    from ..tools import ServedGraph

    import anyio

    from .mcp_wire import serve_stdio

    workspace = open_workspace(args.root)
    with workspace:
        settle_interrupted(workspace)  # an interrupted batch is settled before the client sees a file
        graph = ServedGraph(CodeGraph(workspace))  # starts indexing while the client connects
        try:
            anyio.run(serve_stdio, build_server(workspace, graph, read_only=args.read_only))
        finally:
            graph.close()
    _leave_now_if_held()
    return 0


def _leave_now_if_held() -> None:
    """The client is gone. A read left running in a worker thread (say, waiting for a first index)
    must not keep the process alive: the server ends within a second of stdin closing."""
    import os
    import sys
    import threading
    import time

    deadline = time.monotonic() + 0.3
    while time.monotonic() < deadline:
        held = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon and t.is_alive()]
        if not held:
            return
        time.sleep(0.02)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def build_server(workspace: Workspace, graph: GraphAccess, *, read_only: bool = False) -> Any:
    import anyio
    from mcp.server.mcpserver import MCPServer

    from ..tools import TOOLS, ToolContext
    from ..trust import TrustSession
    from ..workspace import WriteJournal
    from .mcp_calls import handshake_gate

    context = ToolContext(workspace, journal=WriteJournal(workspace.root), graph=graph)
    session = TrustSession(workspace.root)  # the stored `always` grants, and this server's own
    context.trust = session
    changes = anyio.Lock()  # writes, deletes and commands take turns; reads never wait for them
    names = [name for name, tool in TOOLS.items() if not (read_only and tool.mutating)]
    tools = [_published(name, context, session, changes) for name in names]
    return MCPServer(name="konstruct", version=__version__, instructions=INSTRUCTIONS, tools=tools,
                     log_level="WARNING", middleware=[handshake_gate()])


def _published(name: str, context: ToolContext, session: TrustSession, lock: Any) -> Any:
    """One registry tool as an SDK tool: our schema, arguments passed through untouched."""
    from mcp.server.mcpserver import Context
    from mcp.server.mcpserver.exceptions import ToolError as MCPToolError
    from mcp.server.mcpserver.tools.base import Tool as SDKTool
    from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
    from mcp_types import CallToolResult, TextContent, ToolAnnotations
    from pydantic import ConfigDict

    from ..tools import TOOLS, ToolError
    from .mcp_calls import call_context
    from .mcp_trust import GrantRefused, guarded_call

    class Arguments(ArgModelBase):
        model_config = ConfigDict(extra="allow")

        def model_dump_one_level(self) -> dict[str, Any]:
            return {"arguments": dict(self.model_extra or {})}

    tool = TOOLS[name]

    async def handler(arguments: dict[str, Any], ctx: Context) -> CallToolResult:
        async with lock if tool.mutating else nullcontext():
            try:
                payload = (await guarded_call(name, arguments, call_context(context), session, ctx)).to_json()
            except (ToolError, GrantRefused) as error:
                raise MCPToolError(context.workspace.scrub(str(error))) from None
        text = json.dumps(payload, ensure_ascii=False)
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=payload)

    return SDKTool(
        fn=handler,
        name=name,
        description=tool.description,
        parameters=tool.schema(),
        fn_metadata=FuncMetadata(arg_model=Arguments),
        is_async=True,
        context_kwarg="ctx",
        annotations=ToolAnnotations(read_only_hint=not tool.mutating, destructive_hint=tool.mutating),
    )
