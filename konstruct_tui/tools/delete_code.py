"""delete_code: delete files, each only at the revision it was read at; atomic option."""

from __future__ import annotations


from pydantic import Field

from ..workspace import EditRequest
from .base import Tool, ToolContext, ToolInput, ToolResult
from .edit_batch import apply_batch


class DeleteEntry(ToolInput):
    path: str
    revision: str | None = Field(default=None, description="revision of the read this deletion is built on")


class DeleteCodeInput(ToolInput):
    paths: list[str | DeleteEntry] = Field(min_length=1)
    atomic: bool = False
    preconditions: dict[str, str] = Field(default_factory=dict)


class DeleteCode(Tool[DeleteCodeInput], name="delete_code", mutating=True):
    """Delete files in one batch; each entry needs the revision from read_code. Statuses: deleted,
    conflict, rejected, refused, rolled_back."""

    def run(self, params: DeleteCodeInput, context: ToolContext) -> ToolResult:
        requests = [
            EditRequest(p, "delete") if isinstance(p, str) else EditRequest(p.path, "delete", p.revision)
            for p in params.paths
        ]
        return apply_batch(self.name, context, requests, atomic=params.atomic, preconditions=params.preconditions)
