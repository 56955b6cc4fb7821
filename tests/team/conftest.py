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
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "blueprint"))  # blueprint_harness
sys.path.insert(0, str(Path(__file__).resolve().parent))

from team_processes import Cluster, binary  # noqa: E402


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    """The postmaster runs as our own child, in our session (not through `pg_ctl start`, which
    daemonizes it into a session of its own): this test process becomes a child subreaper once it
    runs a command unconfined (commands/process_tree.py), and a daemon of ours that lands on us in
    another session is taken for a command's stray and killed at the end of the next command.
    That killed the cluster under the team tests whenever an unconfined sandbox test ran first in
    the same worker."""
    initdb, pg_ctl = binary("initdb"), binary("pg_ctl")
    postgres = str(Path(pg_ctl).with_name("postgres")) if pg_ctl else None
    if not initdb or not pg_ctl or not postgres or not Path(postgres).exists():
        pytest.skip("PostgreSQL binaries (initdb, pg_ctl, postgres) are not installed: `apt-get install postgresql` (.ci/run does)")
    base = Path(tempfile.mkdtemp(prefix="konstruct-pg-"))
    prefix: list[str] = []
    user: dict[str, int] = {}
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(base, owner.pw_uid, owner.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
        user = {"user": owner.pw_uid, "group": owner.pw_gid, "extra_groups": []}
    data, sock = base / "data", base / "sock"
    subprocess.run([*prefix, "mkdir", "-p", str(sock)], check=True)
    subprocess.run([*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"], check=True, capture_output=True)
    with open(base / "log", "ab") as log:
        server = subprocess.Popen([postgres, "-D", str(data), "-k", str(sock), "-c", "listen_addresses=", "-c", "fsync=off",
                                   "-c", "max_connections=200"], stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, **user)  # type: ignore[call-overload]
    found = Cluster(str(sock))
    try:
        _wait_until_ready(found, server, base / "log")
        yield found
    finally:
        server.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
        shutil.rmtree(base, ignore_errors=True)


def _wait_until_ready(found: Cluster, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            found.sql("SELECT 1")
            return
        except Exception:  # noqa: BLE001 - not accepting connections yet
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not start: {log.read_text(errors='replace')[-2000:]}") from None
            time.sleep(0.1)


@pytest.fixture
def pg_url(cluster: Cluster) -> str:
    name = "t_" + uuid.uuid4().hex[:10]
    cluster.sql(f"CREATE DATABASE {name}")
    return cluster.url(name)
