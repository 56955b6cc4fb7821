"""script: a read-only Starlark program that calls the read-only tools and computes over their
results in one call ("for every caller of X, read the lines around the call and keep those that
pass a literal None").

Why Starlark: it has no I/O, no imports and no clocks of its own, so the only way a script reaches
the project is through the functions handed to it, and those are the read-only tools, which keep
containment. Limits: steps and wall-clock through the evaluator's cancellation hook (asked about
every 1,000 instructions); memory by the kernel. The evaluator runs in a process of its own
(script_worker.py) whose address space is capped (RLIMIT_AS) before the program is read, so an
allocation past 512 MiB fails where it is made: a hook that watches the resident size sees a
single huge string operation only after it happened (four of them reached 1 GiB, issue 31). The
tools the program calls run here, in the workbench, with its workspace and containment; the
worker asks for each call over a pipe and gets JSON back.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from typing import Any

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
MAX_MESSAGE_BYTES = 64 * 1024 * 1024  # one answer or tool call from the worker
_WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "script_worker.py")
_MEMORY = f"the script used more than {MAX_MEMORY_BYTES // 2**20} MiB"


class ScriptInput(ToolInput):
    program: str = Field(description="Starlark source; the value of its last expression is the result")
    timeout_s: float = Field(default=10.0, gt=0, le=60, description="wall-clock limit")


class Script(Tool[ScriptInput], name="script", mutating=False):
    """Run a read-only Starlark program that may call read_code, search, traverse_graph, enumerate and
    git_diff (same inputs as the tools, as keyword arguments; the first positional argument is
    paths/query/mode/collection/base) and compute over their JSON results. print() is collected. The
    value of the last expression is returned as JSON. No writes, no processes, no imports; step,
    memory and time limits."""

    def run(self, params: ScriptInput, context: ToolContext) -> ToolResult:
        from .registry import TOOLS, call

        functions = {f: first for f, first in READ_ONLY_FUNCTIONS.items() if f in TOOLS and not TOOLS[f].mutating}
        request = {"program": params.program, "timeout_s": params.timeout_s, "max_steps": MAX_STEPS,
                   "max_memory_bytes": MAX_MEMORY_BYTES, "functions": functions}
        worker = subprocess.Popen([sys.executable, "-I", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, close_fds=True)
        try:
            return self._converse(worker, request, params.timeout_s, context, call)
        finally:
            if worker.poll() is None:
                worker.kill()
            worker.wait()
            for stream in (worker.stdin, worker.stdout, worker.stderr):
                if stream is not None:
                    stream.close()

    def _converse(self, worker: subprocess.Popen[bytes], request: dict[str, Any], timeout_s: float,
                  context: ToolContext, call: Any) -> ToolResult:
        assert worker.stdin is not None and worker.stdout is not None
        _write(worker, request)
        # The worker stops itself at the time limit; this one is for a worker that cannot (tool calls
        # excluded: the time a tool takes is the tool's).
        deadline = time.monotonic() + timeout_s + 10
        while True:
            ready, _, _ = select.select([worker.stdout], [], [], 0.1)
            if context.killed():
                raise ToolError("script stopped: the run was killed")
            if not ready:
                if time.monotonic() > deadline:
                    raise ToolError(f"script stopped: the script ran longer than {timeout_s:g} s")
                continue
            line = worker.stdout.readline(MAX_MESSAGE_BYTES)
            if not line:
                raise ToolError(f"script stopped: {_why_it_died(worker)}")
            if not line.endswith(b"\n"):
                raise ToolError(f"script stopped: its result or a call in it is larger than {MAX_MESSAGE_BYTES // 2**20} MiB")
            message = json.loads(line)
            if "call" in message:
                started = time.monotonic()
                try:
                    answer = {"result": call(message["call"], message.get("arguments") or {}, context).to_json()}
                except ToolError as error:
                    answer = {"error": str(error)}
                deadline += time.monotonic() - started
                _write(worker, answer)
            elif "done" in message:
                done = message["done"]
                return ToolResult(self.name, {"result": done["result"], "printed": done["printed"],
                                              "tool_calls": done["tool_calls"], "steps": done["steps"]})
            elif "stopped" in message:
                raise ToolError(f"script stopped: {_MEMORY if message['stopped'] == 'memory' else message['stopped']}")
            else:
                raise ToolError(str(message.get("error", "the script failed")))


def _write(worker: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert worker.stdin is not None
    try:
        worker.stdin.write(json.dumps(message).encode() + b"\n")
        worker.stdin.flush()
    except BrokenPipeError:
        pass  # it died: the next read says why


def _why_it_died(worker: subprocess.Popen[bytes]) -> str:
    """A worker that ended without an answer hit its memory cap (the allocator aborts it)."""
    try:
        code = worker.wait(timeout=5)
    except subprocess.TimeoutExpired:
        return "the evaluator stopped answering"
    errors = worker.stderr.read(4096).decode("utf-8", "replace") if worker.stderr is not None else ""
    if code in (-signal.SIGABRT, -signal.SIGKILL, -signal.SIGSEGV) or "memory" in errors.lower():
        return _MEMORY
    return f"the evaluator ended unexpectedly (exit {code}): {errors.strip()[-300:]}"
