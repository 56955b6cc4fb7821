"""`konstruct run "REQUEST"`: one headless agent run, its events printed as JSON lines on stdout.

Exit codes: 0 done, 1 error, 2 bad usage (nothing ran), 3 max_turns, 4 max_tokens, 5 max_cost,
124 timeout, 130 killed (SIGINT or SIGTERM is the kill switch; a second SIGINT exits at once).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import gc
import json
import os
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .common import UsageError, open_workspace

if TYPE_CHECKING:  # the agent layer loads when a run starts, not to parse (or refuse) a command line
    from ..agent import AgentLoop
    from ..agent.events import AgentEvent
    from ..agent.sessions import SessionRecord
    from ..workspace import Workspace

EXIT_CODES = {"done": 0, "error": 1, "max_turns": 3, "max_tokens": 4, "max_cost": 5, "timeout": 124, "killed": 130}


def register(commands: Any) -> None:
    run = commands.add_parser("run", help="one headless agent run; events as JSON lines")
    run.add_argument("request", nargs="?", metavar="REQUEST", help="what the agent should do ('-' reads it from stdin)")
    run.add_argument("--root", default=None, metavar="DIR", help="the project root (default: the current directory, or the resumed session's)")
    run.add_argument("--provider", choices=("openai", "anthropic", "scripted"), help="model provider (default: config, else openai)")
    run.add_argument("--model", metavar="M", help="model name")
    run.add_argument("--base-url", metavar="URL", help="server base URL (any OpenAI-compatible server: Ollama, vLLM, llama.cpp, LM Studio)")
    run.add_argument("--script", metavar="FILE", help="the script the scripted provider replays")
    run.add_argument("--max-turns", type=_positive_int, default=50, metavar="N", help="turn budget (default 50)")
    run.add_argument("--max-tokens", type=_positive_int, metavar="N", help="token budget, input + output")
    run.add_argument("--max-cost", type=_positive_float, metavar="USD", help="cost budget in US dollars")
    run.add_argument("--timeout", type=_positive_float, metavar="S", help="wall-clock limit for the whole run, in seconds")
    run.add_argument("--turn-timeout", type=_positive_float, metavar="S", help="deadline for one model turn (default 300, or the config's)")
    run.add_argument("--yes", action="store_true", help="grant edits and commands for this run only (nothing is stored)")
    run.add_argument("--resume", metavar="ID", help="continue the session with this id")
    run.set_defaults(handler=run_agent)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be greater than 0")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number")
    return value


def run_agent(args: argparse.Namespace) -> int:
    from ..agent import AgentLoop, KillSwitch, Limits, headless_gate
    from ..providers import ConfigInvalid, ScriptInvalid, open_provider, resolve
    from ..workspace import WriteJournal

    # Tearing the interpreter down collects every object of the loaded libraries, which took 300-600
    # ms here: after a Ctrl-C the process should be gone at once. Frozen objects are skipped by that
    # last collection; registered at exit, so nothing changes while the process (or a test) runs.
    atexit.register(gc.freeze)
    if args.request == "-":
        args.request = sys.stdin.read()
    record = _resumed(args.resume) if args.resume else None
    if record is None and not (args.request or "").strip():
        raise UsageError("give a REQUEST (or --resume ID)")
    header = record.header if record else {}
    root = args.root or header.get("root") or "."
    if record and args.root and os.path.realpath(args.root) != os.path.realpath(header.get("root", "")):
        raise UsageError(f"session {record.session_id} belongs to another project; leave out --root to use its own")
    provider = args.provider or (header.get("provider") if record else None)
    script = args.script or (header.get("script") if record and provider == "scripted" and not args.script else None)
    try:
        settings = resolve(
            provider=provider,
            model=args.model or (header.get("model") if record and provider == header.get("provider") and provider != "scripted" else None),
            base_url=args.base_url,
            script=script,
            turn_deadline_s=args.turn_timeout,
        )
        model = open_provider(settings)
    except (ConfigInvalid, ScriptInvalid) as error:
        raise UsageError(str(error)) from None
    workspace = open_workspace(root)
    limits = Limits(args.max_turns, args.max_tokens, args.max_cost, args.timeout)
    with workspace:
        loop = AgentLoop(
            workspace,
            model,
            JsonLinesReporter(),
            headless_gate(workspace.root, grant=args.yes),
            limits,
            settings.price(),
            KillSwitch(),
            neighborhood_ranker(),
            WriteJournal(workspace.root),
            getattr(model, "note", None),
            {"script": os.path.abspath(settings.script)} if settings.script else {},
        )
        loop.context_chars = settings.context_chars() or loop.context_chars
        finished = asyncio.run(_drive(loop, None if record else args.request, record, args.request if record else None))
    if finished.reason == "error":
        # The JSON lines are for programs; a person watching the terminal reads this line.
        print(f"konstruct run: error: {finished.message}", file=sys.stderr)
    return EXIT_CODES.get(finished.reason, 1)


def _resumed(session_id: str) -> SessionRecord:
    from ..agent import SessionMissing, load_session

    try:
        return load_session(session_id)
    except SessionMissing as missing:
        raise UsageError(str(missing)) from None


async def _drive(loop: AgentLoop, request: str | None, record: SessionRecord | None, follow_up: str | None) -> Any:
    """Run the loop with SIGINT/SIGTERM wired to its kill switch; close the provider afterwards."""
    events = asyncio.get_running_loop()

    def kill() -> None:
        loop.switch.kill("killed")
        events.remove_signal_handler(signal.SIGINT)  # a second Ctrl-C is the default: exit at once

    events.add_signal_handler(signal.SIGINT, kill)
    events.add_signal_handler(signal.SIGTERM, lambda: loop.switch.kill("killed"))
    try:
        return await loop.run(follow_up if record else request, record)
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            events.remove_signal_handler(signum)
        await loop.model.aclose()


class JsonLinesReporter:
    """One JSON object per line on stdout, flushed at once so a reader sees each event as it happens."""

    def report(self, event: AgentEvent) -> None:
        from ..agent import event_json

        try:
            sys.stdout.write(json.dumps(event_json(event), ensure_ascii=False) + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            pass  # the reader went away; the run goes on and its session is still written


def neighborhood_ranker() -> Callable[[Workspace, str], list[dict[str, Any]]] | None:
    """The code graph's ranking of neighborhoods against the request, from an index that already
    exists (never built here: the run must not wait for it). None when the graph layer is absent."""
    try:
        from ..graph.neighborhoods import rank_neighborhoods
        from ..tools.graph_access import ForegroundGraph
    except ImportError:
        return None

    def rank(workspace: Workspace, request: str) -> list[dict[str, Any]]:
        snapshot = ForegroundGraph(workspace).ensure(existing_only=True)
        if snapshot is None:
            return []
        return [hood.to_json(limit=20) for hood, _score in rank_neighborhoods(snapshot, request)]

    return rank
