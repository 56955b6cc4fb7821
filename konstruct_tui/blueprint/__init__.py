"""Blueprint runs (DESIGN.md §9): a TOML plan of phases run unattended, where a completion gate,
not the executor, decides when a phase is done.

Public names: `parse_blueprint` / `Blueprint` / `Phase` / `Task` / `BlueprintInvalid` (the format),
`RunStore` (run state in SQLite), `Orchestrator` / `RunOptions` / `new_run_id` (a run),
`ScriptBook` / `SharedModel` / `model_source` (which model each session talks to), the events
`RunStarted` / `PhaseStarted` / `VerdictReached` / `PhaseClosed` / `WatchdogAlarm`, and `render_report`.
"""

from .events import PhaseClosed, PhaseStarted, RunStarted, VerdictReached, WatchdogAlarm
from .models import ScriptBook, SharedModel, model_source
from .orchestrator import Orchestrator, new_run_id
from .plan import Blueprint, BlueprintInvalid, Phase, Task, parse_blueprint
from .report import render as render_report
from .run_options import RunOptions
from .store import RunStore

__all__ = [
    "Blueprint",
    "BlueprintInvalid",
    "Orchestrator",
    "Phase",
    "PhaseClosed",
    "PhaseStarted",
    "RunOptions",
    "RunStarted",
    "RunStore",
    "ScriptBook",
    "SharedModel",
    "Task",
    "VerdictReached",
    "WatchdogAlarm",
    "model_source",
    "new_run_id",
    "parse_blueprint",
    "render_report",
]
