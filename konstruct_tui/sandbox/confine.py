"""Starting a child inside the sandbox: the ruleset is built in the parent, applied to one
throwaway thread, and that thread starts the child, which inherits the thread's Landlock domain.

Why a throwaway thread, not `preexec_fn` and not a launcher program:
- A launcher (`python -m ...` that confines itself, then execs) costs a Python start-up, tens of
  milliseconds per command: far past the 1.1x budget on a short command.
- `preexec_fn` runs Python in the forked child of a multi-threaded parent (the app has reader,
  worker and UI threads): a lock some other thread held at fork time stays locked forever in the
  child. It also forces `fork()` where subprocess would use `vfork()`; measured, it costs more
  than the command.
- Landlock and no_new_privs are per-thread (landlock_restrict_self(2) "restricts the calling
  thread"; without the TSYNC flag, which we never pass, other threads are untouched) and a child
  inherits the credentials of the thread that cloned it. So a fresh thread confines itself, calls
  `subprocess.Popen` (vfork + exec: no Python runs in the child at all) and ends. The app's other
  threads, and the app itself, never lose a right; the confined thread runs nothing but that one
  Popen call, and its domain ends with it. It never starts a thread of its own.
Grandchildren inherit the domain too: Landlock domains pass to every descendant and cannot be left.

Why the thread is prepared ahead: a brand-new thread on a busy machine waits behind every runnable
task before it first runs (the scheduler's start penalty for new tasks), which costs more than
starting `true`. So, after each command, the background thread prepares the next launcher for the
same plan (temp folder, ruleset, a thread that has already confined itself and sleeps on a lock);
the next command only wakes it. One prepared launcher per plan, a few plans at most.
"""

from __future__ import annotations

import _thread
import atexit
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from . import landlock, namespaces, seccomp
from .plan import SandboxPlan
from .privileges import drop_dangerous_capabilities
from .temp_folders import BACKGROUND, TEMP_FOLDERS

T = TypeVar("T")
_TEMP_VARIABLES = ("TMPDIR", "TMP", "TEMP", "TEMPDIR")
_KEEP_PLANS = 4


class _Launcher:
    """A thread that confined itself (with its own private temp folder) and waits to start one child."""

    def __init__(self, plan: SandboxPlan) -> None:
        self.temp_dir = TEMP_FOLDERS.take()
        self._box: dict[str, Any] = {}
        self._go = _thread.allocate_lock()
        self._go.acquire()
        self._done = _thread.allocate_lock()
        self._done.acquire()
        try:
            ruleset = build_ruleset(plan, self.temp_dir)
        except BaseException:
            TEMP_FOLDERS.discard(self.temp_dir)
            raise
        # Installed whatever the network setting: it also keeps the kernel keyring and user
        # namespaces out of reach (seccomp.py); the network part only when the network is blocked.
        syscall_filter = seccomp.seccomp_filter(block_network=plan.blocks_network)
        isolate = _view(plan, self.temp_dir) if plan.namespaces else None
        # A bare `_thread` thread and locks: threading.Thread's start()/join() add hand-offs.
        try:
            _thread.start_new_thread(self._body, (ruleset, syscall_filter, isolate, plan.blocks_network))
        except BaseException:
            ruleset.close()
            TEMP_FOLDERS.discard(self.temp_dir)
            raise

    def _body(self, ruleset: landlock.Ruleset, syscall_filter: bytes | None,
              isolate: namespaces.View | None, blocks_network: bool) -> None:
        try:
            if isolate is not None:  # before Landlock: a Landlock-confined thread may not mount
                # With the network blocked, a network namespace of its own (namespaces.py: netlink).
                namespaces.enter(isolate, private_network=blocks_network)
                # The view's /proc is a procfs of its own (namespaces._proc): a rule made on the
                # machine's /proc (in build_ruleset) does not reach it.
                ruleset.allow_beneath("/proc", landlock.READ_RIGHTS)
            landlock.restrict_thread(ruleset)
            drop_dangerous_capabilities()
            if syscall_filter is not None:
                seccomp.install(syscall_filter)
        except BaseException as error:  # noqa: BLE001 - kept, so the command never runs unconfined
            self._box["error"] = error
        finally:
            ruleset.close()
        self._go.acquire()  # sleep until there is a child to start (or nothing: cancelled)
        start = self._box.get("start")
        if start is not None and "error" not in self._box:
            try:
                self._box["value"] = start()
            except BaseException as error:  # noqa: BLE001 - handed back to the caller's thread
                self._box["error"] = error
        self._done.release()

    @property
    def used(self) -> bool:
        return "start" in self._box

    def start(self, start: Callable[[], T]) -> T:
        if self.used:
            raise landlock.LandlockError(0, "a confined launcher starts one child only")
        self._box["start"] = start
        self._go.release()
        self._done.acquire()
        if "error" in self._box:
            raise self._box["error"]
        return self._box["value"]

    def cancel(self) -> None:
        """Let the waiting thread end without starting anything."""
        self._go.release()
        TEMP_FOLDERS.discard(self.temp_dir)


