"""The reporter coalesces a stream's deltas into few messages without reordering anything."""

from __future__ import annotations

from konstruct_tui.agent import TextDelta, ToolStarted
from konstruct_tui.ui.messages import Reported
from konstruct_tui.ui.reporter import MessageReporter, Streamed


class Sink:
    def __init__(self) -> None:
        self.messages: list[object] = []

    def post_message(self, message: object) -> bool:
        self.messages.append(message)
        return True


def test_deltas_join_until_taken_and_other_events_keep_their_place() -> None:
    sink = Sink()
    seen: list[object] = []
    reporter = MessageReporter(sink, also=seen.append)  # type: ignore[arg-type]
    reporter.report(TextDelta(1, "Hel"))
    reporter.report(TextDelta(1, "lo"))
    reporter.report(ToolStarted(1, "c1", "read_code", {}))
    reporter.report(TextDelta(1, "after"))
    first, tool, second = sink.messages
    assert isinstance(first, Streamed) and isinstance(tool, Reported) and isinstance(second, Streamed)
    assert first.take() == TextDelta(1, "Hello")
    reporter.report(TextDelta(1, " more"))  # the second burst is not taken yet: it joins it
    assert len(sink.messages) == 3
    assert second.take() == TextDelta(1, "after more")
    reporter.report(TextDelta(2, "next"))  # taken bursts are closed: a new message
    assert len(sink.messages) == 4 and sink.messages[3].take() == TextDelta(2, "next")  # type: ignore[attr-defined]
    assert len(seen) == 6  # the ledger still sees every single event
