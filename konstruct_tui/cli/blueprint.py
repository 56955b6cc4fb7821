"""`konstruct blueprint run|status|resume|report`: unattended plans of phases (DESIGN.md §9).

    konstruct blueprint run FILE [--root DIR] [model flags] [--headless] [--yes]
    konstruct blueprint status [RUN] [--json]      (no RUN: every run, newest first)
    konstruct blueprint resume RUN [--headless] [model flags]
    konstruct blueprint report RUN                 (Markdown on stdout)

Exit codes of run/resume: 0 every phase closed, 1 parked on an error (an unreachable model or
adjudicator: resumable), 3 stalled (parked, resumable), 130 killed; 2 bad input, with nothing
written. `--headless` prints one JSON event per line; without it, one readable line per step.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import functools
import json
import os
import signal
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import team
from .recovery import settle_interrupted
from ..untrusted_text import neutralise
from .common import JsonLinesReporter, UsageError, open_workspace, positive_number, print_json, whole_number

if TYPE_CHECKING:  # the blueprint and agent layers load in the handlers, not to parse a command line
    from ..agent import Finished, KillSwitch
    from ..blueprint import RunOptions, RunStore

EXIT_CODES = {"done": 0, "error": 1, "stalled": 3, "max_tokens": 4, "max_cost": 5, "killed": 130}


def _store_errors(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A damaged or foreign run store is one line naming the file and what to do (exit 2), never an
    internal error; the reading commands change nothing on disk."""

    @functools.wraps(handler)
    def guarded(args: argparse.Namespace) -> int:
        from ..blueprint import StoreDamaged, StoreUnusable, damaged_message, default_path
        from ..userdirs import sqlite_problem

        try:
            return handler(args)
        except (StoreDamaged, StoreUnusable) as error:
            raise UsageError(str(error)) from None
        except sqlite3.DatabaseError as error:  # met after opening: a lock or an access problem is not damage
            problem = sqlite_problem(default_path(), "the blueprint run store", error, "run the command again when it has finished")
            raise UsageError(str(problem) if problem else damaged_message(default_path(), str(error))) from None

    return guarded


def register(commands: Any) -> None:
    group = commands.add_parser("blueprint", help="run a plan of phases unattended, behind a completion gate")
    sub = group.add_subparsers(dest="blueprint_command", metavar="ACTION", parser_class=type(group))
    group.set_defaults(handler=lambda args: (group.print_help(), 0)[1])

    run = sub.add_parser("run", help="start a run of a blueprint file")
    run.add_argument("file", metavar="FILE", help="the blueprint (TOML)")
    run.add_argument("--root", default=".", metavar="DIR", help="the project root (default: the current directory)")
    _model_flags(run)
    run.set_defaults(handler=_store_errors(start_run))

    status = sub.add_parser("status", help="a run's phases, verdicts and state (no RUN: list the runs)")
    status.add_argument("run", nargs="?", metavar="RUN")
    status.add_argument("--json", action="store_true", help="print JSON")
    team.add_database(status)
    status.set_defaults(handler=_team_or(team.team_status, _store_errors(show_status)))

    resume = sub.add_parser("resume", help="continue a parked, stalled or interrupted run")
    resume.add_argument("run", metavar="RUN")
    _model_flags(resume)
    team.add_database(resume)
    resume.set_defaults(handler=_team_or(team.resume_team_run, _store_errors(resume_run)))

    rep = sub.add_parser("report", help="the run's report and audit trail, as Markdown")
    rep.add_argument("run", metavar="RUN")
    team.add_database(rep)
    rep.set_defaults(handler=_team_or(team.team_report, _store_errors(show_report)))

    team.register_blueprint(sub, _model_flags)