class _Prepared:
    """At most one ready launcher per plan, made on the background thread after each command."""

    def __init__(self) -> None:
        self._ready: OrderedDict[SandboxPlan, _Launcher] = OrderedDict()
        self._lock = threading.Lock()
        self._owner = os.getpid()
        self._closed = False
        atexit.register(self.clear)

    def take(self, plan: SandboxPlan) -> _Launcher:
        with self._lock:
            launcher = self._ready.pop(plan, None) if self._owner == os.getpid() else None
        return launcher or _Launcher(plan)

    def prepare_later(self, plan: SandboxPlan) -> None:
        BACKGROUND.post(lambda: self._prepare(plan))

    def _prepare(self, plan: SandboxPlan) -> None:
        with self._lock:
            if plan in self._ready or self._owner != os.getpid() or self._closed:
                return
        launcher = _Launcher(plan)
        evicted = []
        with self._lock:
            if plan in self._ready or self._closed:
                evicted.append(launcher)
            else:
                self._ready[plan] = launcher
            while len(self._ready) > _KEEP_PLANS:
                evicted.append(self._ready.popitem(last=False)[1])
        for old in evicted:
            old.cancel()

    def clear(self) -> None:
        """At exit: let every waiting launcher go and prepare no more."""
        with self._lock:
            self._closed = True
            launchers, self._ready = list(self._ready.values()), OrderedDict()
        for launcher in launchers:
            launcher.cancel()


PREPARED = _Prepared()


class Confinement:
    """One command's sandbox: a private temp folder and a confined launcher, for the time the
    command runs. Use as a context manager; hand it to `run_process(..., confinement=...)`."""

    def __init__(self, plan: SandboxPlan) -> None:
        self.plan = plan
        self.temp_dir: str | None = None
        self._launcher: _Launcher | None = None

    def __enter__(self) -> Confinement:
        if self.plan.confined:  # full or unsandboxed: nothing to apply, and the result says so
            self._launcher = PREPARED.take(self.plan)
            self.temp_dir = self._launcher.temp_dir
        return self

    def __exit__(self, *_: object) -> None:
        if self._launcher is not None:
            if not self._launcher.used:
                self._launcher.cancel()  # never used: let its thread go
            else:
                TEMP_FOLDERS.discard(self._launcher.temp_dir)
            self._launcher = None
            self.temp_dir = None
            PREPARED.prepare_later(self.plan)

    @property
    def contains_descendants(self) -> bool:
        """The command is the first process of a private PID namespace: when it dies, the kernel
        kills everything it started (see namespaces.py)."""
        return self._launcher is not None and self.plan.namespaces

    def environment(self, env: Mapping[str, str] | None) -> dict[str, str]:
        """The child's environment: `env` (default: ours) with TMPDIR and friends pointing at the
        private temp folder, the one place outside the workspace a confined command may write."""
        out = dict(os.environ if env is None else env)
        if self.temp_dir is not None:
            for name in _TEMP_VARIABLES:
                out[name] = self.temp_dir
        return out

    def spawn(self, start: Callable[[], T]) -> T:
        """Run `start` (which starts the child) on the confined launcher thread."""
        if self._launcher is None:
            if self.plan.confined:
                raise landlock.LandlockError(0, "the sandbox was not prepared (use the Confinement as a context manager)")
            return start()
        return self._launcher.start(start)


def _view(plan: SandboxPlan, temp_dir: str) -> namespaces.View:
    """The command's own root: what it may read and write, nothing else (no socket of the person's
    in /tmp, /run or the home folder exists there); listening sockets found inside a readable
    folder are covered, only the workspace's and the command's own TMPDIR stay reachable."""
    temp = os.path.realpath(temp_dir)
    places = (*plan.readable, *plan.writable, temp)
    own = [p for p in (plan.root, temp) if p]
    covered = tuple(s for s in namespaces.listening_sockets()
                    if any(_within(s, p) for p in places) and not any(_within(s, p) for p in own))
    # /etc in one bind, not one per entry (160 mounts cost 20 ms a command): the view only decides
    # what exists; which entries may be read (never shadow, ssh ...) stays Landlock's rule set.
    readable = tuple(dict.fromkeys("/etc" if p.startswith("/etc/") else p for p in plan.readable))
    return namespaces.View(readable, (*plan.writable, temp), plan.read_only, covered)


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def build_ruleset(plan: SandboxPlan, temp_dir: str) -> landlock.Ruleset:
    abi = plan.abi
    handled = landlock.handled_rights(abi)
    net = landlock.NET_CONNECT_TCP | landlock.NET_BIND_TCP if plan.blocks_network and abi >= 4 else 0
    scoped = 0
    if abi >= 6:  # abstract unix sockets of others are out of reach whatever the network setting (issue 31)
        scoped = landlock.SCOPE_SIGNAL | landlock.SCOPE_ABSTRACT_UNIX_SOCKET
    ruleset = landlock.Ruleset(abi, handled, net, scoped)
    try:
        ruleset.allow_beneath(temp_dir, handled)
        # No FIFO outside the command's own TMPDIR: one named `.gitignore` in the workspace would
        # hold the person's git and ours at open() (issue 31).
        for path in plan.writable:
            ruleset.allow_beneath(path, handled & ~landlock.FS_MAKE_FIFO)
        for path in plan.readable:
            ruleset.allow_beneath(path, landlock.READ_RIGHTS)
    except BaseException:
        ruleset.close()
        raise
    return ruleset
