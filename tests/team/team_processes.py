"""The CLI in a process of its own (workers are killed), and the throwaway PostgreSQL cluster's
address; the fixtures that start the cluster are in conftest.py. (A module of its own, not conftest:
every test folder has a `conftest`, and a test importing from one could get another's.)"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

PROJECT = str(Path(__file__).resolve().parents[2])


def binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


@dataclass(frozen=True)
class Cluster:
    socket: str

    def url(self, database: str, user: str = "postgres", password: str | None = None) -> str:
        auth = f"{user}:{password}@" if password else f"{user}@"
        return f"postgresql://{auth}/{database}?host={self.socket}"

    def sql(self, statement: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(host=self.socket, user="postgres", dbname=database, autocommit=True) as connection:
            connection.execute(statement)


def cli_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": PROJECT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("KONSTRUCT_DATABASE_URL", None)
    return {**env, **(extra or {})}


def cli(*argv: str, env: dict[str, str] | None = None, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "konstruct_tui", *argv], capture_output=True, text=True, env=cli_env(env), timeout=timeout)


def start_worker(*argv: str, env: dict[str, str] | None = None, log: Path | None = None) -> subprocess.Popen[str]:
    out = open(log, "w") if log else subprocess.DEVNULL
    return subprocess.Popen([sys.executable, "-m", "konstruct_tui", "worker", *argv], stdout=out, stderr=subprocess.STDOUT, text=True, env=cli_env(env))
