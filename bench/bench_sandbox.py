"""Sandbox figures: what confinement costs a command's start, and what a Starlark script saves.

    python bench/bench_sandbox.py [--rounds N] [--searches N]

1. Start-up overhead of confinement. Baseline: the same `run_process(["true"], ...)` the command
   layer runs today, unconfined, with the same scrubbed environment. Measured: the same call inside
   `Confinement(plan)` for the default `workspace-write` plan (ruleset built in the parent, a
   throwaway confined thread that starts the child, a private TMPDIR). Pairs are interleaved (A B,
   B A, ...) so drift on a shared machine hits both sides; the figure is the ratio of medians
   (goal <= 1.1x). Two cadences: back to back ("burst") and with 20 ms between commands (an agent's
   pace: the temp-folder pool refills between commands). The workspace is a git repository, so the
   plan keeps `.git` read-only; where private namespaces are available, the same figure without them. Also the whole `run_command` tool call,
   confined vs `full` (unconfined), which adds the policy and script discovery to both sides.
2. Starlark: one `script` call doing N `search` calls vs N separate `call("search", ...)` calls,
   on a small generated project. Prints both medians and the ratio (script / separate calls).
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from konstruct_tui.commands import run_process, scrubbed_environment
from konstruct_tui.sandbox import Confinement, SandboxSettings, kernel_abi, namespaces, plan_for
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import Workspace


def _paired(a: Callable[[], object], b: Callable[[], object], rounds: int, gap_s: float) -> tuple[float, float]:
    times_a: list[float] = []
    times_b: list[float] = []
    for k in range(rounds):
        order = ((a, times_a), (b, times_b)) if k % 2 == 0 else ((b, times_b), (a, times_a))
        for work, sink in order:
            if gap_s:
                time.sleep(gap_s)
            started = time.perf_counter()
            work()
            sink.append(time.perf_counter() - started)
    return statistics.median(times_a), statistics.median(times_b)


def startup_figures(rounds: int) -> None:
    root = Path(tempfile.mkdtemp(prefix="bench-sandbox-"))
    subprocess.run(["git", "init", "-q", str(root)], check=True)  # a .git to keep read-only, as in a real project
    env = scrubbed_environment()
    plan = plan_for(root, SandboxSettings())
    print(f"Landlock ABI {kernel_abi()}; plan: {plan.report()}")
    if plan.namespaces:
        # The same measurement without the private namespaces, to show what they cost.
        os.environ[namespaces.DISABLE] = "1"
        flat = plan_for(root, SandboxSettings())
        del os.environ[namespaces.DISABLE]

        def flat_confined() -> None:
            with Confinement(flat) as confinement:
                assert run_process(["true"], root, timeout_s=30, env=env, confinement=confinement).status == "ok"
    else:
        flat_confined = None

    def unconfined() -> None:
        assert run_process(["true"], root, timeout_s=30, env=env).status == "ok"

    def confined() -> None:
        with Confinement(plan) as confinement:
            assert run_process(["true"], root, timeout_s=30, env=env, confinement=confinement).status == "ok"

    for _ in range(20):  # warm-up: imports, page cache, the temp-folder pool
        unconfined()
        confined()
    for label, gap in (("burst", 0.0), ("20 ms apart", 0.02)):
        base, boxed = _paired(unconfined, confined, rounds, gap)
        print(f"start `true` ({label}): unconfined {base * 1e3:.2f} ms, confined {boxed * 1e3:.2f} ms, "
              f"ratio {boxed / base:.3f}x (goal <= 1.1x), median of {rounds}")
    if flat_confined is not None:
        base, boxed = _paired(unconfined, flat_confined, rounds, 0.02)
        print(f"start `true` (20 ms apart, Landlock + seccomp without namespaces): unconfined {base * 1e3:.2f} ms, "
              f"confined {boxed * 1e3:.2f} ms, ratio {boxed / base:.3f}x")

    with Workspace(root) as workspace:
        arguments = {"command": shlex.join(["true"])}

        def tool(settings: SandboxSettings) -> Callable[[], None]:
            context = ToolContext(workspace)
            context.sandbox = settings  # type: ignore[attr-defined]
            return lambda: call("run_command", arguments, context)

        base, boxed = _paired(tool(SandboxSettings(mode="full")), tool(SandboxSettings()), rounds, 0.02)
        print(f"run_command `true` (20 ms apart): full {base * 1e3:.2f} ms, workspace-write {boxed * 1e3:.2f} ms, "
              f"ratio {boxed / base:.3f}x")


def starlark_figures(rounds: int, searches: int) -> None:
    root = Path(tempfile.mkdtemp(prefix="bench-starlark-"))
    for k in range(40):
        (root / f"mod_{k}.py").write_text(
            "".join(f"def func_{k}_{j}(x):\n    return helper_{j % 7}(x)\n\n" for j in range(25)))
    program = (
        f"counts = []\nfor k in range({searches}):\n"
        "    counts.append(len(search(query = 'helper_' + str(k % 7), match = 'text', limit = 5)['results']))\n"
        "counts\n"
    )
    with Workspace(root) as workspace:
        context = ToolContext(workspace)

        def one_script() -> None:
            payload = call("script", {"program": program, "timeout_s": 60}, context).to_json()
            assert len(payload["result"]) == searches, payload

        def separate_calls() -> None:
            for k in range(searches):
                call("search", {"query": f"helper_{k % 7}", "match": "text", "limit": 5}, context)

        one_script()
        separate_calls()
        script_s, calls_s = _paired(one_script, separate_calls, rounds, 0.0)
    print(f"{searches} searches: one script call {script_s * 1e3:.1f} ms, {searches} separate tool calls "
          f"{calls_s * 1e3:.1f} ms, ratio {script_s / calls_s:.3f}x (script / separate), median of {rounds}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--searches", type=int, default=100)
    parser.add_argument("--starlark-rounds", type=int, default=7)
    args = parser.parse_args()
    if kernel_abi() == 0:
        print("this kernel has no Landlock: nothing to measure for confinement")
    else:
        startup_figures(args.rounds)
    starlark_figures(args.starlark_rounds, args.searches)


if __name__ == "__main__":
    sys.exit(main())
