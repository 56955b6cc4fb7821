"""The agent-facing tools (DESIGN.md §6): one module per tool, an explicit registry (`TOOLS`), and
`call` to validate and run one. Plain Python, no UI; `tools/` never imports `agent/`.

Public names: `TOOLS` / `call` / `describe` (the registry), `Tool` / `ToolInput` / `ToolResult` /
`ToolContext` / `ToolError` (what a tool is), `ForegroundGraph` (the graph a headless caller uses), `WriteCodeInput` (an edit batch, for previews).
"""

from .argument_bounds import MAX_DEPTH as MAX_ARGUMENT_DEPTH
from .argument_bounds import ArgumentsTooBig, check_bounds
from .base import Tool, ToolContext, ToolError, ToolInput, ToolResult
from .globs import matches
from .graph_access import ForegroundGraph, GraphAccess
from .registry import TOOLS, call, describe
from .served_graph import ServedGraph
from .write_code import WriteCodeInput

__all__ = [
    "MAX_ARGUMENT_DEPTH",
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
]
