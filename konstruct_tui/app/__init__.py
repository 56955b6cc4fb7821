"""The application layer: between the screen (`ui/`) and the core, and beside the CLI.

It builds runs — workspace, graph ranking, trust gate, model, loop — for the workbench,
`konstruct run` and blueprint runs, so each is built in one place; the CLI, the composition root,
resolves which provider (`ProviderSettings`) and hands it in. It also holds the workbench's logic that
is not drawing: trust previews, the call ledger, the request history, past sessions, the graph
overview, one-line summaries of tool calls, and the demo. Nothing here imports textual; `ui/` reaches
the core only through this package and the agent's events.

Public names:
- runs: `agent_loop` / `drive` / `neighborhood_ranker` (pair-coding), `SessionRuns` /
  `WorkbenchSetup` / `NoModel` (the workbench's runs and what it reads);
- blueprint runs: `load_blueprint` / `check_commands` / `read_blueprint` / `open_models` /
  `create_run` / `run_blueprint` / `BlueprintPlan` / `BlueprintProblem`, and `ScriptBook` /
  `model_source` / `describe_model` (which model a blueprint run talks to);
- trust: `TrustAnswer` / `DENY` / `TrustPreview` / `build_preview`;
- what panes show: `Notice` / `RunEvent`, `GraphOverview`, `SessionSummary`, and the summaries
  `status_token` / `describe_call` / `describe_outcome` / `batch_rows` / `diffs_of`.
"""

from .blueprint_runs import (
    BlueprintPlan,
    BlueprintProblem,
    check_commands,
    create_run,
    load_blueprint,
    open_models,
    read_blueprint,
    run_blueprint,
)
from .events import Notice, RunEvent
from .graph_overview import GraphOverview
from .models import ScriptBook, describe_model, model_source
from .runs import agent_loop, drive, neighborhood_ranker
from .session_list import Replayed, SessionSummary
from .summaries import batch_rows, describe_call, describe_outcome, diffs_of, status_token
from .trust import DENY, TrustAnswer
from .trust_preview import TrustPreview, build_preview
from .workbench import NoModel, SessionRuns, WorkbenchSetup

__all__ = [
    "DENY",
    "BlueprintPlan",
    "BlueprintProblem",
    "GraphOverview",
    "NoModel",
    "Notice",
    "Replayed",
    "RunEvent",
    "ScriptBook",
    "SessionRuns",
    "SessionSummary",
    "TrustAnswer",
    "TrustPreview",
    "WorkbenchSetup",
    "agent_loop",
    "batch_rows",
    "build_preview",
    "check_commands",
    "create_run",
    "describe_call",
    "describe_model",
    "describe_outcome",
    "diffs_of",
    "drive",
    "load_blueprint",
    "model_source",
    "neighborhood_ranker",
    "open_models",
    "read_blueprint",
    "run_blueprint",
    "status_token",
]
