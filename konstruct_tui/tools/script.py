"""script: a read-only Starlark program that calls the read-only tools and computes over their
results in one call ("for every caller of X, read the lines around the call and keep those that
pass a literal None").

Why Starlark: it has no I/O, no imports and no clocks of its own, so the only way a script reaches
the project is through the functions handed to it, and those are the read-only tools, which keep
containment. Limits are enforced here: steps and wall-clock through the evaluator's cancellation
hook (asked about every 1,000 instructions), memory by watching this process's resident size at the
same hook — a single huge allocation can overshoot before it is seen, which is why the limit is
modest and Starlark itself caps a repetition at 2^31 elements.
"""

from __future__ import annotations

import json
import os
import re
import time
from typing import Any, ClassVar

from pydantic import Field

from .base import Tool, ToolContext, ToolError, ToolInput, ToolResult

READ_ONLY_FUNCTIONS = {
    "read_code": "paths",
    "search": "query",
    "traverse_graph": "mode",
    "enumerate": "collection",
    "git_diff": "base",
}
MAX_STEPS = 20_000_000
MAX_MEMORY_BYTES = 512 * 1024 * 1024
_PAGE = os.sysconf("SC_PAGE_SIZE")
_NOT_JSON = "the script's result is not JSON data; end with a dict, list, string, number or None"


class ScriptInput(ToolInput):
    program: str = Field(description="Starlark source; the value of its last expression is the result")
    timeout_s: float = Field(default=10.0, gt=0, le=60, description="wall-clock limit")


class _Limits:
    """The evaluator's cancellation hook: says why it stopped the script, if it did."""

    def __init__(self, timeout_s: float, killed: Any) -> None:
        self.deadline = time.monotonic() + timeout_s
        self.timeout_s = timeout_s
        self.baseline = _resident_bytes()
        self.checks = 0
        self.killed = killed
        self.reason: str | None = None

    def __call__(self) -> bool:
        self.checks += 1
        if self.checks * 1000 > MAX_STEPS:
            self.reason = f"the script ran more than {MAX_STEPS:,} steps"
        elif time.monotonic() > self.deadline:
            self.reason = f"the script ran longer than {self.timeout_s:g} s"
        elif _resident_bytes() - self.baseline > MAX_MEMORY_BYTES:
            self.reason = f"the script used more than {MAX_MEMORY_BYTES // 2**20} MiB"
        elif self.killed():
            self.reason = "the run was killed"
        return self.reason is not None


class Script(Tool[ScriptInput]):
    name: ClassVar[str] = "script"
    description: ClassVar[str] = (
        "Run a read-only Starlark program that may call read_code, search, traverse_graph, enumerate "
        "and git_diff (same inputs as the tools, as keyword arguments; the first positional argument "
        "is paths/query/mode/collection/base) and compute over their JSON results. print() is "
        "collected. The value of the last expression is returned as JSON. No writes, no processes, "
        "no imports; step, memory and time limits."
    )
    Input = ScriptInput
    mutating: ClassVar[bool] = False

    def run(self, params: ScriptInput, context: ToolContext) -> ToolResult:
        import starlark

        from .registry import TOOLS, call

        printed: list[str] = []
        calls = {"count": 0}
        module = starlark.Module()
        for function, first in READ_ONLY_FUNCTIONS.items():
            tool = TOOLS.get(function)
            if tool is not None and not tool.mutating:
                module.add_callable(function, _bridge(function, first, context, call, calls))
        module.add_callable("print", lambda *args: printed.append(" ".join(_text(a) for a in args)))
        limits = _Limits(params.timeout_s, context.killed)
        globals_ = starlark.Globals.extended_by([starlark.LibraryExtension.Json, starlark.LibraryExtension.StructType])
        try:
            ast = starlark.parse("script.star", params.program, starlark.Dialect.extended())
            value = starlark.eval_with(starlark.EvalOptions(check_cancelled=limits), module, ast, globals_).value
        except starlark.StarlarkError as error:
            if limits.reason:
                raise ToolError(f"script stopped: {limits.reason}") from None
            if "serde::serialize" in str(error):
                raise ToolError(_NOT_JSON) from None
            raise ToolError(_starlark_message(str(error))) from None
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            raise ToolError(_NOT_JSON) from None
        return ToolResult(self.name, {"result": value, "printed": printed, "tool_calls": calls["count"], "steps": limits.checks * 1000})


def _bridge(function: str, first: str, context: ToolContext, call: Any, calls: dict[str, int]) -> Any:
    def invoke(*args: Any, **kwargs: Any) -> Any:
        if function == "enumerate" and _is_builtin_enumerate(args, kwargs):
            # The tool shares its name with Starlark's enumerate(); a list argument means the builtin.
            start = kwargs.get("start", args[1] if len(args) > 1 else 0)
            return [(start + i, item) for i, item in enumerate(args[0])]
        if len(args) > 1:
            raise ValueError(f"{function}() takes at most one positional argument ({first}); pass the rest by name")
        arguments = dict(kwargs)
        if args:
            arguments[first] = args[0]
        calls["count"] += 1
        try:
            return call(function, arguments, context).to_json()
        except ToolError as error:
            raise ValueError(str(error)) from None

    return invoke


def _is_builtin_enumerate(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    return bool(args) and not isinstance(args[0], str) and set(kwargs) <= {"start"}


def _starlark_message(text: str) -> str:
    """The error and the Starlark line it happened on, without the ASCII-art frame."""
    error = next((line.strip() for line in text.splitlines() if line.strip().startswith("error:")), text.strip())
    where = re.findall(r"script\.star:(\d+)(?::(\d+))?", text)
    line = f" (line {where[-1][0]})" if where else ""
    return f"script error{line}: {error.removeprefix('error:').strip()}"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, default=str)


def _resident_bytes() -> int:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except OSError:
        return 0
