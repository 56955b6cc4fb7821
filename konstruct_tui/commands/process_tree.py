"""Nothing a command starts outlives its call: finding every descendant and killing it.

Killing the process group is not enough: a descendant that calls `setsid()` (a daemon, `nohup ... &`
from a script, a double fork) leaves the group and would survive the timeout, the normal end of the
command and the kill switch. Three layers:

- A confined command in a private PID namespace (sandbox/namespaces.py) needs nothing more: when
  its first process dies the kernel kills every process in the namespace. `ProcessTree(contained=True)`.
- Elsewhere this process is a child subreaper (PR_SET_CHILD_SUBREAPER): an orphaned descendant is
  re-parented to us, never to init, so it can still be found. At the end of a call (and on timeout
  or cancel) the command's tree is the closure, over parent links, of its leader, the processes in
  its session or group, and the *strays*: our own children in another session that no running
  command leads (only commands get their own session here; git and the rest share ours). Each
  found process is killed (SIGKILL, a few rounds, so a fork racing the kill is caught) and reaped.
- The `Guardian`: a small process that outlives a SIGKILLed workbench. It holds the read end of a
  pipe; we tell it every leader, and without a namespace it follows the leader's tree itself (every
  50 ms while such a command runs); when the pipe ends because we died, it kills them all. PR_SET_PDEATHSIG on the leader would need Python in the
  child (`preexec_fn`; see sandbox/confine.py) and fires when the *thread* that started it ends,
  which for our throwaway launcher thread is at once.

Why not a cgroup: v2 needs a delegated, writable subtree, which a person's shell rarely has; the
namespace covers the sandboxed case and the subreaper the rest.

A rule this relies on: only `run_process` starts children in a session of their own. A stray is
recognised by that (another session, parent us); a child some other code started with
`start_new_session=True` would be taken for a command's orphan while an unconfined command runs.
Zombies of orphans that no command claimed are left alone: reaping them could steal the exit status
a `Popen` elsewhere is waiting for.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading

_PR_SET_CHILD_SUBREAPER = 36
_LIBC = ctypes.CDLL(None, use_errno=True)
_ROUNDS = 6
_subreaper_pid = 0
_lock = threading.Lock()
_trees: set[ProcessTree] = set()


def become_subreaper() -> bool:
    """Make this process the subreaper of everything it starts (once per process). False where the
    kernel refuses (then orphans go to init and only the group and session can be killed)."""
    global _subreaper_pid
    if _subreaper_pid == os.getpid():
        return True
    if _LIBC.prctl(ctypes.c_int(_PR_SET_CHILD_SUBREAPER), ctypes.c_ulong(1), ctypes.c_ulong(0),
                   ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
        return False
    _subreaper_pid = os.getpid()
    return True


def _stat(pid: int) -> tuple[int, int, int, int] | None:
    """(ppid, pgid, sid, start time) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read()
    except OSError:
        return None
    fields = text[text.rindex(b")") + 2:].split()
    return int(fields[1]), int(fields[2]), int(fields[3]), int(fields[19])


def children(pid: int) -> list[int]:
    """The children of a process, from /proc/PID/task/*/children (a walk costs the tree's size, not
    the whole process table's). An orphan re-parented to a subreaper appears there too."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    out: list[int] = []
    for tid in tasks:
        try:
            fd = os.open(f"/proc/{pid}/task/{tid}/children", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            out.extend(int(x) for x in os.read(fd, 1 << 20).split())
        finally:
            os.close(fd)
    return out


def _session(pid: int) -> int | None:
    try:
        return os.getsid(pid)
    except OSError:
        return None


class ProcessTree:
    """The processes one command started, found from its leader (see the module docstring)."""

    def __init__(self, leader: int, *, contained: bool = False) -> None:
        self.leader = leader
        self.contained = contained
        self.members: dict[int, int] = {}  # pid: start time (so a reused pid is never signalled)
        found = _stat(leader)
        self._start = found[3] if found else 0
        with _lock:
            _trees.add(self)

    def close(self) -> None:
        with _lock:
            _trees.discard(self)

    def observe(self) -> list[int]:
        """Add every process now in the tree (descendants of the leader and of the strays); returns
        the pids that are new."""
        if self.contained:
            return []
        me, my_session = os.getpid(), os.getsid(0)
        with _lock:
            taken = {t.leader for t in _trees if t is not self}
            taken |= set().union(*(t.members for t in _trees if t is not self))
        taken.add(GUARDIAN.pid or -1)
        frontier = [self.leader, *self.members]
        frontier += [p for p in children(me) if p not in taken and p not in self.members
                     and _session(p) not in (my_session, None)]
        new: list[int] = []
        seen = set(frontier)
        while frontier:
            pid = frontier.pop()
            if pid != self.leader and pid not in self.members:
                found = _stat(pid)
                if found is None:
                    continue
                self.members[pid] = found[3]
                new.append(pid)
            for child in children(pid):
                if child not in seen and child not in taken:
                    seen.add(child)
                    frontier.append(child)
        return new

    def kill(self) -> None:
        """SIGKILL the whole tree, in rounds until a census finds nothing alive, then reap the
        orphans that came to us (the leader stays for its Popen to reap)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.leader, signal.SIGKILL)
        if self.contained:
            return
        for _ in range(_ROUNDS):
            self.observe()
            alive = False
            for pid, start in list(self.members.items()):
                found = _stat(pid)
                if found is None or found[3] != start or pid == self.leader:
                    continue
                alive = True
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            if not alive:
                break
        self._reap()

    def _reap(self) -> None:
        me = os.getpid()
        for pid, start in self.members.items():
            found = _stat(pid)
            if pid == self.leader or found is None or found[3] != start or found[0] != me:
                continue
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def running_trees() -> list[ProcessTree]:
    with _lock:
        return list(_trees)