def _team_or(on_team: Callable[[argparse.Namespace], int], local: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """With a team database chosen (flag, environment or config.toml) a reading command reads it;
    otherwise the run store of this machine, exactly as before."""

    def handler(args: argparse.Namespace) -> int:
        return team.database_problems(on_team)(args) if team.team_chosen(args) else local(args)

    return handler


def _model_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--provider", choices=("openai", "openai-responses", "anthropic", "scripted"), help="model provider")
    parser.add_argument("--model", metavar="M", help="model name")
    parser.add_argument("--base-url", metavar="URL", help="server base URL (any OpenAI-compatible server)")
    parser.add_argument("--script", metavar="PATH", help="scripted provider: a script file, or a folder of ROLE-PHASE[-ATTEMPT].json")
    parser.add_argument("--turn-timeout", type=positive_number, metavar="S", help="deadline for one model turn (default 300)")
    parser.add_argument("--headless", action="store_true", help="print events as JSON lines")
    parser.add_argument("--yes", action="store_true", help="also let the executor run arbitrary command lines (edits and project scripts are granted for the run)")
    parser.add_argument("--max-retries", type=whole_number(0), default=3, metavar="N", help="retries per phase (default 3)")
    parser.add_argument("--max-turns", type=whole_number(), default=40, metavar="N", help="model turns per executor session (default 40)")
    parser.add_argument("--max-tokens", type=whole_number(), metavar="N", help="token budget for the whole run (input + output, every session)")
    parser.add_argument("--max-cost", type=positive_number, metavar="USD", help="cost budget for the whole run, US dollars")
    parser.add_argument("--watchdog-tick", type=positive_number, metavar="S",
                        help="how often the watchdog looks (default 30, or $KONSTRUCT_WATCHDOG_TICK_S)")
    parser.add_argument("--silent-after", type=positive_number, metavar="S",
                        help="stop a session silent this long (default 300, or $KONSTRUCT_SILENT_AFTER_S)")


def _env_seconds(name: str, default: float) -> float:
    """A default from the environment (tests shorten the watchdog this way); unusable values are
    reported when the command runs, as a bad flag would be."""
    text = os.environ.get(name)
    if not text:
        return default
    try:
        return positive_number(text)
    except argparse.ArgumentTypeError as error:
        raise UsageError(f"${name}: {error}") from None


def start_run(args: argparse.Namespace) -> int:
    from ..app import BlueprintProblem, check_commands, create_run, load_blueprint
    from ..blueprint import open_for_run, owner_token

    try:
        plan = load_blueprint(Path(args.file))
        settings = _settings(args, None)
        workspace = open_workspace(args.root)
        settle_interrupted(workspace)
        check_commands(plan, workspace)
        options = _options(args, settings)
        models = _models(settings)
    except BlueprintProblem as problem:
        raise UsageError(str(problem)) from None
    store, warning = open_for_run()
    if warning:
        print(neutralise(f"konstruct: warning: {warning}"), file=sys.stderr)
    with _engine(store) as engine:  # before the run is recorded: a store the engine cannot use is one line, nothing written
        run_id = create_run(store, plan, workspace, settings, owner=owner_token())
        with _RunLock(run_id):
            return _drive(store, engine, run_id, plan.blueprint, workspace, models, settings, options, args, resumed=False)


def resume_run(args: argparse.Namespace) -> int:
    store = _store()
    run = _run(store, args.run)
    if run.status == "done":
        raise UsageError(f"run {run.id} is done; nothing to resume")
    blueprint = _blueprint(store, run)
    settings = _settings(args, run.model)
    if not os.path.isdir(run.root):
        raise UsageError(f"run {run.id}'s project folder no longer exists")
    workspace = open_workspace(run.root)
    settle_interrupted(workspace)
    options = _options(args, settings)
    models = _models(settings)
    with _RunLock(run.id), _engine(store) as engine:
        return _drive(store, engine, run.id, blueprint, workspace, models, settings, options, args, resumed=True)


def _engine(store: RunStore) -> Any:
    """The durable engine on the run store's file (blueprint/engine.py; loads dbos)."""
    from ..blueprint import LocalEngine

    return LocalEngine(store.path)


def _settings(args: argparse.Namespace, stored: dict[str, Any] | None) -> Any:
    from ..providers import ConfigInvalid, resolve

    stored = stored or {}
    provider = args.provider or stored.get("provider")
    same = provider == stored.get("provider")
    script = args.script or (stored.get("script") if same and provider == "scripted" else None)
    try:
        return resolve(
            provider=provider,
            model=args.model or (stored.get("model") if same and provider != "scripted" else None),
            base_url=args.base_url or (stored.get("base_url") if same else None),
            script=script,
            turn_deadline_s=args.turn_timeout or stored.get("turn_deadline_s"),
        )
    except ConfigInvalid as error:
        raise UsageError(str(error)) from None


def _models(settings: Any) -> Any:
    from ..app import BlueprintProblem, open_models

    try:
        return open_models(settings)
    except BlueprintProblem as problem:
        raise UsageError(str(problem)) from None


class _RunLock:
    """One process drives a run at a time: `resume` of a run that is still going is refused."""

    def __init__(self, run_id: str) -> None:
        from ..userdirs import data_dir, private_dir

        self.path = private_dir(data_dir() / "blueprint" / "locks") / f"{run_id}.lock"

    def __enter__(self) -> None:
        self.handle = open(self.path, "a+")  # "a+": opening must not wipe the holder's pid before the lock is ours
        try:
            fcntl.flock(self.handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.handle.seek(0)
            pid = self.handle.read().strip()
            self.handle.close()
            holder = f" (pid {pid})" if pid.isdigit() else ""
            raise UsageError(f"run {self.path.stem} is running in another process{holder}; wait for it to finish "
                             f"or stop that process, then `konstruct blueprint resume {self.path.stem}`") from None
        self.handle.seek(0)
        self.handle.truncate()
        self.handle.write(f"{os.getpid()}\n")
        self.handle.flush()

    def __exit__(self, *exc: object) -> None:
        self.handle.close()  # the kernel drops the lock; a SIGKILLed run drops it too


def _options(args: argparse.Namespace, settings: Any) -> RunOptions:
    from ..blueprint import RunOptions

    tick = args.watchdog_tick or _env_seconds("KONSTRUCT_WATCHDOG_TICK_S", 30.0)
    silent = args.silent_after or _env_seconds("KONSTRUCT_SILENT_AFTER_S", 300.0)
    return RunOptions(max_retries=args.max_retries, tick_s=tick, silent_after_s=silent, turn_deadline_s=settings.turn_deadline_s,
                      executor_max_turns=args.max_turns, grant_commands=args.yes, max_tokens=args.max_tokens, max_cost_usd=args.max_cost)


def _drive(store: RunStore, engine: Any, run_id: str, blueprint: Any, workspace: Any, models: Any, settings: Any, options: RunOptions,
           args: argparse.Namespace, *, resumed: bool) -> int:
    from dataclasses import replace

    from ..agent import KillSwitch
    from ..blueprint import Orchestrator

    reporter = JsonLinesReporter() if args.headless else Readable()
    switch = KillSwitch()
    steps = engine.steps(run_id, new=not resumed)
    with workspace:
        orchestrator = Orchestrator(store, run_id, blueprint, workspace, models, reporter, replace(options, steps=steps), switch, settings.price())
        finished = asyncio.run(_with_signals(lambda: steps.drive(lambda: orchestrator.run(resumed=resumed)), switch))
    if not args.headless:
        print(neutralise(f"run {run_id}: {finished.reason}: {finished.message}\nreport: konstruct blueprint report {run_id}"))
    return EXIT_CODES.get(finished.reason, 1)


async def _with_signals(run: Callable[[], Awaitable[Finished]], switch: KillSwitch) -> Finished:
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, switch.kill, "killed")
    try:
        return await run()
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)


