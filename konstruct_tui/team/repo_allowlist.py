"""Which repositories a worker serves runs of.

A run names its repository (`blueprint submit --repo`), and a worker clones it, lets the submitter's
model read it, and pushes to it with the worker's own git credentials (its deploy keys, its files).
By default a worker serves any repository it can reach. `konstruct worker --allow-repo PREFIX`
(repeatable) narrows that: a run whose repository is not under one of the prefixes parks before
anything is fetched, saying so in one line.

"Under" is by whole path segments: `/srv/git/team` admits `/srv/git/team/app` but not
`/srv/git/team-secret`; `git@host:team` admits `git@host:team/app.git`. A local path is compared
after symlinks are resolved on the worker; a repository spelled with `..` or an encoded dot or
slash is never under a prefix (a server may undo them after the comparison).
"""

from __future__ import annotations

import re
from pathlib import Path

from .database import redact


class RepoRefused(RuntimeError):
    """The run's repository is outside what this worker serves (one line)."""


def check_repo(repo: str, allowed: tuple[str, ...]) -> None:
    if not allowed:
        return
    where = _normal(repo)
    if where is not None and any(_under(where, _normal(prefix) or prefix) for prefix in allowed):
        return
    raise RepoRefused(f"the run's repository {redact(repo)} is not under what this worker serves "
                      f"(--allow-repo {' '.join(redact(p) for p in allowed)})")


def _normal(repo: str) -> str | None:
    """A URL or scp-like address as written (None when it hides a step up); a local path resolved."""
    if _HIDDEN_STEP.search(repo) or ".." in re.split(r"[/\\:]", repo):
        return None
    if "://" in repo or (":" in repo.split("/", 1)[0] and not repo.startswith("/")):
        return repo
    return str(Path(repo).expanduser().resolve())


def _under(repo: str, prefix: str) -> bool:
    if repo == prefix or repo == prefix.rstrip("/"):
        return True
    return repo.startswith(prefix if prefix.endswith(("/", ":")) else prefix + "/")


_HIDDEN_STEP = re.compile(r"%2e|%2f|%5c", re.IGNORECASE)
