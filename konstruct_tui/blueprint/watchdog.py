"""The watchdog: keyed by run, not by session, so it outlives every session it watches.

On every tick (30 s by default) it asks two questions:
- silent: is a session running that has shown no sign of life (text, a tool call, a tool result)
  for `silent_after_s` (5 minutes)? It is stopped; the phase turn counts as settled and the gate
  decides what it left behind.
- quiet: is no session running, and has the orchestrator itself shown no progress (no gate step, no
  verification) for `quiet_after_s`? The run is stuck between sessions: it is stopped and parked.

A per-turn deadline already bounds every model turn; the watchdog catches what sits between them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

TICK_S = 30.0
SILENT_AFTER_S = 300.0


class Stoppable(Protocol):
    session_id: str

    def stop(self, reason: str) -> None: ...


@dataclass(frozen=True)
class Alarm:
    kind: str  # silent, quiet
    session_id: str | None
    idle_s: float


@dataclass
class Watchdog:
    run_id: str
    on_alarm: Callable[[Alarm], None]
    tick_s: float = TICK_S
    silent_after_s: float = SILENT_AFTER_S
    quiet_after_s: float | None = None  # default: two ticks
    clock: Callable[[], float] = time.monotonic
    session: Stoppable | None = None
    last_alive: float = field(default=0.0)
    busy_until: float | None = None  # an orchestration step with its own deadline is in flight
    _task: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        self.last_alive = self.clock()
        if self.quiet_after_s is None:
            self.quiet_after_s = 2 * self.tick_s

    def watch(self, session: Stoppable | None) -> None:
        """The session now running (None: none is)."""
        self.session = session
        self.alive()

    def alive(self) -> None:
        self.last_alive = self.clock()

    def busy(self, deadline_s: float | None) -> None:
        """A step that is not a session (verification) runs with its own deadline: the run is not
        quiet while it may still legitimately run. None: the step is over."""
        self.busy_until = None if deadline_s is None else self.clock() + deadline_s
        self.alive()

    def check(self) -> Alarm | None:
        idle = self.clock() - self.last_alive
        if self.session is not None and idle >= self.silent_after_s:
            alarm = Alarm("silent", self.session.session_id, idle)
            self.session.stop("silent")
            self.alive()  # one alarm per silence
            return alarm
        busy = self.busy_until is not None and self.clock() < self.busy_until
        if self.session is None and not busy and self.quiet_after_s is not None and idle >= self.quiet_after_s:
            self.alive()
            return Alarm("quiet", None, idle)
        return None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._ticks(), name=f"watchdog-{self.run_id}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    async def _ticks(self) -> None:
        while True:
            await asyncio.sleep(self.tick_s)
            alarm = self.check()
            if alarm is not None:
                self.on_alarm(alarm)
