"""The Starlark evaluator's own process, capped by the kernel: RLIMIT_AS is set before the program
is read, so an allocation past the limit fails where it is made (the evaluator's allocator aborts
this process), never after it happened. Four string operations cannot reach 1 GiB.

Run as a file (`python -I script_worker.py`), never imported by the workbench: it needs nothing
but `starlark` and the standard library. It speaks JSON lines on stdin/stdout with the `script`
tool (tools/script.py): it receives the program, asks the tool to run each read-only function it
calls (the tools themselves stay in the workbench, with its workspace and containment), and
answers with the result or the reason it stopped.
"""

from __future__ import annotations

import json
import os
import re
import resource
import sys
import time
from typing import Any

_NOT_JSON = "the script's result is not JSON data; end with a dict, list, string, number or None"


def _send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _address_space() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


class _Limits:
    def __init__(self, timeout_s: float, max_steps: int) -> None:
        self.deadline = time.monotonic() + timeout_s
        self.timeout_s = timeout_s
        self.max_steps = max_steps
        self.checks = 0
        self.reason: str | None = None

    def __call__(self) -> bool:
        self.checks += 1
        if self.checks * 1000 > self.max_steps:
            self.reason = f"the script ran more than {self.max_steps:,} steps"
        elif time.monotonic() > self.deadline:
            self.reason = f"the script ran longer than {self.timeout_s:g} s"
        return self.reason is not None


def _bridge(function: str, first: str, calls: dict[str, int]) -> Any:
    def invoke(*args: Any, **kwargs: Any) -> Any:
        if function == "enumerate" and args and not isinstance(args[0], str) and set(kwargs) <= {"start"}:
            # The tool shares its name with Starlark's enumerate(); a list argument means the builtin.
            start = kwargs.get("start", args[1] if len(args) > 1 else 0)
            return [(start + i, item) for i, item in enumerate(args[0])]
        if len(args) > 1:
            raise ValueError(f"{function}() takes at most one positional argument ({first}); pass the rest by name")
        arguments = dict(kwargs)
        if args:
            arguments[first] = args[0]
        calls["count"] += 1
        _send({"call": function, "arguments": arguments})
        answer = json.loads(sys.stdin.readline() or '{"error": "the workbench went away"}')
        if "error" in answer:
            raise ValueError(answer["error"])
        return answer["result"]

    return invoke


def _starlark_message(text: str) -> str:
    """The error and the Starlark line it happened on, without the ASCII-art frame."""
    error = next((line.strip() for line in text.splitlines() if line.strip().startswith("error:")), text.strip())
    where = re.findall(r"script\.star:(\d+)(?::(\d+))?", text)
    line = f" (line {where[-1][0]})" if where else ""
    return f"script error{line}: {error.removeprefix('error:').strip()}"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, default=str)


def main() -> None:
    import starlark

    request = json.loads(sys.stdin.readline())
    # The cap, before anything of the program runs: what the evaluator has now plus the script's allowance.
    cap = _address_space() + int(request["max_memory_bytes"])
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    printed: list[str] = []
    calls = {"count": 0}
    module = starlark.Module()
    for function, first in request["functions"].items():
        module.add_callable(function, _bridge(function, first, calls))
    module.add_callable("print", lambda *args: printed.append(" ".join(_text(a) for a in args)))
    limits = _Limits(float(request["timeout_s"]), int(request["max_steps"]))
    globals_ = starlark.Globals.extended_by([starlark.LibraryExtension.Json, starlark.LibraryExtension.StructType])
    try:
        ast = starlark.parse("script.star", request["program"], starlark.Dialect.extended())
        value = starlark.eval_with(starlark.EvalOptions(check_cancelled=limits), module, ast, globals_).value
    except MemoryError:
        _send({"stopped": "memory"})
        return
    except starlark.StarlarkError as error:
        if limits.reason:
            _send({"stopped": limits.reason})
        elif "serde::serialize" in str(error):
            _send({"error": _NOT_JSON})
        elif "memory allocation" in str(error) or "capacity overflow" in str(error):
            _send({"stopped": "memory"})
        else:
            _send({"error": _starlark_message(str(error))})
        return
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        _send({"error": _NOT_JSON})
        return
    _send({"done": {"result": value, "printed": printed, "tool_calls": calls["count"], "steps": limits.checks * 1000}})


if __name__ == "__main__":
    main()
