"""read_code: read many files (or line ranges) in one call, each entry with its own status."""

from __future__ import annotations


from pydantic import Field, model_validator

from ..workspace import DEFAULT_MAX_BYTES, ReadRequest, read_batch
from .base import Tool, ToolContext, ToolInput, ToolResult
from .enrichment import enrich_reads


class ReadEntry(ToolInput):
    path: str
    start_line: int | None = Field(default=None, ge=1, description="first line, 1-based")
    end_line: int | None = Field(default=None, ge=1, description="last line, inclusive")

    @model_validator(mode="after")
    def _ordered(self) -> ReadEntry:
        if self.start_line and self.end_line and self.end_line < self.start_line:
            raise ValueError(f"end_line {self.end_line} is before start_line {self.start_line}")
        return self


class ReadCodeInput(ToolInput):
    paths: list[str | ReadEntry] = Field(min_length=1, description="workspace-relative paths or {path, start_line, end_line}")
    max_bytes: int = Field(default=DEFAULT_MAX_BYTES, ge=1, le=64 * 1024 * 1024, description="byte budget for the whole batch")
    line_numbers: bool = Field(default=False, description="also return each range with line numbers, as `numbered`")


class ReadCode(Tool[ReadCodeInput], name="read_code", mutating=False):
    """Read files or line ranges in one batch. Each entry has a status (ok, not_found, refused,
    skipped, binary, too_large) and a revision (sha256 of the exact bytes): pass that revision to
    write_code or delete_code when you change the file."""

    def run(self, params: ReadCodeInput, context: ToolContext) -> ToolResult:
        requests = [
            ReadRequest(p) if isinstance(p, str) else ReadRequest(p.path, p.start_line, p.end_line)
            for p in params.paths
        ]
        payload = read_batch(context.workspace, requests, max_bytes=params.max_bytes, line_numbers=params.line_numbers)
        return ToolResult(self.name, enrich_reads(context, payload))