# The guardian: reads "+ pid start contained" / "- pid" lines. While an uncontained command runs it
# follows that command's tree itself every 50 ms (descendants, and strays: our children in another
# session), because after we die the orphans belong to init and cannot be told apart any more.
_GUARDIAN_CODE = r"""
import os, select, signal, sys
parent, me = int(sys.argv[1]), os.getpid()
parent_groups = {os.getsid(parent), None}
leaders, members, loose = {}, {}, set()
def stat(pid):
    try:
        text = open(f"/proc/{pid}/stat", "rb").read()
    except OSError:
        return None
    f = text[text.rindex(b")") + 2:].split()
    return int(f[1]), int(f[2]), int(f[3]), int(f[19])
def children(pid):
    out = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            out.extend(int(x) for x in open(f"/proc/{pid}/task/{tid}/children", "rb").read().split())
        except OSError:
            pass
    return out
def session(pid):
    try:
        return os.getsid(pid)
    except OSError:
        return None
def sweep():
    frontier = list(leaders) + list(members)
    frontier += [p for p in children(parent) if p != me and p not in leaders and session(p) not in parent_groups]
    seen = set(frontier)
    while frontier:
        pid = frontier.pop()
        if pid not in leaders and pid not in members:
            found = stat(pid)
            if found is None:
                continue
            members[pid] = found[3]
        for child in children(pid):
            if child not in seen:
                seen.add(child)
                frontier.append(child)
buffer = b""
while True:
    ready, _, _ = select.select([0], [], [], 0.05 if loose else None)
    if ready:
        data = os.read(0, 65536)
        if not data:
            break
        buffer += data
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            kind, *rest = line.decode().split()
            if kind == "+":
                leaders[int(rest[0])] = int(rest[1])
                if rest[2] == "0":
                    loose.add(int(rest[0]))
            elif kind == "-":
                leaders.pop(int(rest[0]), None)
                loose.discard(int(rest[0]))
                if not leaders:
                    members.clear()
    if loose:
        sweep()
for _ in range(3):
    if loose:
        sweep()  # before killing: a killed process's children go to init and are lost to view
    for pid, start in list(leaders.items()) + list(members.items()):
        found = stat(pid)
        if found and found[3] == start:
            for kill in (os.killpg, os.kill):
                try:
                    kill(pid, signal.SIGKILL)
                except OSError:
                    pass
"""


class Guardian:
    """The process that kills what we watched when this process dies without cleaning up."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._owner = 0
        self._lock = threading.Lock()
        atexit.register(self.close)

    def close(self) -> None:
        """At our exit: the guardian kills what is still watched (nothing, after a clean end) and ends."""
        with self._lock:
            proc, self._proc = (self._proc, None) if self._owner == os.getpid() else (None, self._proc)
        if proc is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()  # type: ignore[union-attr]
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(2)

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._owner == os.getpid() else None

    def _send(self, line: str) -> None:
        with self._lock:
            if self._proc is None or self._owner != os.getpid():
                self._proc = subprocess.Popen(
                    [sys.executable, "-I", "-S", "-c", _GUARDIAN_CODE, str(os.getpid())], stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
                self._owner = os.getpid()
            try:
                self._proc.stdin.write(line.encode())  # type: ignore[union-attr]
                self._proc.stdin.flush()  # type: ignore[union-attr]
            except (BrokenPipeError, ValueError):
                self._proc = None

    def watch(self, pid: int, *, contained: bool) -> None:
        """Kill `pid` (a command's leader) if we die; follow its tree too unless it is `contained`."""
        start = (_stat(pid) or (0, 0, 0, 0))[3]
        self._send(f"+ {pid} {start} {int(contained)}\n")

    def forget(self, pid: int) -> None:
        self._send(f"- {pid}\n")


GUARDIAN = Guardian()
