"""Who drives a run: the process id *and* its start time, so a status never says `running` for a
run whose process is gone.

A `running` flag alone lies after a SIGKILL or a power cut; a pid alone lies once the pid is reused
(after a reboot it is likely). The start time (field 22 of /proc/PID/stat, clock ticks since boot)
together with the pid names one process for the life of the machine; the host name keeps a store on
a shared home folder from judging another machine's processes.
"""

from __future__ import annotations

import os
import socket
from typing import Any


def start_ticks(pid: int) -> int | None:
    """The process's start time in clock ticks since boot, or None when there is no such process
    (or it is a zombie: it has exited and only waits to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces or ')': split after the last.
    fields = text[text.rfind(")") + 2:].split()
    if len(fields) < 20 or fields[0] in ("Z", "X"):
        return None
    try:
        return int(fields[19])  # field 22 overall; fields[0] is field 3
    except ValueError:
        return None


def owner_token(pid: int | None = None) -> str:
    pid = os.getpid() if pid is None else pid
    return f"{pid}:{start_ticks(pid) or 0}@{socket.gethostname()}"


def owner_alive(token: str | None) -> bool | None:
    """True: that very process still runs. False: it is gone. None: it runs on another host, so this
    machine cannot tell."""
    if not token:
        return False
    try:
        ident, host = token.rsplit("@", 1)
        pid_text, ticks_text = ident.split(":", 1)
        pid, ticks = int(pid_text), int(ticks_text)
    except ValueError:
        return False
    if host != socket.gethostname():
        return None
    now = start_ticks(pid)
    if now is None:
        return False
    return ticks == 0 or now == ticks  # 0: recorded where /proc was unreadable; the pid is all there is


def effective_status(run: Any) -> str:
    """A run's recorded status, except that one recorded as `running` whose process is gone (pid and
    start time no longer match a live process) is `interrupted`: resumable, and nothing runs it."""
    if run.status == "running" and owner_alive(run.owner) is False:
        return "interrupted"
    return str(run.status)
