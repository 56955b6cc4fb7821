"""write_code and delete_code apply their edits the same way: one batch (all or nothing when atomic,
checked against other files' revisions), journalled for undo, with what the graph says of the change."""

from __future__ import annotations

from ..workspace import EditRequest, apply_edits
from .base import ToolContext, ToolResult
from .enrichment import enrich_writes


def apply_batch(tool: str, context: ToolContext, requests: list[EditRequest], *, atomic: bool,
                preconditions: dict[str, str]) -> ToolResult:
    payload = enrich_writes(context, lambda: apply_edits(
        context.workspace,
        requests,
        atomic=atomic,
        preconditions=preconditions,
        run=context.run,
        journal=context.journal,
        tool=tool,
        killed=context.killed,
    ))
    return ToolResult(tool, payload)
