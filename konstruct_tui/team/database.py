"""Which database a team's runs live in, and opening it: one URL for the DBOS system tables and ours.

Chosen by `--database URL`, else `$KONSTRUCT_DATABASE_URL`, else `database` under `[team]` in
config.toml, else SQLite in the user data dir (one machine, no settings). A URL may hold a password:
it is only ever shown redacted (`redact`), every error message is scrubbed of it, and no run record
keeps the URL at all (a worker reaches the database with its own settings).

A database that cannot be reached, holds our tables at a schema version this build does not know,
or holds somebody else's tables is a `DatabaseProblem`: one line, exit 2, nothing written.
"""

from __future__ import annotations

import os
import re
import tomllib
from urllib.parse import unquote
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..userdirs import config_dir, data_dir, private_dir

ENV = "KONSTRUCT_DATABASE_URL"
SCHEMA = "konstruct"  # PostgreSQL: our tables in a schema of their own (roles are granted on it)


class DatabaseProblem(RuntimeError):
    """The team database cannot be used; the message is one line, with any password redacted."""


def redact(url: str) -> str:
    """The URL as it may be shown: a password (in the authority or as `password=`) becomes ***."""
    shown = re.sub(r"(//[^/@:]*:)[^/]*@", r"\1***@", url)
    return re.sub(r"(?i)(password=)[^&]*", r"\1***", shown)


def _password(url: str) -> str | None:
    found = re.search(r"//[^/@:]*:([^@/]*)@", url) or re.search(r"(?i)password=([^&]*)", url)
    return found.group(1) if found and found.group(1) else None


def scrub(message: str, url: str) -> str:
    """An error text with the URL's password taken out wherever a driver repeated it."""
    secret = _password(url)
    text = message.replace(url, redact(url))
    if secret:  # as written and as a driver may repeat it, %-decoded
        for spelling in {secret, unquote(secret)}:
            text = text.replace(spelling, "***")
    return " ".join(text.split())


def default_url() -> str:
    return f"sqlite:///{private_dir(data_dir() / 'team') / 'runs.sqlite3'}"


def configured_url(flag: str | None) -> str | None:
    """The URL the person chose (flag, environment, config.toml), or None: the one-machine default."""
    if flag:
        return flag
    if os.environ.get(ENV):
        return os.environ[ENV]
    path = config_dir() / "config.toml"
    try:
        with path.open("rb") as handle:
            table = tomllib.load(handle).get("team") or {}
    except FileNotFoundError:
        return None
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise DatabaseProblem(f"config file {path.name} in the konstruct config dir is unreadable: {error}") from None
    value = table.get("database") if isinstance(table, dict) else None
    return str(value) if value else None


@dataclass(frozen=True)
class DatabaseTarget:
    url: str  # as given: handed to DBOS and the driver, never printed (use `shown`)

    @classmethod
    def choose(cls, flag: str | None) -> DatabaseTarget:
        url = configured_url(flag) or default_url()
        if not re.match(r"^(sqlite|postgres|postgresql)(\+\w+)?://", url):
            raise DatabaseProblem(f"database {redact(url)!r}: give a sqlite:///PATH or postgresql://… URL")
        return cls(url)

    @property
    def shown(self) -> str:
        return redact(self.url)

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    @property
    def driver_url(self) -> str:
        """SQLAlchemy's spelling: PostgreSQL through psycopg 3 (what DBOS itself uses)."""
        return re.sub(r"^postgres(ql)?(\+\w+)?://", "postgresql+psycopg://", self.url)

    def engine(self) -> Any:
        import sqlalchemy as sa

        if self.is_sqlite:
            path = self.url.split("///", 1)[-1]
            if path and Path(path).parent != Path("") and not Path(path).parent.is_dir():
                raise DatabaseProblem(f"database {self.shown}: its folder does not exist")
            engine = sa.create_engine(self.url, connect_args={"timeout": 30})
            return engine.execution_options(schema_translate_map={SCHEMA: None})
        return sa.create_engine(self.driver_url, connect_args={"connect_timeout": 10}, pool_pre_ping=True)
