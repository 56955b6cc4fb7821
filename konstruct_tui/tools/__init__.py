"""The agent-facing tools (DESIGN.md §6): one module per tool, an explicit registry (`TOOLS`), and
`call` to validate and run one. Plain Python, no UI; `tools/` never imports `agent/`.

Public names: `TOOLS` / `call` / `describe` (the registry), `Tool` / `ToolInput` / `ToolResult` /
`ToolContext` / `ToolError` (what a tool is), `ForegroundGraph` (the graph a headless caller uses), `WriteCodeInput` (an edit batch, for previews),
`stored_policy` (the project's command policy as the user set it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..package_face import lazy_face

if TYPE_CHECKING:
    from .argument_bounds import MAX_DEPTH, ArgumentsTooBig, check_bounds
    from .base import Tool, ToolContext, ToolError, ToolInput, ToolResult
    from .globs import matches
    from .graph_access import ForegroundGraph, GraphAccess
    from .registry import TOOLS, call, describe
    from .run_command import stored_policy
    from .served_graph import ServedGraph
    from .write_code import WriteCodeInput

__all__ = [
    "MAX_DEPTH",
    "ArgumentsTooBig",
    "check_bounds",
    "TOOLS",
    "ForegroundGraph",
    "GraphAccess",
    "ServedGraph",
    "Tool",
    "ToolContext",
    "ToolError",
    "ToolInput",
    "ToolResult",
    "WriteCodeInput",
    "call",
    "describe",
    "matches",
    "stored_policy",
]

__getattr__, __dir__ = lazy_face(__name__, __file__)
