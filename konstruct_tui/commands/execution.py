"""Running one command: argv (never a shell), its own session, a timeout, capped output, a
scrubbed environment, and cancellation that kills everything it started at once.

Why the whole tree and SIGKILL: a test runner forks workers, a build starts a compiler, a script
starts a daemon that calls `setsid`; killing the leader alone (or only its process group) leaves
them running, and a child that ignores SIGTERM would outlive a polite stop. Nothing may outlive its
call, so on timeout, cancel (from the cancelling thread itself, not at the next poll) and the
normal end of the leader, every descendant gets SIGKILL (process_tree.py says how they are found;
a confined command's private PID namespace does it in the kernel), and a guardian process kills
them if this process itself is SIGKILLed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .process_tree import GUARDIAN, ProcessTree, become_subreaper, running_trees

DEFAULT_CAP_BYTES = 64 * 1024
_POLL_S = 0.05
_READER_GRACE_S = 2.0

_running: set[int] = set()
_running_lock = threading.Lock()


class Cancellation:
    """A cancel handle shared between whoever runs commands and whoever may stop them (the kill
    switch, the UI, an asyncio task). `cancel()` is safe from any thread and acts at once."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: dict[int, Callable[[], None]] = {}
        self._next = 0

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def cancel(self) -> None:
        with self._lock:
            self._event.set()
            callbacks = list(self._callbacks.values())
        for callback in callbacks:
            callback()

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` on cancel (now, if already cancelled). Returns the function that unregisters it."""
        with self._lock:
            if not self._event.is_set():
                key = self._next
                self._next += 1
                self._callbacks[key] = callback

                def unregister() -> None:
                    self._callbacks.pop(key, None)

                return unregister
        callback()
        return lambda: None

    def wait(self, timeout: float | None = None) -> bool:
        return self._event.wait(timeout)


class ChildConfinement(Protocol):
    """A sandbox for the child (`konstruct_tui.sandbox.Confinement`): the environment it needs (a
    private TMPDIR) and the confined thread that starts the child, which inherits the confinement."""

    def environment(self, env: Mapping[str, str] | None) -> dict[str, str]: ...

    def spawn(self, start: Callable[[], subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]: ...

    @property
    def contains_descendants(self) -> bool:
        """True when the kernel kills every descendant with the leader (a private PID namespace)."""
        ...


@dataclass(frozen=True)
class ProcessOutcome:
    """How a command ended. `status`: ok, failed (non-zero exit or died of a signal), timeout,
    killed (cancelled), not_found (no such program)."""

    status: str
    exit_code: int | None
    duration_s: float
    stdout: str
    stderr: str
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    signal: int | None = None
    reason: str | None = None


class CappedOutput:
    """Keeps the first and the last `cap // 2` bytes of a stream, and how many were dropped."""

    def __init__(self, cap: int) -> None:
        self.head_cap = cap // 2
        self.tail_cap = cap - self.head_cap
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.head_cap - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > self.tail_cap:
                del self.tail[: len(self.tail) - self.tail_cap]

    @property
    def truncated(self) -> bool:
        return self.total > len(self.head) + len(self.tail)

    def text(self) -> str:
        head = self.head.decode("utf-8", "replace")
        tail = self.tail.decode("utf-8", "replace")
        if not self.truncated:
            return (bytes(self.head) + bytes(self.tail)).decode("utf-8", "replace")
        dropped = self.total - len(self.head) - len(self.tail)
        return f"{head}\n[... {dropped} bytes truncated ...]\n{tail}"


