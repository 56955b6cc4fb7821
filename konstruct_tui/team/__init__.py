"""Blueprint runs for a team (issue 28): a durable queue of runs in a shared database (DBOS
Transact on PostgreSQL, or SQLite on one machine), served by workers on any number of machines,
with approvals that travel.

Public names: `DatabaseTarget` / `DatabaseProblem` / `configured_url` / `redact` (which database,
shown without its password), `TeamDatabase` (our tables beside DBOS's), `enqueue` / `cancel` /
`Worker` (the engine: these load dbos), `repo_location` / `resolve_base` / `CheckoutFailed` (git),
`ParkingBroker` / `request_id` (approvals), `stop_team_run` / `resume_team_run` /
`answer_approval` / `run_store_copy` / `TeamWatch` / `TeamRefused` (supervising a run from any
process: the CLI and the workbench's screens).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..package_face import lazy_face

if TYPE_CHECKING:
    from .broker import ParkingBroker, request_id
    from .checkout import CheckoutFailed, repo_location, resolve_base
    from .database import DatabaseProblem, DatabaseTarget, configured_url, redact
    from .engine import Worker, cancel, enqueue, enqueue_queued, prepare
    from .records import TeamDatabase
    from .supervise import TeamRefused, TeamWatch, answer_approval, audit_markdown, resume_team_run, run_store_copy, stop_team_run, workflow_ids

__all__ = [
    "CheckoutFailed",
    "DatabaseProblem",
    "DatabaseTarget",
    "ParkingBroker",
    "TeamDatabase",
    "TeamRefused",
    "TeamWatch",
    "Worker",
    "answer_approval",
    "audit_markdown",
    "cancel",
    "configured_url",
    "enqueue",
    "enqueue_queued",
    "prepare",
    "redact",
    "repo_location",
    "request_id",
    "resolve_base",
    "resume_team_run",
    "run_store_copy",
    "stop_team_run",
    "workflow_ids",
]

__getattr__, __dir__ = lazy_face(__name__, __file__)
