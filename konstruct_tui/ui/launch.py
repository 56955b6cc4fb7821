"""Opening the workbench from the command line."""

from __future__ import annotations

from ..app import WorkbenchSetup
from .app import Workbench


def run_workbench(setup: WorkbenchSetup) -> None:
    _start_resource_tracker()
    Workbench(setup).run()


def _start_resource_tracker() -> None:
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
