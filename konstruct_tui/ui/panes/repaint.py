"""Streams repaint at most REPAINT_S apart: a fast model sends hundreds of deltas a second, and a
repaint on each would make the screen fall behind the stream (bench/bench_ui.py measures it). The
streamed reply and the thinking block share this one rule."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.widget import Widget

REPAINT_S = 1 / 30


class RepaintThrottle:
    def __init__(self, widget: Widget, paint: Callable[[], object]) -> None:
        self._widget = widget
        self._paint = paint
        self.pending = False
        self._painted_at = 0.0

    def request(self) -> None:
        """A repaint soon: now (after the deltas already queued) or when the interval is up."""
        if self.pending:
            return
        self.pending = True
        since = time.monotonic() - self._painted_at
        if since >= REPAINT_S:
            self._widget.call_later(self._paint)  # after the pieces already queued: one repaint for the lot
        else:
            self._widget.set_timer(REPAINT_S - since, self._paint)

    def painting(self) -> None:
        """Called first by the paint itself."""
        self.pending = False
        self._painted_at = time.monotonic()
