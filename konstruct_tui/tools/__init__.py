"""The agent-facing tools: one module per tool, an explicit registry, plain Python, no UI."""

from .base import Tool, ToolContext, ToolError, ToolInput, ToolResult
from .registry import TOOLS, call, describe

__all__ = ["TOOLS", "Tool", "ToolContext", "ToolError", "ToolInput", "ToolResult", "call", "describe"]
