"""The bridge from the core to the screen: a `ProgressReporterPort` whose `report` posts a message.

It is called on the loop's thread; `post_message` is thread-safe and returns at once, so the loop
never waits for the screen (the port's contract: return quickly).

Text and reasoning deltas are coalesced: while a posted burst has not been taken by the screen yet,
further deltas of the same kind and turn join it instead of posting one message each. A fast model sends hundreds of deltas
a second; one message per delta would queue faster than the screen drains it (bench/bench_ui.py).
Any other event closes the open burst first, so the order on screen is the order of the events.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from textual.message import Message
from textual.message_pump import MessagePump

from ..agent import ReasoningDelta, TextDelta
from .messages import Reportable, Reported


@dataclass
class Burst:
    turn: int
    parts: list[str] = field(default_factory=list)
    kind: type[TextDelta] | type[ReasoningDelta] = TextDelta


class Streamed(Message):
    """Some text deltas are waiting in a burst; `take()` (on the screen's thread) returns them as one."""

    def __init__(self, reporter: MessageReporter, burst: Burst) -> None:
        super().__init__()
        self._reporter = reporter
        self._burst = burst

    def take(self) -> TextDelta | ReasoningDelta:
        return self._reporter.take(self._burst)


class MessageReporter:
    def __init__(self, target: MessagePump, *, also: Callable[[Reportable], None] | None = None) -> None:
        self._target = target
        self._also = also  # e.g. the call ledger the trust prompt reads, kept in order on this thread
        self._lock = threading.Lock()
        self._open: Burst | None = None

    def report(self, event: Reportable) -> None:
        if self._also is not None:
            self._also(event)
        if isinstance(event, (TextDelta, ReasoningDelta)):
            with self._lock:
                burst = self._open
                if burst is not None and burst.turn == event.turn and burst.kind is type(event):
                    burst.parts.append(event.text)
                    return
                burst = self._open = Burst(event.turn, [event.text], type(event))
            self._target.post_message(Streamed(self, burst))
            return
        with self._lock:
            self._open = None
        self._target.post_message(Reported(event))

    def take(self, burst: Burst) -> TextDelta | ReasoningDelta:
        """On the screen's thread: the burst's text as one delta; later deltas start a new burst."""
        with self._lock:
            if self._open is burst:
                self._open = None
            return burst.kind(burst.turn, "".join(burst.parts))