def _read_into(fd: int, sink: CappedOutput) -> None:
    try:
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            sink.feed(chunk)
    except OSError:
        return


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _exited(pid: int) -> bool:
    """Whether the child has exited, leaving it unreaped (WNOWAIT)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def running_groups() -> set[int]:
    """Process groups of commands running right now (for a kill switch that holds no handle)."""
    with _running_lock:
        return set(_running)


def kill_all_running() -> int:
    """SIGKILL every running command and all it started. Returns how many commands were signalled."""
    trees = running_trees()
    for tree in trees:
        tree.kill()
    return len(trees)


def run_process(
    argv: Sequence[str],
    cwd: str | os.PathLike[str] | Path,
    *,
    timeout_s: float,
    env: Mapping[str, str] | None = None,
    cap_bytes: int = DEFAULT_CAP_BYTES,
    cancellation: Cancellation | None = None,
    confinement: ChildConfinement | None = None,
) -> ProcessOutcome:
    """Run `argv` in `cwd` and wait for it (or the timeout, or a cancel). With `confinement`, the
    child (and everything it starts) runs inside that sandbox; this process never does."""
    started = time.monotonic()
    if cancellation is not None and cancellation.cancelled:
        return ProcessOutcome("killed", None, 0.0, "", "", reason="cancelled before it started")
    child_env = confinement.environment(env) if confinement is not None else (dict(env) if env is not None else None)

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            list(argv), cwd=cwd, env=child_env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, close_fds=True,
        )

    become_subreaper()  # orphans of the command come to us, not to init, so they can be found
    try:
        proc = confinement.spawn(start) if confinement is not None else start()
    except FileNotFoundError:
        return ProcessOutcome("not_found", None, time.monotonic() - started, "", "",
                              reason=f"no program named {argv[0]!r} was found")
    except OSError as error:
        return ProcessOutcome("failed", None, time.monotonic() - started, "", "",
                              reason=f"{argv[0]!r} could not be started: {error.strerror or error}")
    pgid = proc.pid  # start_new_session: the child leads a new session and process group
    contained = bool(getattr(confinement, "contains_descendants", False))
    tree = ProcessTree(proc.pid, contained=contained)
    GUARDIAN.watch(proc.pid, contained=contained)
    with _running_lock:
        _running.add(pgid)
    outputs = (CappedOutput(cap_bytes), CappedOutput(cap_bytes))
    readers = [
        # Both pipes exist: the process was started with stdout=PIPE and stderr=PIPE.
        threading.Thread(target=_read_into, args=(stream.fileno(), sink), daemon=True)
        for stream, sink in zip((proc.stdout, proc.stderr), outputs, strict=True)
        if stream is not None
    ]
    for reader in readers:
        reader.start()
    reaping = threading.Lock()
    reaped = False

    def kill_on_cancel() -> None:
        with reaping:  # never signal a group id after its leader was reaped (the id may be reused)
            if not reaped:
                tree.kill()

    unregister = cancellation.on_cancel(kill_on_cancel) if cancellation else (lambda: None)
    ending: str | None = None
    try:
        deadline = started + timeout_s
        pause = 0.001
        # Wait for the leader to exit without reaping it: while it is an unreaped zombie its pid (the
        # group id) cannot be reused, so every killpg below hits our group and nobody else's.
        while not _exited(proc.pid):
            if cancellation is not None and cancellation.cancelled:
                ending = "killed"
            elif time.monotonic() >= deadline:
                ending = "timeout"
            if ending:
                tree.kill()
                break
            time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
            pause = min(pause * 2, _POLL_S)
        if ending is None and cancellation is not None and cancellation.cancelled:
            ending = "killed"
    finally:
        unregister()
        with _running_lock:
            _running.discard(pgid)
        with reaping:
            tree.kill()  # nothing outlives the call (and stragglers would keep our pipes open)
            proc.wait()  # now reap the leader
            reaped = True
        tree.close()
        GUARDIAN.forget(proc.pid)
    for reader in readers:
        reader.join(_READER_GRACE_S)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None and not any(r.is_alive() for r in readers):
            stream.close()
    return _outcome(proc.returncode, ending, time.monotonic() - started, outputs, timeout_s,
                    any(r.is_alive() for r in readers))


def _outcome(code: int, ending: str | None, duration: float, outputs: tuple[CappedOutput, CappedOutput],
             timeout_s: float, leaked: bool) -> ProcessOutcome:
    out, err = outputs
    signal_number = -code if code is not None and code < 0 else None
    if ending == "timeout":
        status, reason = "timeout", f"still running after {timeout_s:g} s: it and every process it started were killed"
    elif ending == "killed":
        status, reason = "killed", "cancelled: it and every process it started were killed"
    elif code == 0:
        status, reason = "ok", None
    elif signal_number is not None:
        status, reason = "failed", f"died of signal {signal.Signals(signal_number).name}"
    else:
        status, reason = "failed", f"exited with status {code}"
    if leaked:
        reason = (reason + "; " if reason else "") + "a process outside its group kept the output open"
    return ProcessOutcome(
        status, code if signal_number is None else None, round(duration, 3), out.text(), err.text(),
        out.truncated, err.truncated, signal_number, reason,
    )


async def run_process_async(argv: Sequence[str], cwd: str | os.PathLike[str] | Path, *, timeout_s: float,
                            env: Mapping[str, str] | None = None, cap_bytes: int = DEFAULT_CAP_BYTES,
                            cancellation: Cancellation | None = None,
                            confinement: ChildConfinement | None = None) -> ProcessOutcome:
    """`run_process` in a worker thread; cancelling the awaiting task kills the process group."""
    handle = cancellation or Cancellation()
    try:
        return await asyncio.to_thread(run_process, argv, cwd, timeout_s=timeout_s, env=env,
                                       cap_bytes=cap_bytes, cancellation=handle, confinement=confinement)
    except asyncio.CancelledError:
        handle.cancel()
        raise
