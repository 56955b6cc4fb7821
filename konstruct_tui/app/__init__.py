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
- the runs screen's reading of the run store (run_browser): `open_run_store`, `list_runs`, `read_run`,
  `stop_run`, `start_resume`, `report_markdown`, with `RunRow` / `RunView` / `Verification` / `ResumeProcess`;
- trust: `TrustAnswer` / `DENY` / `TrustPreview` / `build_preview`, and checking a narrowed grant
  typed in the prompt (`command_rule`, `edit_glob`, `GrantChoiceError`), and a chain's steps
  (`ChainPart`, `chain_steps`, `rules_per_step`, `step_rules`);
- what panes show: `Notice` / `RunEvent`, `GraphOverview`, `SessionSummary`, and the summaries
  `status_token` / `describe_call` / `describe_outcome` / `verdict` / `batch_rows` / `diffs_of` /
  `path_tail` / `cut_paths`, a command's result as a terminal shows it (`command_report` / `CommandReport`) and any
  other result as readable text (`result_text`).
- the person's commands in the workbench: slash commands (`parse_slash`, `complete_command`,
  `help_lines`), @file mentions (`attach_mentions`, `project_files`, `fuzzy_files`, `mention_at`),
  `session_diff`, `undo_last_batch`, `CostLedger`, `compact_session`, and the model picker's plain half
  (`detect_local_servers`, `key_source`, `save_model_choice`, `settings_for`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..package_face import lazy_face

if TYPE_CHECKING:
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
    from .run_browser import (
        ResumeProcess,
        RunRow,
        RunView,
        TEAM_RESUMABLE,
        Verification,
        age_text,
        list_runs,
        open_run_store,
        read_run,
        report_markdown,
        start_resume,
        stop_run,
    )
    from .session_list import Replayed, SessionSummary
    from .command_report import CUT_MARK, CommandReport, command_report
    from .result_text import result_text
    from .summaries import batch_rows, cut_paths, describe_call, describe_outcome, diffs_of, path_tail, status_token, verdict
    from .grant_choices import ChainPart, GrantChoiceError, chain_steps, command_rule, edit_glob, rules_per_step, step_rules
    from .trust import DENY, TrustAnswer
    from .trust_preview import TrustPreview, build_preview
    from .workbench import NoModel, SessionRuns
    from .workbench_setup import WorkbenchSetup, start_resource_tracker
    from .mentions import Attachment, attach_mentions, fuzzy_files, mention_at, project_files
    from .model_servers import (
        REMOTE_CHOICES,
        USUAL_PORTS,
        LocalServer,
        ModelChoice,
        detect_local_servers,
        key_source,
        save_model_choice,
        settings_for,
    )
    from .session_commands import CompactionUnavailable, CostLedger, compact_session, undo_last_batch
    from .session_diff import session_diff
    from .slash_commands import COMMANDS, SlashCommand, SlashInput, complete_command, help_lines, literal_request, parse_slash

__all__ = [
    "CUT_MARK",
    "CommandReport",
    "command_report",
    "result_text",
    "path_tail",
    "cut_paths",
    "verdict",
    "ResumeProcess",
    "RunRow",
    "age_text",
    "TEAM_RESUMABLE",
    "RunView",
    "Verification",
    "list_runs",
    "open_run_store",
    "read_run",
    "report_markdown",
    "start_resume",
    "stop_run",
    "COMMANDS",
    "DENY",
    "REMOTE_CHOICES",
    "USUAL_PORTS",
    "Attachment",
    "BlueprintPlan",
    "BlueprintProblem",
    "CompactionUnavailable",
    "CostLedger",
    "GraphOverview",
    "LocalServer",
    "ModelChoice",
    "NoModel",
    "Notice",
    "Replayed",
    "RunEvent",
    "ScriptBook",
    "SessionRuns",
    "SessionSummary",
    "SlashCommand",
    "SlashInput",
    "TrustAnswer",
    "GrantChoiceError",
    "ChainPart",
    "chain_steps",
    "command_rule",
    "edit_glob",
    "rules_per_step",
    "step_rules",
    "TrustPreview",
    "WorkbenchSetup",
    "start_resource_tracker",
    "agent_loop",
    "attach_mentions",
    "batch_rows",
    "build_preview",
    "check_commands",
    "compact_session",
    "complete_command",
    "create_run",
    "describe_call",
    "describe_model",
    "describe_outcome",
    "detect_local_servers",
    "diffs_of",
    "drive",
    "fuzzy_files",
    "help_lines",
    "key_source",
    "literal_request",
    "load_blueprint",
    "mention_at",
    "model_source",
    "neighborhood_ranker",
    "open_models",
    "parse_slash",
    "project_files",
    "read_blueprint",
    "run_blueprint",
    "save_model_choice",
    "session_diff",
    "settings_for",
    "status_token",
    "undo_last_batch",
]

__getattr__, __dir__ = lazy_face(__name__, __file__)