class Readable:
    """One line per step a person watching a terminal cares about (text deltas are left out)."""

    def report(self, event: Any) -> None:
        from ..agent import TextDelta, event_json

        if isinstance(event, TextDelta):
            return
        data = event_json(event)
        kind = data.pop("event")
        line = {
            "session_started": lambda: f"run {data['session_id']} started ({data['provider']} {data['model']})",
            "phase_started": lambda: f"phase {data['phase']} attempt {data['attempt']}: {data['title']}",
            "tool_finished": lambda: f"  {data['tool']}: {'ok' if data['ok'] else data.get('error')}",
            "verdict": lambda: f"  gate: {data['decision']} ({data['tier']}, verdict {data['verdict']})"
                               + (f" outstanding: {', '.join(data['outstanding'])}" if data["outstanding"] else "")
                               + (f"\n    {data['message'][:300]}" if data["message"] else ""),
            "phase_closed": lambda: f"phase {data['phase']} closed: {data['verdict']}",
            "watchdog": lambda: f"  watchdog: {data['kind']} ({data['action']})",
        }.get(kind)
        if line is not None:
            print(neutralise(line()), flush=True)  # tool errors, titles and gate messages: model words


def show_status(args: argparse.Namespace) -> int:
    from ..blueprint import RunStore, effective_status

    if args.run is None:
        existing = RunStore.for_reading()
        runs = [{"run_id": r.id, "title": r.title, "status": effective_status(r), "reason": r.reason, "source": r.source}
                for r in (existing.runs() if existing else [])]
        if args.json:
            print_json({"runs": runs})
        else:
            for r in runs:
                print(neutralise(f"{r['run_id']}  {r['status']:<8} {r['title']}", keep_layout=False))
        return 0
    store = _store(reading=True)
    payload = status_of(store, _run(store, args.run).id)
    if args.json:
        print_json(payload)
        return 0
    print(neutralise(f"{payload['title']} ({payload['run_id']}): {payload['status']}" + (f" — {payload['message']}" if payload["message"] else "")))
    for phase in payload["phases"]:
        outstanding = f" outstanding: {', '.join(phase['outstanding'])}" if phase["outstanding"] else ""
        print(neutralise(f"  {phase['id']:<12} {phase['status']:<8} attempts {phase['attempts']}  verdict {phase['verdict'] or '-'}{outstanding}"))
    for defect in payload["defects"]:
        print(neutralise(f"  defect [{defect['phase']}]: {defect['text']}"))
    return 0


