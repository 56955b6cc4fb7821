"""write_code: a batch of edits built on revisions; conflicts refuse, atomic batches roll back."""

from __future__ import annotations


from pydantic import Field, model_validator

from ..workspace import EditRequest
from .base import Tool, ToolContext, ToolInput, ToolResult
from .edit_batch import apply_batch


class Replacement(ToolInput):
    old: str = Field(description="exact text that occurs once in the file")
    new: str


class Edit(ToolInput):
    path: str
    revision: str | None = Field(default=None, description="revision of the read this edit is built on")
    content: str | None = Field(default=None, description="the whole new content (rewrite, or a new file)")
    replacements: list[Replacement] | None = None
    create: bool = Field(default=False, description="make a new file; fails if it exists")

    @model_validator(mode="after")
    def _one_shape(self) -> Edit:
        if self.create and self.replacements is not None:
            raise ValueError(f"{self.path!r}: a new file takes content, not replacements")
        if not self.create and (self.content is None) == (self.replacements is None):
            raise ValueError(f"{self.path!r}: give either content or replacements")
        if self.replacements is not None and not self.replacements:
            raise ValueError(f"{self.path!r}: replacements is empty")
        return self

    def request(self) -> EditRequest:
        if self.create:
            return EditRequest(self.path, "create", self.revision, self.content or "")
        if self.replacements is not None:
            pairs = tuple((r.old, r.new) for r in self.replacements)
            return EditRequest(self.path, "replace", self.revision, replacements=pairs)
        return EditRequest(self.path, "rewrite", self.revision, self.content)


class WriteCodeInput(ToolInput):
    edits: list[Edit] = Field(min_length=1)
    atomic: bool = Field(default=False, description="all or nothing: on any failure every file is restored")
    preconditions: dict[str, str] = Field(default_factory=dict, description="other files that must still be at these revisions")


class WriteCode(Tool[WriteCodeInput], name="write_code", mutating=True):
    """Change files in one batch: replacements [{old, new}] (old must occur exactly once), a full
    content rewrite, or create: true for a new file. Every edit to an existing file carries the
    revision from read_code; a file changed since is a conflict and stays untouched. Statuses:
    written, created, conflict, rejected, refused, rolled_back."""

    def run(self, params: WriteCodeInput, context: ToolContext) -> ToolResult:
        requests = [edit.request() for edit in params.edits]
        return apply_batch(self.name, context, requests, atomic=params.atomic, preconditions=params.preconditions)
