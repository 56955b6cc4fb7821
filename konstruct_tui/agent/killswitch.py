"""The kill switch: stops a run mid-flight, not at the next turn boundary.

`kill(reason)` may be called from any thread or a signal handler. At once it sets the flag (write and
delete batches ask it between entries, so a batch never half-applies), runs the registered hooks
(the command layer's: kill child process groups), and cancels the registered asyncio tasks (the
model turn in flight, whose cancellation closes its HTTP stream). The first reason wins: a kill
after the wall-clock timer fired still reads `timeout`.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Hook = Callable[[], object]  # what it returns is ignored


class KillSwitch:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.event = threading.Event()  # for code that waits on a handle rather than polling
        self.reason: str | None = None
        self._hooks: dict[int, Hook] = {}
        self._tasks: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Task[object]]] = {}
        self._ids = itertools.count()

    def __call__(self) -> bool:
        """Killed yet? (the shape `ToolContext.killed` takes)"""
        return self.event.is_set()

    @property
    def killed(self) -> bool:
        return self.event.is_set()

    def kill(self, reason: str = "killed") -> None:
        with self._lock:
            if self.reason is not None:
                return  # thrown already: hooks and tasks registered since were handled on registration
            self.reason = reason
            self.event.set()
            hooks = list(self._hooks.values())
            tasks = list(self._tasks.values())
        for hook in hooks:
            try:
                hook()
            except Exception:  # noqa: BLE001, S110 - one failing hook must not spare the others
                pass
        for loop, task in tasks:
            if loop.is_closed():
                continue
            try:
                if _running_loop() is loop:
                    task.cancel()
                else:
                    loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:
                pass  # the loop closed meanwhile: nothing left to cancel

    def on_kill(self, hook: Hook) -> Callable[[], None]:
        """Run `hook` when the switch is thrown (at once if it already was). Returns an unregister."""
        with self._lock:
            key = next(self._ids)
            self._hooks[key] = hook
            already = self.event.is_set()
        if already:
            hook()

        def unregister() -> None:
            with self._lock:
                self._hooks.pop(key, None)

        return unregister

    @contextmanager
    def cancels(self, task: asyncio.Task[object]) -> Iterator[None]:
        """While inside, a kill cancels `task` (at once if the switch is already thrown)."""
        loop = task.get_loop()
        with self._lock:
            key = next(self._ids)
            self._tasks[key] = (loop, task)
            already = self.event.is_set()
        if already:
            task.cancel()
        try:
            yield
        finally:
            with self._lock:
                self._tasks.pop(key, None)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