def status_of(store: RunStore, run_id: str) -> dict[str, Any]:
    from ..blueprint import StoreDamaged, effective_status

    run = store.run(run_id)
    assert run is not None
    blueprint = _blueprint(store, run)
    status, message = effective_status(run), run.message
    if status == "interrupted":
        message = f"the process that ran it is gone; `konstruct blueprint resume {run.id}` continues it"
    phases = []
    for record in store.phases(run_id):
        gates = store.gates(run_id, record.phase_id)
        last = gates[-1] if gates else None
        try:
            title = blueprint.phase(record.phase_id).title
        except KeyError:
            raise StoreDamaged(f"run {run.id}'s record in {store.path} is damaged (phase {record.phase_id} is not in its blueprint); "
                               f"start the blueprint again with `konstruct blueprint run FILE`") from None
        phases.append({
            "id": record.phase_id, "title": title, "status": record.status,
            "attempts": max([g.attempt for g in gates] + [store.attempts(run_id, record.phase_id)]),
            "verdict": last.verdict if last else None, "decision": last.decision if last else None,
            "outstanding": list(last.outstanding) if last and last.decision != "close" else [],
        })
    return {
        "run_id": run.id, "title": run.title, "source": run.source, "status": status, "reason": run.reason,
        "message": message, "resumable": status in ("parked", "stalled", "interrupted"), "model": {k: v for k, v in run.model.items() if k != "script"}, "phases": phases,
        "defects": [{"phase": pid, "text": text} for pid, text in store.defects(run_id)],
        "created": run.created, "updated": run.updated,
    }


def _blueprint(store: RunStore, run: Any) -> Any:
    from ..blueprint import BlueprintInvalid, StoreDamaged, parse_blueprint

    try:
        blueprint = parse_blueprint(run.blueprint, run.source)
    except BlueprintInvalid as invalid:
        problem = str(invalid)
    else:
        recorded = [p.phase_id for p in store.phases(run.id)]
        if recorded == [p.id for p in blueprint.phases]:
            return blueprint
        problem = f"its phases {', '.join(p.id for p in blueprint.phases)} are not the recorded {', '.join(recorded) or 'none'}"
    raise StoreDamaged(f"run {run.id}'s blueprint text in {store.path} is damaged ({problem}); it cannot be shown or resumed: "
                       f"start the blueprint again with `konstruct blueprint run FILE`")


def show_report(args: argparse.Namespace) -> int:
    from ..blueprint import render_report

    store = _store(reading=True)
    sys.stdout.write(render_report(store, _run(store, args.run).id))
    return 0


def _store(reading: bool = False) -> RunStore:
    """The run store; `reading`: opened read-only (status and report change nothing, and work on a
    store they may not write)."""
    from ..blueprint import RunStore

    store = RunStore.for_reading() if reading else RunStore.existing()
    if store is None:
        raise UsageError("no blueprint run has been started yet (see `konstruct blueprint run`)")
    return store


def _run(store: RunStore, run_id: str) -> Any:
    run = store.run(run_id)
    if run is None:
        aside = sorted(store.path.parent.glob(store.path.name + ".damaged-*[0-9]"))
        if aside:  # it may have been in a damaged store that `run` set aside
            raise UsageError(f"no blueprint run {run_id!r} in {store.path}; a damaged store was set aside as {aside[-1]} "
                             f"(every run that could still be read was carried over)")
        raise UsageError(f"no blueprint run {run_id!r} (see `konstruct blueprint status`)")
    return run
