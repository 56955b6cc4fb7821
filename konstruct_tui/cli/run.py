"""`konstruct run "REQUEST"`: one headless agent run, its events printed as JSON lines on stdout.

Exit codes: 0 done, 1 error, 2 bad usage (nothing ran), 3 max_turns, 4 max_tokens, 5 max_cost,
124 timeout, 130 killed (SIGINT or SIGTERM is the kill switch; a second SIGINT exits at once).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import gc
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

from .recovery import settle_interrupted
from ..untrusted_text import neutralise
from .common import JsonLinesReporter, UsageError, open_workspace, positive_number, whole_number

if TYPE_CHECKING:  # the agent layer loads when a run starts, not to parse (or refuse) a command line
    from ..agent import AgentLoop, SessionRecord

EXIT_CODES = {"done": 0, "error": 1, "max_turns": 3, "max_tokens": 4, "max_cost": 5, "timeout": 124, "killed": 130}


def register(commands: Any) -> None:
    run = commands.add_parser("run", help="one headless agent run; events as JSON lines")
    run.add_argument("request", nargs="?", metavar="REQUEST", help="what the agent should do ('-' reads it from stdin)")
    run.add_argument("--root", default=None, metavar="DIR", help="the project root (default: the current directory, or the resumed session's)")
    run.add_argument("--provider", choices=("openai", "openai-responses", "anthropic", "scripted"), help="model provider (default: config, else openai)")
    run.add_argument("--model", metavar="M", help="model name")
    run.add_argument("--base-url", metavar="URL", help="server base URL (any OpenAI-compatible server: Ollama, vLLM, llama.cpp, LM Studio)")
    run.add_argument("--script", metavar="FILE", help="the script the scripted provider replays")
    run.add_argument("--max-turns", type=whole_number(), default=50, metavar="N", help="turn budget (default 50)")
    run.add_argument("--max-tokens", type=whole_number(), metavar="N", help="token budget, input + output")
    run.add_argument("--max-cost", type=positive_number, metavar="USD", help="cost budget in US dollars")
    run.add_argument("--timeout", type=positive_number, metavar="S", help="wall-clock limit for the whole run, in seconds")
    run.add_argument("--turn-timeout", type=positive_number, metavar="S", help="deadline for one model turn, counted from the last piece the server sent (default 300, or the config's)")
    run.add_argument("--yes", action="store_true", help="grant edits and commands for this run only (nothing is stored)")
    run.add_argument("--resume", metavar="ID", help="continue the session with this id")
    run.set_defaults(handler=run_agent)


def run_agent(args: argparse.Namespace) -> int:
    from ..agent import KillSwitch, Limits, headless_gate
    from ..app import agent_loop
    from ..providers import ConfigInvalid, ScriptInvalid, resolve

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
    except ConfigInvalid as error:
        raise UsageError(str(error)) from None
    workspace = open_workspace(root)
    settle_interrupted(workspace)  # an interrupted batch is settled before the agent reads a file
    limits = Limits(args.max_turns, args.max_tokens, args.max_cost, args.timeout)
    with workspace, _held(record):
        try:
            loop = agent_loop(workspace, settings, JsonLinesReporter(), headless_gate(workspace.root, grant=args.yes), limits, KillSwitch())
        except (ConfigInvalid, ScriptInvalid) as error:
            raise UsageError(str(error)) from None
        finished = asyncio.run(_drive(loop, None if record else args.request, record, args.request if record else None))
    if finished.reason == "error":
        # The JSON lines are for programs; a person watching the terminal reads this line.
        print(neutralise(f"konstruct run: error: {finished.message}"), file=sys.stderr)  # a server's own words
    return EXIT_CODES.get(finished.reason, 1)


def _resumed(session_id: str) -> SessionRecord:
    from ..agent import SessionMissing, load_session, sessions_dir

    try:
        record = load_session(session_id)
    except SessionMissing as missing:
        raise UsageError(str(missing)) from None
    if record.skipped:
        print(neutralise(f"konstruct: warning: {record.skipped} line(s) of the session file {sessions_dir() / session_id}.jsonl "
                         "could not be read (torn by a crash, or damaged) and were left out; every other line was kept"),
              file=sys.stderr)
    return record


def _held(record: SessionRecord | None) -> Any:
    """The resumed session, held for this process (a second resume is refused with our pid)."""
    if record is None:
        return contextlib.nullcontext()
    from ..agent import session_held

    return session_held(record.session_id)


async def _drive(loop: AgentLoop, request: str | None, record: SessionRecord | None, follow_up: str | None) -> Any:
    """Run the loop with SIGINT/SIGTERM wired to its kill switch; close the provider afterwards."""
    events = asyncio.get_running_loop()

    def kill() -> None:
        loop.switch.kill("killed")
        events.remove_signal_handler(signal.SIGINT)  # a second Ctrl-C is the default: exit at once

    events.add_signal_handler(signal.SIGINT, kill)
    events.add_signal_handler(signal.SIGTERM, lambda: loop.switch.kill("killed"))
    from ..app import drive

    try:
        return await drive(loop, follow_up if record else request, record)
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            events.remove_signal_handler(signum)
