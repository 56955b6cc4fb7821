"""Blueprint runs as the CLI and the workbench start them: the plan read and checked before anything
starts (bad input is refused up front, nothing written), the run recorded in the run store, and the
orchestrator driven with the model source the settings name.

A run started from the workbench is unattended like its headless twin: the blueprint layer's own
broker answers the executor's trust questions (edits and project scripts granted for this run,
nothing stored), so no modal interrupts it; the person watches the gate and can kill it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agent import Finished, KillSwitch, ProgressReporterPort, ProviderWarning
from ..blueprint import (
    Blueprint,
    BlueprintInvalid,
    ModelSource,
    Orchestrator,
    RunOptions,
    RunStore,
    new_run_id,
    open_for_run,
    parse_blueprint,
    refused_commands,
)
from ..providers import ConfigInvalid, ProviderSettings, ScriptInvalid
from ..workspace import Workspace
from .models import describe_model, model_source


class BlueprintProblem(ValueError):
    """The blueprint cannot be run; the message says which file and why."""


@dataclass(frozen=True)
class BlueprintPlan:
    path: Path
    text: str
    blueprint: Blueprint


def load_blueprint(path: Path) -> BlueprintPlan:
    """Read and parse a blueprint file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BlueprintProblem(f"cannot read blueprint {str(path)!r}: {getattr(error, 'strerror', None) or error}") from None
    try:
        blueprint = parse_blueprint(text, path.name)
    except BlueprintInvalid as invalid:
        raise BlueprintProblem(str(invalid)) from None
    return BlueprintPlan(path, text, blueprint)


def check_commands(plan: BlueprintPlan, workspace: Workspace) -> None:
    """Every verification command must pass the command policy before the run starts."""
    for phase in plan.blueprint.phases:
        refused = refused_commands(phase.verify, workspace)
        if refused:
            command, reason = refused[0]
            raise BlueprintProblem(f"{plan.path.name}: phase {phase.id}: verify command {command!r} is refused by the command policy: {reason}")


def read_blueprint(path: Path, workspace: Workspace) -> BlueprintPlan:
    """Parse and check a blueprint before anything starts."""
    plan = load_blueprint(path)
    check_commands(plan, workspace)
    return plan


def open_models(settings: ProviderSettings) -> ModelSource:
    """The run's model source; a settings problem (a missing script folder) is a `BlueprintProblem`."""
    try:
        return model_source(settings)
    except (ScriptInvalid, ConfigInvalid) as error:
        raise BlueprintProblem(str(error)) from None


def create_run(store: RunStore, plan: BlueprintPlan, workspace: Workspace, settings: ProviderSettings, **extra: Any) -> str:
    """A new run id, recorded with its plan and the model it talks to (resume talks to the same).
    `extra`: what else the run store keeps with it (the owner of a CLI run)."""
    run_id = new_run_id()
    blueprint = plan.blueprint
    store.create_run(run_id, blueprint.title, plan.path.name, plan.text, str(workspace.root), describe_model(settings),
                     [p.id for p in blueprint.phases], **extra)
    return run_id


def run_blueprint(plan: BlueprintPlan, workspace: Workspace, settings: ProviderSettings, reporter: ProgressReporterPort,
                  switch: KillSwitch, *, max_tokens: int | None = None, max_cost_usd: float | None = None) -> Finished:
    """Blocking: one whole run from the workbench, from a fresh run id (resume stays with
    `konstruct blueprint resume`)."""
    models = open_models(settings)
    store, warning = open_for_run()  # a damaged store is set aside, as `konstruct blueprint run` does
    if warning:
        reporter.report(ProviderWarning(0, "run_store", warning))
    from ..blueprint import LocalEngine  # the durable engine (loads dbos): only once a run starts

    with LocalEngine(store.path) as engine:
        run_id = create_run(store, plan, workspace, settings)
        steps = engine.steps(run_id, new=True)
        options = RunOptions(turn_deadline_s=settings.turn_deadline_s, max_tokens=max_tokens, max_cost_usd=max_cost_usd, steps=steps)
        orchestrator = Orchestrator(store, run_id, plan.blueprint, workspace, models, reporter, options, switch, settings.price())
        return asyncio.run(steps.drive(orchestrator.run))
