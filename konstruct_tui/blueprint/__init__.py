"""Blueprint runs (DESIGN.md §9): a TOML plan of phases run unattended, where a completion gate,
not the executor, decides when a phase is done.

Public names: `parse_blueprint` / `Blueprint` / `Phase` / `Task` / `BlueprintInvalid` (the format),
`RunStore` (run state in SQLite), `LocalEngine` (the durable engine a run on one machine goes
through: loads dbos), `Orchestrator` / `RunOptions` / `new_run_id` (a run), `workflow_id` / `continuation_of` (a run's workflows in the engine: `RUN`, `RUN~N`),
`ModelSource` / `SharedModel` (the port for which model each session talks to: the
composition root hands the run its source; this package imports no provider), `refused_commands`, the events
`RunStarted` / `PhaseStarted` / `VerdictReached` / `PhaseClosed` / `WatchdogAlarm` / `SessionOpened`, `render_report`, `owner_alive` and `output_excerpt` (the head and tail of a
command's output).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..package_face import lazy_face

if TYPE_CHECKING:
    from .engine import LocalEngine
    from .events import PhaseClosed, PhaseStarted, RunStarted, SessionOpened, VerdictReached, WatchdogAlarm
    from .models import ModelSource, SharedModel
    from .orchestrator import Orchestrator, new_run_id
    from .owner import effective_status, owner_alive, owner_token
    from .plan import Blueprint, BlueprintInvalid, Phase, Task, parse_blueprint
    from .report import render as render_report
    from .run_options import RunOptions, continuation_of, workflow_id
    from .store import RunStore, StoreDamaged, StoreUnusable, damaged_message, default_path
    from .store_repair import open_for_run
    from .verification import output_excerpt, refused_commands

__all__ = [
    "Blueprint",
    "BlueprintInvalid",
    "LocalEngine",
    "ModelSource",
    "Orchestrator",
    "Phase",
    "PhaseClosed",
    "PhaseStarted",
    "RunOptions",
    "RunStarted",
    "RunStore",
    "SessionOpened",
    "SharedModel",
    "StoreDamaged",
    "StoreUnusable",
    "Task",
    "VerdictReached",
    "WatchdogAlarm",
    "continuation_of",
    "damaged_message",
    "default_path",
    "effective_status",
    "new_run_id",
    "open_for_run",
    "output_excerpt",
    "owner_alive",
    "owner_token",
    "parse_blueprint",
    "refused_commands",
    "render_report",
    "workflow_id",
]

__getattr__, __dir__ = lazy_face(__name__, __file__)
