"""The explicit tool registry: the only list of what the agent (and `konstruct tool`) can call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from .argument_bounds import ArgumentsTooBig, check_bounds
from .base import Tool, ToolContext, ToolError, ToolResult
from .delete_code import DeleteCode
from .enumerate_collection import Enumerate
from .git_diff import GitDiff
from .read_code import ReadCode
from .run_command import RunCommand
from .script import Script
from .search import Search
from .traverse_graph import TraverseGraph
from .write_code import WriteCode

TOOLS: dict[str, Tool[Any]] = {
    tool.name: tool
    for tool in (
        Search(), ReadCode(), WriteCode(), DeleteCode(), TraverseGraph(), Enumerate(), GitDiff(),
        Script(), RunCommand(),
    )
}


def describe() -> list[dict[str, Any]]:
    return [
        {"name": t.name, "description": t.description, "mutating": t.mutating, "input_schema": t.schema()}
        for t in TOOLS.values()
    ]


def call(name: str, arguments: object, context: ToolContext, tools: Mapping[str, Tool[Any]] = TOOLS) -> ToolResult:
    """Validate `arguments` against the tool's input model and run it. `ToolError` for bad calls.
    `tools`: the set this caller offers (a blueprint phase adds its own tools to the registry's)."""
    tool = tools.get(name)
    if tool is None:
        raise ToolError(f"unknown tool {name!r}; known tools: {', '.join(tools)}")
    if not isinstance(arguments, dict):
        raise ToolError(f"{name} takes a JSON object, not {type(arguments).__name__}")
    try:
        check_bounds(arguments)
    except ArgumentsTooBig as too_big:
        raise ToolError(f"invalid input for {name}: {too_big}") from None
    try:
        params = tool.Input.model_validate(arguments)
    except ValidationError as invalid:
        raise ToolError(f"invalid input for {name}: {_first_problem(invalid)}") from None
    return tool.run(params, context)


def _first_problem(invalid: ValidationError) -> str:
    problems = invalid.errors(include_url=False)
    first = problems[0]
    where = ".".join(str(part) for part in first["loc"] if not str(part).startswith(("str", "ReadEntry", "DeleteEntry")))
    message = first["msg"].removeprefix("Value error, ")
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{where}: {message}{more}" if where else f"{message}{more}"
