"""A run's owner is a process (pid and start time), so a reused pid never keeps a dead run `running`."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from konstruct_tui.blueprint import RunStore
from konstruct_tui.blueprint.owner import (
    effective_status,
    owner_alive,
    owner_token,
    start_ticks,
)


def test_the_owner_is_alive_only_while_that_very_process_runs(tmp_path: Path) -> None:
    me = owner_token()
    assert owner_alive(me) is True
    pid, rest = me.split(":", 1)
    ticks = int(rest.split("@")[0])
    reused = f"{pid}:{ticks + 1}@{socket.gethostname()}"  # same pid, another process's start time
    assert owner_alive(reused) is False
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    assert owner_alive(f"{gone.stdout.strip()}:{ticks}@{socket.gethostname()}") is False
    assert owner_alive(f"{pid}:{ticks}@another-host.example") is None  # cannot be told from here
    assert owner_alive(None) is False and owner_alive("garbage") is False


def test_status_of_a_running_run_whose_owner_is_gone_is_interrupted(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite3")
    store.create_run("r1", "T", "b.toml", 'title = "T"', str(tmp_path), {}, ["p1"], owner=owner_token())
    assert effective_status(store.run("r1")) == "running"
    store.claim_run("r1", f"{os.getpid()}:{(start_ticks(os.getpid()) or 0) + 7}@{socket.gethostname()}")
    assert effective_status(store.run("r1")) == "interrupted"
    store.set_run("r1", "stalled")
    assert effective_status(store.run("r1")) == "stalled"  # a recorded end is never second-guessed
