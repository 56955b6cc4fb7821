"""Fixtures for team runs: a throwaway PostgreSQL cluster and a database of its own per test.

The cluster is started once per session with the Debian binaries (`initdb`, `pg_ctl`), as the
`postgres` user when we are root (PostgreSQL refuses to run as root), on a unix socket in a temp
folder: no TCP port, nothing outside the folder. Helpers live in team_processes.py and
team_harness.py (never imported from a conftest).
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "blueprint"))  # blueprint_harness
sys.path.insert(0, str(Path(__file__).resolve().parent))

from team_processes import Cluster, binary  # noqa: E402


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    initdb, pg_ctl = binary("initdb"), binary("pg_ctl")
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
