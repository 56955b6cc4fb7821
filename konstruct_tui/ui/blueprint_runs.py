"""Starting a blueprint run from the workbench (`konstruct --blueprint FILE`): the same orchestrator
`konstruct blueprint run` drives, reporting into the workbench's panes. Plain Python (no Textual);
the app calls `run` on a worker thread.

The run is unattended like its headless twin: the blueprint layer's own broker answers the
executor's trust questions (edits and project scripts granted for this run, nothing stored), so no
modal interrupts it; the person watches the gate and can kill it (ctrl+k).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from ..agent.events import Finished, ProgressReporterPort
from ..agent.killswitch import KillSwitch
from ..blueprint import (
    Blueprint,
    BlueprintInvalid,
    Orchestrator,
    RunOptions,
    RunStore,
    new_run_id,
    parse_blueprint,
)
from ..blueprint.models import describe, model_source
from ..blueprint.verification import refused_commands
from ..providers import ConfigInvalid, ProviderSettings, ScriptInvalid
from ..workspace import Workspace


class BlueprintProblem(ValueError):
    """The blueprint cannot be run; the message says which file and why."""


@dataclass(frozen=True)
class BlueprintPlan:
    path: Path
    text: str
    blueprint: Blueprint


def read_blueprint(path: Path, workspace: Workspace) -> BlueprintPlan:
    """Parse and check a blueprint before anything starts (bad input is refused up front)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BlueprintProblem(f"cannot read blueprint {str(path)!r}: {getattr(error, 'strerror', None) or error}") from None
    try:
        blueprint = parse_blueprint(text, path.name)
    except BlueprintInvalid as invalid:
        raise BlueprintProblem(str(invalid)) from None
    for phase in blueprint.phases:
        refused = refused_commands(phase.verify, workspace)
        if refused:
            command, reason = refused[0]
            raise BlueprintProblem(f"{path.name}: phase {phase.id}: verify command {command!r} is refused by the command policy: {reason}")
    return BlueprintPlan(path, text, blueprint)


def run_blueprint(plan: BlueprintPlan, workspace: Workspace, settings: ProviderSettings, reporter: ProgressReporterPort,
                  switch: KillSwitch, *, max_tokens: int | None = None, max_cost_usd: float | None = None) -> Finished:
    """Blocking: one whole run, from a fresh run id (resume stays with `konstruct blueprint resume`)."""
    try:
        models = model_source(settings)
    except (ScriptInvalid, ConfigInvalid) as error:
        raise BlueprintProblem(str(error)) from None
    store = RunStore()
    run_id = new_run_id()
    blueprint = plan.blueprint
    store.create_run(run_id, blueprint.title, plan.path.name, plan.text, str(workspace.root), describe(settings), [p.id for p in blueprint.phases])
    options = RunOptions(turn_deadline_s=settings.turn_deadline_s, max_tokens=max_tokens, max_cost_usd=max_cost_usd)
    orchestrator = Orchestrator(store, run_id, blueprint, workspace, models, reporter, options, switch, settings.price())
    return asyncio.run(orchestrator.run())
