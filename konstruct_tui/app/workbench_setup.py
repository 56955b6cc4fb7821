"""What the CLI resolved before the workbench opens. Its own module, and a light one: the screen
paints its first frame holding only this; the runs it describes load after that frame."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..agent import Limits

if TYPE_CHECKING:
    from ..providers import ProviderSettings


@dataclass(frozen=True)
class WorkbenchSetup:
    """What the CLI resolved before the screen opens."""

    root: Path
    settings: ProviderSettings | None  # None: no model is configured (see model_problem)
    model_problem: str | None = None
    limits: Limits = field(default_factory=Limits)
    demo: bool = False
    theme: str | None = None
    first_request: str | None = None  # sent as soon as the screen is up (the demo uses it)
    blueprint: Path | None = None  # a blueprint to run as soon as the screen is up (before first_request)
    blueprint_settings: ProviderSettings | None = None  # its model, when not `settings` (the demo's scripts)
    # The demo's answer to every request after its first (a script that says it is scripted): a
    # replayed session cannot follow up honestly, and must not replay its turns again.
    follow_up_settings: ProviderSettings | None = None
    # The team database the runs and approvals screens read (`--database URL`); None: the one
    # `konstruct blueprint status` would read ($KONSTRUCT_DATABASE_URL, config.toml), if any.
    team_database: str | None = None


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker while stderr is still the real one.

    A running Textual app replaces sys.stderr with a capture whose fileno() is -1; the resource
    tracker passes sys.stderr.fileno() to its child process, so starting it later fails with
    "bad value(s) in fds_to_keep", and with it the indexer's process pool (forkserver) and every
    graph answer in the workbench. Started here, it is reused for the rest of the process."""
    try:
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    except Exception:  # no multiprocessing support here: the indexer then runs inline anyway
        pass
