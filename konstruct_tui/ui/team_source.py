"""Which team database the workbench's screens read: `--database URL`, else the one `konstruct
blueprint status` would read ($KONSTRUCT_DATABASE_URL, `[team] database` in config.toml), else none
(the runs screen lists this machine's runs alone). Nothing connects here: the screens look from
their worker threads and say in one line when the database cannot be used."""

from __future__ import annotations

from typing import Any


def open_team_watch(flag: str | None) -> tuple[Any, str | None]:
    """(a TeamWatch, None), or (None, why not in one line), or (None, None) when none is configured."""
    from ..team import DatabaseProblem, TeamWatch, configured_url

    try:
        url = configured_url(flag)
        return (TeamWatch(url), None) if url else (None, None)
    except DatabaseProblem as problem:
        return None, f"team database: {problem}"
