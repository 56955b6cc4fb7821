"""Fixtures for team runs: a git repository with the calc project, scripts for the scripted
provider, the CLI in a process of its own (workers are killed), and a throwaway PostgreSQL cluster.

The cluster is started once per session with the Debian binaries (`initdb`, `pg_ctl`), as the
`postgres` user when we are root (PostgreSQL refuses to run as root), on a unix socket in a temp
folder: no TCP port, nothing outside the folder. Each test gets a database of its own.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "blueprint"))
PROJECT = str(HERE.parents[1])


def _binary(name: str) -> str | None:
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


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if not initdb or not pg_ctl:
        pytest.skip("PostgreSQL binaries (initdb, pg_ctl) are not installed: `apt-get install postgresql` (.ci/run does)")
    base = Path(tempfile.mkdtemp(prefix="konstruct-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(base, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    data, sock = base / "data", base / "sock"
    subprocess.run([*prefix, "mkdir", "-p", str(sock)], check=True)
    subprocess.run([*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"], check=True, capture_output=True)
    subprocess.run([*prefix, pg_ctl, "-D", str(data), "-l", str(base / "log"), "-w", "-o",
                    f"-k {sock} -c listen_addresses='' -c fsync=off -c max_connections=200", "start"], check=True, capture_output=True)
    try:
        yield Cluster(str(sock))
    finally:
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def pg_url(cluster: Cluster) -> str:
    name = "t_" + uuid.uuid4().hex[:10]
    cluster.sql(f"CREATE DATABASE {name}")
    return cluster.url(name)


def cli_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": PROJECT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("KONSTRUCT_DATABASE_URL", None)
    return {**env, **(extra or {})}


def cli(*argv: str, env: dict[str, str] | None = None, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "konstruct_tui", *argv], capture_output=True, text=True, env=cli_env(env), timeout=timeout)


def start_worker(*argv: str, env: dict[str, str] | None = None, log: Path | None = None) -> subprocess.Popen[str]:
    out = open(log, "w") if log else subprocess.DEVNULL
    return subprocess.Popen([sys.executable, "-m", "konstruct_tui", "worker", *argv], stdout=out, stderr=subprocess.STDOUT, text=True, env=cli_env(env))
