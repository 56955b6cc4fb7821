"""The transcript shows where compaction happened and what a provider warned about."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static
from ui_harness import make_project, post, wait_for, workbench

from konstruct_tui.agent import (
    Compacted,
    ProviderWarning,
    TextDelta,
    TurnStarted,
)


def _notes(app) -> list[str]:
    return [str(getattr(s.content, "plain", s.content)) for s in app.query("#transcript Static.note")]


async def test_a_compaction_and_a_retry_warning_are_lines_in_the_transcript(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        post(app, TurnStarted(4), Compacted(4, "auto", 31, 6, 380_000, 41_000, 12, 3, 1, 900),
             TextDelta(4, "I'll start"),
             ProviderWarning(4, "retry", "anthropic: Overloaded (overloaded_error) (mid-turn, before any tool call); asking again, the text so far is void"))
        await wait_for(pilot, lambda: len(_notes(app)) >= 2)
        notes = _notes(app)
        assert any("compacted here: 31 earlier messages" in n and "12 files read, 3 changed" in n for n in notes)
        assert any("Overloaded" in n and "the text so far is void" in n for n in notes)
        assert all(isinstance(w, Static) for w in app.query("#transcript Static.note"))
