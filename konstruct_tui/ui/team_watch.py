"""The team database as the workbench's screens see it: which one (the same choice `konstruct
blueprint status` makes), one look at it from a worker thread with its failure as one line, and the
approvals screen opened over a run. Loaded on first use: never on the first paint's path."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen


def open_team_watch(flag: str | None) -> tuple[Any, str | None]:
    """The team database the screens read: `--database URL`, else the one `konstruct blueprint
    status` would read ($KONSTRUCT_DATABASE_URL, `[team] database` in config.toml). (a TeamWatch,
    None), or (None, why not in one line), or (None, None) when none is configured. Nothing connects
    here: the screens look from their worker threads."""
    from ..team import DatabaseProblem, TeamWatch, configured_url

    try:
        url = configured_url(flag)
        return (TeamWatch(url), None) if url else (None, None)
    except DatabaseProblem as problem:
        return None, f"team database: {problem}"


def read_team(watch: Any, look: Any, empty: Any, unused: str | None) -> tuple[Any, str | None]:
    """One look at the team database from a worker thread: (what it gave, None), or (`empty`, the
    one-line problem). `unused`: the reason there is no database to look at (None: none configured)."""
    if watch is None:
        return empty, unused
    from ..team import DatabaseProblem

    try:
        return look(watch), None
    except DatabaseProblem as problem:
        return empty, f"team database: {problem}"


def open_approvals(screen: Screen[Any], watch: Any, run_id: str) -> None:
    from .approvals_screen import ApprovalsScreen

    if watch is None:
        screen.notify("No team database: give --database URL, $KONSTRUCT_DATABASE_URL or [team] database in config.toml.", severity="warning")
        return
    screen.app.push_screen(ApprovalsScreen(watch, run_id))
