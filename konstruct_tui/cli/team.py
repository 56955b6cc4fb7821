"""Blueprint runs for a team (DESIGN.md §9, issue 28): a durable queue in a shared database.

    konstruct blueprint submit FILE --repo URL|PATH [--ref REF] [model flags] [--database URL]
    konstruct blueprint stop RUN [--database URL]
    konstruct worker [--database URL] [--concurrency N] [--workdir DIR] [--once] [--name NAME]
    konstruct approvals list [RUN] [--json] [--database URL]
    konstruct approvals grant|deny RUN REQUEST [--scope once|run] [--message TEXT] [--database URL]

`blueprint status|report|resume` read the team database when one is chosen (`--database`,
$KONSTRUCT_DATABASE_URL or `[team] database` in config.toml). The database layer, DBOS and git are
imported in the handlers only. A database problem is one line, exit 2, with any password redacted.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..untrusted_text import neutralise
from .common import UsageError, positive_number, print_json, whole_number

if TYPE_CHECKING:
    from ..team import TeamDatabase


def add_database(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database", metavar="URL",
                        help="the team database (sqlite:///PATH or postgresql://…; default $KONSTRUCT_DATABASE_URL, config.toml [team] database, "
                             "else SQLite in the user data dir)")


def database_problems(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    @functools.wraps(handler)
    def guarded(args: argparse.Namespace) -> int:
        from ..team import CheckoutFailed, DatabaseProblem

        try:
            return handler(args)
        except (DatabaseProblem, CheckoutFailed) as problem:
            raise UsageError(str(problem)) from None

    return guarded


def team_chosen(args: argparse.Namespace) -> bool:
    """Whether a reading command goes to the team database: one was named, here or in the settings."""
    from ..team import configured_url

    try:
        return configured_url(getattr(args, "database", None)) is not None
    except Exception as problem:  # noqa: BLE001 - an unreadable config.toml: one line
        raise UsageError(str(problem)) from None


def _open(args: argparse.Namespace, *, create: bool = False) -> TeamDatabase:
    from ..team import DatabaseTarget, TeamDatabase

    return TeamDatabase.open(DatabaseTarget.choose(args.database), create=create)


# Registration.

def register(commands: Any) -> None:
    worker = commands.add_parser("worker", help="serve queued blueprint runs from the team database")
    add_database(worker)
    worker.add_argument("--concurrency", type=whole_number(), default=1, metavar="N", help="runs at once in this worker (default 1)")
    worker.add_argument("--total", type=whole_number(), metavar="N", help="runs at once across all workers")
    worker.add_argument("--workdir", metavar="DIR", help="where checkouts go (default: the user cache dir)")
    worker.add_argument("--once", action="store_true", help="serve until the queue is empty, then exit 0")
    worker.add_argument("--drain-timeout", type=positive_number, default=25.0, metavar="S",
                        help="on SIGTERM, how long runs may take to finish their phase and go back on the queue; "
                             "after it, another worker takes them up from their last checkpoint (default 25)")
    worker.add_argument("--allow-base-url", action="append", default=[], metavar="URL",
                        help="a model server a run may name that this worker sends its API key to (repeatable; "
                             "default: only the server the worker itself is set up for)")
    worker.add_argument("--allow-repo", action="append", default=[], metavar="PREFIX",
                        help="serve only runs whose repository is under PREFIX (a URL or folder; repeatable; default: any)")
    worker.add_argument("--name", metavar="NAME", help="a stable executor id: restarted under it, a worker recovers its own runs")
    worker.add_argument("--heartbeat", type=positive_number, default=None, metavar="S", help="seconds between heartbeats (default 2)")
    worker.add_argument("--dead-after", type=positive_number, default=None, metavar="S",
                        help="a worker silent this long is taken as dead and its runs recovered (default 30, or $KONSTRUCT_WORKER_DEAD_AFTER_S)")
    worker.set_defaults(handler=database_problems(serve))

    workers = commands.add_parser("workers", help="the team's workers: alive, stopped or dead, and the runs each one drives")
    workers.add_argument("--json", action="store_true", help="print JSON")
    add_database(workers)
    workers.set_defaults(handler=database_problems(list_workers))

    approvals = commands.add_parser("approvals", help="answer the trust requests parked team runs wait on")
    sub = approvals.add_subparsers(dest="approvals_command", metavar="ACTION", parser_class=type(approvals))
    approvals.set_defaults(handler=lambda args: (approvals.print_help(), 0)[1])
    listing = sub.add_parser("list", help="the requests waiting for an answer")
    listing.add_argument("run", nargs="?", metavar="RUN")
    listing.add_argument("--all", action="store_true", help="answered requests too")
    listing.add_argument("--json", action="store_true", help="print JSON")
    add_database(listing)
    listing.set_defaults(handler=database_problems(list_approvals))
    for word, verb in (("grant", "granted"), ("deny", "denied")):
        answer = sub.add_parser(word, help=f"{word} a request (final)")
        answer.add_argument("run", metavar="RUN")
        answer.add_argument("request", metavar="REQUEST")
        answer.add_argument("--scope", choices=("once", "run"), default="once", help="once: this request; run: the capability for the rest of the run")
        if word == "deny":
            answer.add_argument("--message", metavar="TEXT", help="why: kept with the deny in the run's audit")
        add_database(answer)
        answer.set_defaults(handler=database_problems(functools.partial(answer_request, verb)))


def register_blueprint(sub: Any, model_flags: Callable[[argparse.ArgumentParser], None]) -> None:
    """`blueprint submit` and `blueprint stop` (called by cli/blueprint.py)."""
    submit = sub.add_parser("submit", help="put a run on the team queue (a worker runs it in a fresh checkout)")
    submit.add_argument("file", metavar="FILE", help="the blueprint (TOML)")
    submit.add_argument("--repo", required=True, metavar="URL|PATH", help="the repository a worker checks out")
    submit.add_argument("--ref", metavar="REF", help="the branch, tag or commit to start from (default HEAD); resolved now")
    submit.add_argument("--grant", action="append", choices=("commands",), default=[], help="grant up front (edits and project scripts always are)")
    submit.add_argument("--approval-timeout", type=positive_number, metavar="S", help="a run waiting longer for an answer ends stalled")
    add_database(submit)
    model_flags(submit)
    submit.set_defaults(handler=database_problems(submit_run))
    stop = sub.add_parser("stop", help="stop a team run wherever it is (it parks, resumable)")
    stop.add_argument("run", metavar="RUN")
    add_database(stop)
    stop.set_defaults(handler=database_problems(stop_run))


# Submit and serve.

def submit_run(args: argparse.Namespace) -> int:
    from ..app import BlueprintProblem, describe_model, load_blueprint
    from ..blueprint import new_run_id
    from ..providers import ConfigInvalid, resolve
    from ..team import enqueue_queued, prepare, repo_location, resolve_base

    try:
        plan = load_blueprint(Path(args.file))
        settings = resolve(provider=args.provider, model=args.model, base_url=args.base_url, script=args.script, turn_deadline_s=args.turn_timeout)
    except (BlueprintProblem, ConfigInvalid) as problem:
        raise UsageError(str(problem)) from None
    repo = repo_location(args.repo)
    base = resolve_base(repo, args.ref)
    db = _open(args, create=True)
    prepare(db.target)
    run_id = new_run_id()
    grants = sorted(set(args.grant) | ({"commands"} if args.yes else set()))
    options = {"grants": grants, "max_retries": args.max_retries, "max_turns": args.max_turns, "max_tokens": args.max_tokens,
               "max_cost": args.max_cost, "tick_s": args.watchdog_tick or 30.0, "silent_after_s": args.silent_after or 300.0}
    db.add_run({"run_id": run_id, "title": plan.blueprint.title, "source": plan.path.name, "blueprint": plan.text, "repo": repo,
                "ref": args.ref, "base": base, "model": json.dumps(describe_model(settings)), "options": json.dumps(options),
                "approval_timeout": args.approval_timeout, "status": "queued", "continuation": 0, "stop_requested": 0})
    note = enqueue_queued(db.target, run_id)
    db.close()
    print_json({"run": run_id, "status": "queued", **({"note": note} if note else {})})
    return 0


def serve(args: argparse.Namespace) -> int:
    from ..team import Worker, prepare
    from ..userdirs import cache_dir, private_dir

    for url in args.allow_base_url:  # before anything is opened or made
        if not url.startswith(("http://", "https://")):
            raise UsageError(f"--allow-base-url {url!r}: give the server's http:// or https:// URL")
    for prefix in args.allow_repo:
        if not prefix.strip() or prefix.startswith("-"):
            raise UsageError(f"--allow-repo {prefix!r}: give a repository URL or folder prefix")
    db = _open(args, create=True)
    prepare(db.target)
    workdir = Path(args.workdir).resolve() if args.workdir else private_dir(cache_dir() / "team-workdir")
    workdir.mkdir(parents=True, exist_ok=True)
    dead_after = args.dead_after or float(os.environ.get("KONSTRUCT_WORKER_DEAD_AFTER_S") or 30)
    worker = Worker(db, workdir, args.concurrency, args.total, args.name, args.heartbeat or 2.0, dead_after, frozenset(args.allow_base_url),
                    args.drain_timeout, tuple(args.allow_repo))
    print(f"konstruct worker {worker.executor_id}: serving {db.target.shown}", file=sys.stderr, flush=True)
    return worker.serve(args.once)


def list_workers(args: argparse.Namespace) -> int:
    """Every worker that ever served this database, newest first, with its state as the workers
    wrote it (`alive`, `stopped`, `dead`: claimed by a sweep), how long ago it last beat, and the
    runs it is driving. An `alive` worker silent past the dead-after time shows as `silent`."""
    import time

    db = _open(args)
    now = time.time()
    silent_after = float(os.environ.get("KONSTRUCT_WORKER_DEAD_AFTER_S") or 30)
    driving: dict[str, list[str]] = {}
    for run in db.runs():
        if run["status"] == "running" and run["worker"]:
            driving.setdefault(run["worker"], []).append(run["run_id"])
    rows = [{"executor_id": w["executor_id"], "host": w["host"], "pid": w["pid"],
             "state": "silent" if w["state"] == "alive" and now - w["heartbeat"] > silent_after else w["state"],
             "heartbeat_age_s": round(now - w["heartbeat"], 1), "started": w["started"], "runs": sorted(driving.get(w["executor_id"], []))}
            for w in sorted(db.workers(), key=lambda w: -w["started"])]
    db.close()
    if args.json:
        print_json({"workers": rows})
        return 0
    if not rows:
        print("no worker has served this database yet (`konstruct worker` on a build machine)")
    for row in rows:
        runs = f"; driving {', '.join(row['runs'])}" if row["runs"] else ""
        print(neutralise(f"{row['executor_id']}  {row['state']:<8} {row['host']} pid {row['pid']}  "
                         f"last beat {row['heartbeat_age_s']:g} s ago{runs}", keep_layout=False))
    return 0


# Approvals.

def list_approvals(args: argparse.Namespace) -> int:
    db = _open(args)
    rows = [a for a in db.approvals(args.run) if args.all or a["status"] == "pending"]
    if args.json:
        print_json({"approvals": rows})
        return 0
    for a in rows:
        request = a["request"]
        what = request.get("command") or request.get("detail") or ", ".join(request.get("paths") or [])
        verdict = f" (policy: {request['rule']}: {request['reason']})" if request.get("rule") else ""
        print(neutralise(f"{a['run_id']}  {a['request_id']}  {a['status']:<8} {request.get('capability')}: {what}{verdict}", keep_layout=False))
        for path, diff in request.get("diffs") or []:
            print(neutralise(f"    {path}:\n" + "\n".join("      " + line for line in diff.splitlines()[:40])))
    return 0


def answer_request(verdict: str, args: argparse.Namespace) -> int:
    from ..team import answer_approval

    db = _open(args)
    if db.run(args.run) is None:
        raise UsageError(f"no team run {args.run!r} in {db.target.shown}")
    print_json(answer_approval(db, args.run, args.request, verdict, args.scope, getattr(args, "message", None)))
    return 0


# Supervising (blueprint status|report|stop|resume on the team database).

def stop_run(args: argparse.Namespace) -> int:
    from ..team import stop_team_run

    db = _open(args)
    _team_run(db, args.run)
    print_json(stop_team_run(db, args.run))
    return 0


def resume_team_run(args: argparse.Namespace) -> int:
    from ..team import resume_team_run as resume

    db = _open(args)
    _team_run(db, args.run)
    print_json(resume(db, args.run))
    return 0


def team_status(args: argparse.Namespace) -> int:
    db = _open(args)
    if args.run is None:
        runs = [{"run_id": r["run_id"], "title": r["title"], "status": r["status"], "reason": r["reason"], "source": r["source"],
                 "phase": r["phase"], "worker": r["worker"]} for r in db.runs()]
        if args.json:
            print_json({"runs": runs})
        else:
            for r in runs:
                print(neutralise(f"{r['run_id']}  {r['status']:<16} {r['title']}", keep_layout=False))
        return 0
    payload = team_status_of(db, _team_run(db, args.run))
    if args.json:
        print_json(payload)
        return 0
    print(neutralise(f"{payload['title']} ({payload['run_id']}): {payload['status']}" + (f" — {payload['message']}" if payload["message"] else "")))
    print(neutralise(f"  repo {payload['repo']} at {payload['base'][:12]}; worker {payload['worker'] or '-'}; last: {payload['last_output'] or '-'}", keep_layout=False))
    for phase in payload["phases"]:
        print(neutralise(f"  {phase['id']:<12} {phase['status']:<8} attempts {phase['attempts']}  verdict {phase['verdict'] or '-'}"))
    for a in payload["approvals"]:
        print(neutralise(f"  waiting: {a['request_id']} {a['request'].get('capability')}: {a['request'].get('detail')}", keep_layout=False))
    return 0


def team_status_of(db: TeamDatabase, run: dict[str, Any]) -> dict[str, Any]:
    from ..blueprint import RunStore
    from .blueprint import status_of

    phases: list[dict[str, Any]] = []
    defects: list[dict[str, Any]] = []
    with _store_copy(db, run["run_id"]) as path:
        if path is not None:
            store = RunStore(path)
            try:
                local = status_of(store, run["run_id"])
            finally:
                store.close()
            phases, defects = local["phases"], local["defects"]
    model = {k: v for k, v in json.loads(run["model"]).items() if k != "script"}
    return {"run_id": run["run_id"], "title": run["title"], "source": run["source"], "status": run["status"], "reason": run["reason"],
            "message": run["message"], "resumable": run["status"] in ("stopped", "stalled", "parked"), "model": model,
            "repo": run["repo"], "ref": run["ref"], "base": run["base"], "branch": run["branch"], "worker": run["worker"],
            "phase": run["phase"], "last_output": run["last_output"], "phases": phases, "defects": defects,
            "closed": db.closures(run["run_id"]), "approvals": [a for a in db.approvals(run["run_id"]) if a["status"] == "pending"],
            "created": run["created"], "updated": run["updated"]}


def team_report(args: argparse.Namespace) -> int:
    from ..blueprint import RunStore, render_report
    from ..team import audit_markdown

    db = _open(args)
    run = _team_run(db, args.run)
    with _store_copy(db, run["run_id"]) as path:
        if path is None:
            sys.stdout.write(neutralise(f"# {run['title']}\n\nRun {run['run_id']} is {run['status']}: no step has finished yet.\n"))
        else:
            store = RunStore(path)
            try:
                sys.stdout.write(render_report(store, run["run_id"]))
            finally:
                store.close()
    sys.stdout.write(audit_markdown(db.audit(run["run_id"])))
    return 0


class _store_copy:
    """The run's checkpointed run store as a file of its own (read, then thrown away)."""

    def __init__(self, db: TeamDatabase, run_id: str) -> None:
        self.data = db.store(run_id)

    def __enter__(self) -> Path | None:
        if self.data is None:
            return None
        self.folder = tempfile.TemporaryDirectory(prefix="konstruct-team-")
        path = Path(self.folder.name) / "runs.sqlite3"
        path.write_bytes(self.data)
        return path

    def __exit__(self, *exc: object) -> None:
        if self.data is not None:
            self.folder.cleanup()


def _team_run(db: TeamDatabase, run_id: str) -> dict[str, Any]:
    run = db.run(run_id)
    if run is None:
        raise UsageError(f"no team run {run_id!r} in {db.target.shown} (see `konstruct blueprint status --database URL`)")
    return run

