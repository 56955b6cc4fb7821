"""`konstruct [--root DIR]` (the workbench) and `konstruct demo` (the workbench on a bundled sample
project with a scripted model: no key, no network).

The UI package (and the agent layer) is imported inside the handlers only, so every other command
starts without loading them (tests/test_layering.py checks the core never imports Textual).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from .recovery import settle_interrupted
from ..untrusted_text import neutralise
from .common import UsageError, open_workspace, positive_number, whole_number

DEMO_TURN_DEADLINE_S = 900.0  # the demo's last turn hangs until killed; give the person time


def register(commands: Any) -> None:
    demo = commands.add_parser("demo", help="the workbench on a bundled sample project, with a scripted model (no key, no network)")
    demo.add_argument("--theme", metavar="NAME", help="konstruct-dark (default), konstruct-light, konstruct-high-contrast, or your own")
    demo.set_defaults(handler=open_demo)


def add_options(parser: argparse.ArgumentParser) -> None:
    """Options of the bare `konstruct` (the workbench). Distinct dests, so a subcommand's own
    `--root` never collides with them."""
    group = parser.add_argument_group("workbench (when no COMMAND is given)")
    group.add_argument("--root", dest="workbench_root", default=".", metavar="DIR", help="the project to open (default: the current directory)")
    group.add_argument("--provider", dest="workbench_provider", choices=("openai", "openai-responses", "anthropic", "scripted"), help="model provider (default: config, else openai)")
    group.add_argument("--model", dest="workbench_model", metavar="M", help="model name")
    group.add_argument("--base-url", dest="workbench_base_url", metavar="URL", help="server base URL (any OpenAI-compatible server)")
    group.add_argument("--script", dest="workbench_script", metavar="FILE", help="the script the scripted provider replays")
    group.add_argument("--theme", dest="workbench_theme", metavar="NAME", help="the workbench theme")
    group.add_argument("--blueprint", dest="workbench_blueprint", metavar="FILE", help="start this blueprint run (TOML) in the workbench and watch its gate")
    group.add_argument("--database", dest="workbench_database", metavar="URL",
                       help="the team database the runs and approvals screens read (default $KONSTRUCT_DATABASE_URL, config.toml [team] database)")
    group.add_argument("--max-turns", dest="workbench_max_turns", type=whole_number(), default=50, metavar="N", help="turn budget per request (default 50)")
    group.add_argument("--max-tokens", dest="workbench_max_tokens", type=whole_number(), metavar="N", help="token budget per request")
    group.add_argument("--max-cost", dest="workbench_max_cost", type=positive_number, metavar="USD", help="cost budget per request, US dollars")
    group.add_argument("--timeout", dest="workbench_timeout", type=positive_number, metavar="S", help="wall-clock limit per request, seconds")


def open_workbench(args: argparse.Namespace) -> int:
    from ..agent import Limits
    from ..providers import ConfigInvalid, ScriptInvalid, resolve

    team_database = _database(args.workbench_database)
    workspace = open_workspace(args.workbench_root)
    root = workspace.root
    settle_interrupted(workspace)  # said on the terminal before the screen opens
    workspace.close()
    explicit = any((args.workbench_provider, args.workbench_model, args.workbench_base_url, args.workbench_script))
    settings, problem = None, None
    try:
        settings = resolve(provider=args.workbench_provider, model=args.workbench_model, base_url=args.workbench_base_url, script=args.workbench_script)
        if settings.script is not None and not args.workbench_blueprint:
            from ..providers import load_script

            load_script(settings.script)  # a broken script is bad input: say so before the screen opens
    except (ConfigInvalid, ScriptInvalid) as error:
        if explicit:
            raise UsageError(str(error)) from None
        # Nothing was asked for on the command line and nothing usable is configured: open anyway
        # (the graph and past sessions are still worth seeing) and say what is missing on screen.
        problem = str(error)  # the screen adds what to do: /model
    theme = _theme(args.workbench_theme)
    limits = Limits(args.workbench_max_turns, args.workbench_max_tokens, args.workbench_max_cost, args.workbench_timeout)
    blueprint = _blueprint(args.workbench_blueprint, root, settings, problem)
    from ..app import WorkbenchSetup
    from ..ui import run_workbench

    run_workbench(WorkbenchSetup(Path(root), settings, problem, limits, theme=theme, blueprint=blueprint, team_database=team_database))
    return 0


def open_demo(args: argparse.Namespace) -> int:
    from ..agent import Limits
    from ..providers import ConfigInvalid, ScriptInvalid, resolve

    theme = _theme(args.theme)
    from ..app import WorkbenchSetup
    from ..app.demo import BLUEPRINT, BLUEPRINT_SCRIPTS, FIRST_REQUEST, FOLLOW_UP, SCRIPT, prepare_demo
    from ..ui import run_workbench

    # config={}: the demo ignores the person's config file, so it is the same everywhere.
    settings = resolve(provider="scripted", script=str(SCRIPT), turn_deadline_s=DEMO_TURN_DEADLINE_S, config={})
    blueprint_settings = resolve(provider="scripted", script=str(BLUEPRINT_SCRIPTS), turn_deadline_s=60, config={})
    follow_up = resolve(provider="scripted", script=str(FOLLOW_UP), turn_deadline_s=60, config={})
    root = prepare_demo()
    run_workbench(WorkbenchSetup(root, settings, None, Limits(max_turns=20), demo=True, theme=theme, first_request=FIRST_REQUEST,
                                 blueprint=BLUEPRINT, blueprint_settings=blueprint_settings, follow_up_settings=follow_up))
    print(neutralise(f"konstruct demo: the sample project (with the agent's edits) is at {root}"), file=sys.stderr)
    return 0


def _blueprint(path: str | None, root: Any, settings: Any, problem: str | None) -> Path | None:
    """A blueprint given on the command line is checked before the screen opens (bad input: exit 2)."""
    if path is None:
        return None
    if problem is not None:
        raise UsageError(f"--blueprint needs a model: {problem}")
    from ..app import BlueprintProblem, open_models, read_blueprint
    from ..workspace import Workspace

    try:
        open_models(settings)  # a scripted run's script folder must be usable
        with Workspace(root) as workspace:
            read_blueprint(Path(path), workspace)
    except BlueprintProblem as error:
        raise UsageError(str(error)) from None
    return Path(path).resolve()


def _database(url: str | None) -> str | None:
    """A team database named on the command line must at least be a database URL (bad input: exit 2);
    whether it can be reached is the screens' to say."""
    if url is None:
        return None
    from ..team import DatabaseProblem, DatabaseTarget

    try:
        return DatabaseTarget.choose(url).url
    except DatabaseProblem as problem:
        raise UsageError(str(problem)) from None


def _theme(name: str | None) -> str | None:
    name = name or os.environ.get("KONSTRUCT_THEME") or None  # a standing choice without a config file
    if name is None:
        return None
    from ..ui.themes import unknown_theme

    problem = unknown_theme(name)
    if problem:
        raise UsageError(problem)
    return name
